package io.trainyard.gateway.db;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trainyard.audit.AuditActor;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jdbi.v3.core.Handle;

/**
 * Keeps {@code jobs.algorithm_name} and {@code algorithm_version} (the registered algorithm a job
 * runs, {@code spec.algorithm} = {@code team/name@N} as resolved at submit) beside the spec, so
 * that {@code GET /v1/jobs?algorithm=} is an index read rather than a scan of every spec. Decorates
 * {@link JobAudit}: the columns are written in the submission's own transaction, after the
 * delegate's events.
 */
public final class JobAlgorithms implements JobAudit {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern REFERENCE = Pattern.compile("([^/@]+/[^/@]+)@(\\d{1,9})");

  private final JobAudit delegate;

  public JobAlgorithms(JobAudit delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  @Override
  public void submitted(Handle h, JobRow stored, AuditActor actor) {
    delegate.submitted(h, stored, actor);
    var algorithm = of(stored.specJson());
    if (algorithm == null) {
      return;
    }
    h.createUpdate(
            "UPDATE jobs SET algorithm_name = :name, algorithm_version = :version WHERE id = :id")
        .bind("name", algorithm.name())
        .bind("version", algorithm.version())
        .bind("id", stored.id())
        .execute();
  }

  @Override
  public void refused(Handle h, JobRow attempted, AuditActor actor, String reason) {
    delegate.refused(h, attempted, actor, reason);
  }

  @Override
  public void changed(Handle h, JobRow before, JobRow after, String replica) {
    delegate.changed(h, before, after, replica);
  }

  @Override
  public void cancelRequested(Handle h, JobRow job, AuditActor actor) {
    delegate.cancelRequested(h, job, actor);
  }

  @Override
  public void adopted(Handle h, JobRow job, String previousReplica, String replica) {
    delegate.adopted(h, job, previousReplica, replica);
  }

  @Override
  public void attemptCleanedUp(Handle h, JobRow job, StaleAttempts.Cleanup cleanup) {
    delegate.attemptCleanedUp(h, job, cleanup);
  }

  /** A registered algorithm's version, as a job runs it. */
  record Reference(String name, int version) {}

  /** The algorithm a stored spec runs; null when it names none. */
  static Reference of(String specJson) {
    var reference = reference(specJson);
    if (reference == null) {
      return null;
    }
    var m = REFERENCE.matcher(reference);
    return m.matches() ? new Reference(m.group(1), Integer.parseInt(m.group(2))) : null;
  }

  /** {@code spec.algorithm} of a stored spec; null when it names none. */
  static String reference(String specJson) {
    if (specJson == null || !specJson.contains("\"algorithm\"")) {
      return null;
    }
    try {
      var node = JSON.readTree(specJson).at("/spec/algorithm");
      return node.isTextual() ? node.asText() : null;
    } catch (JsonProcessingException e) {
      return null;
    }
  }
}
