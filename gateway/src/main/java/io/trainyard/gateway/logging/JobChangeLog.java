package io.trainyard.gateway.logging;

import io.trainyard.audit.AuditActor;
import io.trainyard.gateway.db.AfterCommit;
import io.trainyard.gateway.db.JobAudit;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.db.StaleAttempts;
import java.util.Map;
import java.util.Objects;
import org.jdbi.v3.core.Handle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * One INFO line per job change that committed (stored, state changed, cancel asked, adopted), with
 * the job's id, team and backend in the MDC ({@link JobMdc}), so a JSON log can be filtered to one
 * job's life. Decorates {@link JobAudit}: the delegate first, the line after the commit. Names and
 * states only: never the spec, which may carry environment values.
 */
public final class JobChangeLog {
  private static final Logger LOG = LoggerFactory.getLogger(JobChangeLog.class);

  private JobChangeLog() {}

  public static JobAudit logging(JobAudit delegate) {
    Objects.requireNonNull(delegate, "delegate");
    return new JobAudit() {
      @Override
      public void submitted(Handle h, JobRow stored, AuditActor actor) {
        delegate.submitted(h, stored, actor);
        // Committed on a group commit's thread, maybe: the line keeps the request's context.
        AfterCommit.run(
            h,
            inThisContext(
                () ->
                    log(
                        stored,
                        "job {} stored {} by {}",
                        stored.id(),
                        stored.state(),
                        actor.username())));
      }

      @Override
      public void refused(Handle h, JobRow attempted, AuditActor actor, String reason) {
        delegate.refused(h, attempted, actor, reason);
      }

      @Override
      public void changed(Handle h, JobRow before, JobRow after, String replica) {
        delegate.changed(h, before, after, replica);
        if (before.state() != after.state() || before.attempt() != after.attempt()) {
          AfterCommit.run(
              h,
              () ->
                  log(
                      after,
                      "job {}: {} -> {} (attempt {}){}",
                      after.id(),
                      before.state(),
                      after.state(),
                      after.attempt(),
                      after.reason() == null ? "" : ": " + LogEscape.of(after.reason())));
        }
      }

      @Override
      public void cancelRequested(Handle h, JobRow job, AuditActor actor) {
        delegate.cancelRequested(h, job, actor);
        AfterCommit.run(
            h,
            inThisContext(
                () -> log(job, "job {}: cancel requested by {}", job.id(), actor.username())));
      }

      @Override
      public void adopted(Handle h, JobRow job, String previousReplica, String replica) {
        delegate.adopted(h, job, previousReplica, replica);
        AfterCommit.run(
            h,
            () -> log(job, "job {}: followed by {} after {}", job.id(), replica, previousReplica));
      }

      @Override
      public void attemptCleanedUp(Handle h, JobRow job, StaleAttempts.Cleanup cleanup) {
        delegate.attemptCleanedUp(h, job, cleanup);
      }
    };
  }

  /**
   * {@code action} run later, maybe on another thread, with the MDC (request id, trace id) of the
   * thread that asked for it now.
   */
  private static Runnable inThisContext(Runnable action) {
    var context = MDC.getCopyOfContextMap();
    return () -> {
      var outer = MDC.getCopyOfContextMap();
      MDC.setContextMap(context == null ? Map.of() : context);
      try {
        action.run();
      } finally {
        MDC.setContextMap(outer == null ? Map.of() : outer);
      }
    };
  }

  private static void log(JobRow job, String format, Object... args) {
    try (var mdc = JobMdc.of(job)) {
      LOG.info(format, args);
    }
  }
}
