package io.trainyard.gateway.queue;

import io.trainyard.gateway.config.TeamConfig;
import io.trainyard.spi.spec.JobSpec;
import java.util.Optional;

/** A job's priority in the queue: {@code spec.priority} (default 500) capped by the team's. */
public final class QueuePriority {
  private QueuePriority() {}

  /** The priority the job is queued at. */
  public static int of(TeamConfig team, JobSpec spec) {
    var asked = spec.effectivePriority();
    return team.maxPriority() == null ? asked : Math.min(asked, team.maxPriority());
  }

  /** The warning a capped job gets, naming the cap; empty when the priority stands. */
  public static Optional<String> warning(String teamName, TeamConfig team, JobSpec spec) {
    var asked = spec.effectivePriority();
    var effective = of(team, spec);
    if (effective == asked) {
      return Optional.empty();
    }
    return Optional.of(
        "spec.priority: "
            + asked
            + " is above team "
            + teamName
            + "'s maxPriority "
            + team.maxPriority()
            + "; the job is queued at priority "
            + effective);
  }
}
