package io.trainyard.gateway.db;

import org.jdbi.v3.core.Handle;

/**
 * Whether a job may be placed on a backend now, beyond its budget: the team's quotas. Asked by
 * {@link JobStore} inside the transaction that would place the job (a submission, or a queued job
 * moving on), with the team's row locked, so two replicas cannot both place into the last of a
 * quota. Implemented by {@code io.trainyard.gateway.queue.TeamQuotas}.
 */
@FunctionalInterface
public interface JobAdmission {
  /** Admits everything. */
  JobAdmission NONE = (h, job) -> null;

  /**
   * @param job the job as it would be placed (PENDING on an offer)
   * @return why it must wait (which quota), in words shown to the user; null to place it
   */
  String refusal(Handle h, JobRow job);
}
