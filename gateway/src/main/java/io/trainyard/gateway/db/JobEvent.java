package io.trainyard.gateway.db;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * One line of a job's history ({@code job_events}), shown by {@code GET /v1/jobs/{id}/events}.
 *
 * @param seq assigned by the database on insert (0 in an event not stored yet); orders a job's
 *     events even when two share a timestamp
 * @param type one of the constants below, or another upper-case word a later feature adds
 */
public record JobEvent(long seq, String jobId, Instant at, String type, String message) {
  /** The job was accepted and stored. */
  public static final String SUBMITTED = "SUBMITTED";

  /** The job's state changed; the message says from what to what, and why. */
  public static final String STATE = "STATE";

  /** An attempt was given up and the next offer of the decision is used. */
  public static final String FAILOVER = "FAILOVER";

  public static final String CANCEL_REQUESTED = "CANCEL_REQUESTED";

  /**
   * An ended attempt's logs were archived (or could not be), for backends that do not keep them.
   */
  public static final String LOGS = "LOGS";

  /**
   * An attempt the job had left (its submit's answer lost, then failed over, queued or failed) was
   * cancelled on its backend, or given up on; the message says which ({@link StaleAttempts}).
   */
  public static final String CLEANUP = "CLEANUP";

  public JobEvent {
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(type, "type");
    at = at.truncatedTo(ChronoUnit.MICROS);
  }

  /** An event to store (its {@code seq} is given by the database). */
  public static JobEvent of(String jobId, Instant at, String type, String message) {
    return new JobEvent(0, jobId, at, type, message);
  }
}
