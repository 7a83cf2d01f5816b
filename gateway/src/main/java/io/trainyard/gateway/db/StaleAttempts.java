package io.trainyard.gateway.db;

import io.trainyard.spi.JobState;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Attempts a job has left that may have left an object on their backend ({@code stale_attempts}).
 *
 * <p>A submit can reach a backend while its answer never reaches the row: the gateway is killed
 * between the call and its write, or the call times out after the backend acted on it. The job is
 * then PENDING on an attempt whose object may exist. If it stays on that attempt, the next submit
 * adopts the object (submits are idempotent per attempt). If it leaves it instead — a failover to
 * another offer, back to the queue, failed after its tries — that object would run on, unbilled and
 * untracked, beside the attempt that replaces it. So every write that leaves an attempt records it
 * here in the same transaction ({@link #recordIfLeft}), and the reconciler cancels it on its
 * backend and forgets it ({@link #forget}); whichever replica gets there first.
 *
 * <p>Plain SQL that H2 and PostgreSQL read alike. Thread-safe.
 */
public final class StaleAttempts {
  /** An attempt a job left on {@code backendId} at {@code leftAt}. */
  public record Left(String jobId, int attempt, String backendId, Instant leftAt) {}

  /**
   * {@code replica} cancelled {@code left} on its backend ({@code removed}), or gave it up (false:
   * e.g. the backend is no longer configured); {@code message} says which and why.
   */
  public record Cleanup(Left left, boolean removed, String message, String replica) {}

  private final Jdbi jdbi;
  private final JobAudit audit;
  private final Clock clock;

  StaleAttempts(Jdbi jdbi, JobAudit audit, Clock clock) {
    this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
    this.audit = Objects.requireNonNull(audit, "audit");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /**
   * Whether writing {@code after} over {@code before} leaves {@code before}'s attempt while an
   * object of it may exist: the attempt was placed on a backend (PENDING, SUBMITTED or RUNNING) and
   * the job moves to another attempt, or from PENDING back to the queue or to FAILED. An attempt
   * that ends through its backend's own status (SUBMITTED or RUNNING to an end) is not left: its
   * object is the job's, cleaned up as it ends; a PENDING job cancelled has its attempt cancelled
   * before the write.
   */
  static boolean leaves(JobRow before, JobRow after) {
    if (before.backendId() == null) {
      return false;
    }
    var state = before.state();
    if (state != JobState.PENDING && state != JobState.SUBMITTED && state != JobState.RUNNING) {
      return false;
    }
    if (after.attempt() != before.attempt()) {
      return true;
    }
    return state == JobState.PENDING
        && (after.state() == JobState.QUEUED || after.state() == JobState.FAILED);
  }

  /** Records {@code before}'s attempt if the write to {@code after} leaves it; in {@code h}. */
  static void recordIfLeft(Handle h, JobRow before, JobRow after, Instant now) {
    if (!leaves(before, after)) {
      return;
    }
    h.createUpdate(
            "INSERT INTO stale_attempts (job_id, attempt, backend_id, left_at)"
                + " SELECT :job, :attempt, :backend, :at WHERE NOT EXISTS"
                + " (SELECT 1 FROM stale_attempts WHERE job_id = :job AND attempt = :attempt)")
        .bind("job", before.id())
        .bind("attempt", before.attempt())
        .bind("backend", before.backendId())
        .bind("at", JobColumns.utc(now))
        .execute();
  }

  /** Up to {@code max} left attempts, longest left first. */
  public List<Left> list(int max) {
    return jdbi.withHandle(
        h ->
            h.createQuery(
                    "SELECT job_id, attempt, backend_id, left_at FROM stale_attempts"
                        + " ORDER BY left_at, job_id, attempt")
                .setMaxRows(max)
                .map(
                    (rs, ctx) ->
                        new Left(
                            rs.getString("job_id"),
                            rs.getInt("attempt"),
                            rs.getString("backend_id"),
                            JobColumns.instant(rs, "left_at")))
                .list());
  }

  /** Puts {@code left} behind the others, as left now: its clean-up failed and is tried later. */
  public void postpone(Left left) {
    jdbi.useHandle(
        h ->
            h.createUpdate(
                    "UPDATE stale_attempts SET left_at = :now"
                        + " WHERE job_id = :job AND attempt = :attempt")
                .bind("now", JobColumns.utc(clock.instant()))
                .bind("job", left.jobId())
                .bind("attempt", left.attempt())
                .execute());
  }

  /**
   * Forgets {@code left}, with a {@link JobEvent#CLEANUP} event saying {@code message} and its
   * audit event, in one transaction.
   *
   * @param removed whether its backend was asked to remove it (false: given up, e.g. the backend is
   *     no longer configured)
   * @return false when another replica forgot it first (nothing written)
   */
  public boolean forget(Left left, boolean removed, String message, String replica) {
    return jdbi.inTransaction(
        h -> {
          int deleted =
              h.createUpdate(
                      "DELETE FROM stale_attempts WHERE job_id = :job AND attempt = :attempt")
                  .bind("job", left.jobId())
                  .bind("attempt", left.attempt())
                  .execute();
          if (deleted == 0) {
            return false;
          }
          var job =
              h.createQuery(JobColumns.SELECT + " WHERE id = :id")
                  .bind("id", left.jobId())
                  .map(JobColumns.MAPPER)
                  .one();
          JobStore.insertEvents(
              h, List.of(JobEvent.of(left.jobId(), clock.instant(), JobEvent.CLEANUP, message)));
          audit.attemptCleanedUp(h, job, new Cleanup(left, removed, message, replica));
          return true;
        });
  }
}
