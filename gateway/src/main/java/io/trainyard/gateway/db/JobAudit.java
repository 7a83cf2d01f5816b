package io.trainyard.gateway.db;

import io.trainyard.audit.AuditActor;
import org.jdbi.v3.core.Handle;

/**
 * The audit events of job changes, written by {@link JobStore} inside the transaction of the change
 * itself (DESIGN.md's outbox): a change and its events commit together or not at all, so nothing is
 * audited that did not happen and nothing happens unaudited. Each method is called as the last
 * statement of its transaction and throws to roll it back. Implemented by {@code
 * io.trainyard.gateway.audit.JobAuditTrail}.
 */
public interface JobAudit {
  /** For tests of the job tables alone: writes nothing. */
  JobAudit NONE =
      new JobAudit() {
        @Override
        public void submitted(Handle h, JobRow stored, AuditActor actor) {}

        @Override
        public void refused(Handle h, JobRow attempted, AuditActor actor, String reason) {}

        @Override
        public void changed(Handle h, JobRow before, JobRow after, String replica) {}

        @Override
        public void cancelRequested(Handle h, JobRow job, AuditActor actor) {}

        @Override
        public void adopted(Handle h, JobRow job, String previousReplica, String replica) {}

        @Override
        public void attemptCleanedUp(Handle h, JobRow job, StaleAttempts.Cleanup cleanup) {}
      };

  /** A job was stored (PENDING on its offer, or QUEUED). */
  void submitted(Handle h, JobRow stored, AuditActor actor);

  /** A submission was refused by policy (no offer, over budget): nothing was stored. */
  void refused(Handle h, JobRow attempted, AuditActor actor, String reason);

  /** The reconciler (as {@code replica}) changed a job: state, attempt, backend, route. */
  void changed(Handle h, JobRow before, JobRow after, String replica);

  /** Someone asked for the job to be cancelled. */
  void cancelRequested(Handle h, JobRow job, AuditActor actor);

  /** {@code replica} took over following a job's attempt from {@code previousReplica}. */
  void adopted(Handle h, JobRow job, String previousReplica, String replica);

  /**
   * An attempt the job had left on its backend was cancelled or given up ({@link StaleAttempts}).
   */
  void attemptCleanedUp(Handle h, JobRow job, StaleAttempts.Cleanup cleanup);
}
