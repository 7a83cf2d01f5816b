package io.trainyard.gateway.algorithms;

import io.trainyard.gateway.auth.Caller;
import io.trainyard.gateway.jobs.SpecReader;
import io.trainyard.gateway.jobs.TeamDirectory;

/**
 * Expands the jobs a caller submits or quotes that name an algorithm, in the job's team (the one
 * the job will be stored under): {@code POST /v1/jobs} and {@code POST /v1/quotes} read their
 * bodies through it. Thread-safe.
 */
public final class AlgorithmExpander {
  private final AlgorithmResolver resolver;
  private final TeamDirectory teams;

  public AlgorithmExpander(AlgorithmResolver resolver, TeamDirectory teams) {
    this.resolver = resolver;
    this.teams = teams;
  }

  public SpecReader.Expansion forCaller(Caller caller) {
    return job -> {
      var requested = job.metadata() == null ? null : job.metadata().team();
      var resolved = resolver.resolve(job, teams.resolve(caller.principal(), requested));
      return new SpecReader.ParsedJob(resolved.job(), resolved.warnings());
    };
  }
}
