package io.trainyard.gateway.db;

import io.trainyard.audit.AuditActor;
import io.trainyard.cost.Budget;
import io.trainyard.spi.JobState;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;

/**
 * One {@link JobStore#insert}: the job, its first event and its idempotency key in one transaction,
 * or the reason it cannot be stored.
 *
 * <p>A young key or a live name is looked up first, which answers the ordinary retry without an
 * error; concurrent inserts are settled by the primary key of {@code idempotency_keys} and the
 * unique (team, live_name) of {@code jobs}: the loser's transaction rolls back, and it reads what
 * the winner stored.
 */
final class JobInsertion {
  /** Unique or primary key violation: the same SQLState on H2 and PostgreSQL. */
  private static final String UNIQUE_VIOLATION = "23505";

  private final Jdbi jdbi;
  private final JobRow job;
  private final JobEvent event;
  private final IdempotencyKey key;
  private final Budget budget;
  private final JobAudit audit;
  private final AuditActor actor;
  private final JobAdmission admission;

  /** What the last {@link #sameKey} read: an expired row holding the key. */
  private boolean expiredKeySeen;

  JobInsertion(
      Jdbi jdbi,
      JobRow job,
      JobEvent event,
      IdempotencyKey keyOrNull,
      Budget budget,
      JobAudit audit,
      AuditActor actor,
      JobAdmission admission) {
    this.admission = admission;
    this.jdbi = jdbi;
    this.job = job;
    this.event = event;
    this.key = keyOrNull;
    this.budget = budget;
    this.audit = audit;
    this.actor = actor;
  }

  InsertResult run(Supplier<Instant> now) {
    for (int race = 0; ; race++) {
      try {
        return jdbi.inTransaction(h -> tryInsert(h, now.get(), false));
      } catch (JdbiException e) {
        if (!isUniqueViolation(e)) {
          throw e;
        }
      }
      // Lost to a concurrent insert and rolled back. PostgreSQL reports the violation only once
      // the winner committed, so it is visible now; H2 may report it before, hence the retry.
      var conflict = jdbi.withHandle(h -> conflict(h, now.get()));
      if (conflict.isPresent()) {
        return conflict.get();
      }
      JobStore.backOff(race);
    }
  }

  /**
   * The team whose row this insert locks (budget or quotas), which a {@link GroupCommit} locks
   * first, with the batch's others in sorted order; null when it locks none.
   */
  String teamToLock() {
    var placed = job.state() == JobState.PENDING;
    return placed && (admission != JobAdmission.NONE || budget != null) ? job.team() : null;
  }

  /**
   * The insert inside {@code h}'s transaction; throws a unique violation when it lost a race.
   *
   * @param teamLocked whether the transaction holds {@link #teamToLock()}'s row already
   */
  InsertResult tryInsert(Handle h, Instant now, boolean teamLocked) {
    var conflict = conflict(h, now);
    if (conflict.isPresent()) {
      return conflict.get();
    }
    if (expiredKeySeen) {
      // An expired key is free again. Only an expired one: a concurrent insert may have just
      // committed a young one, which must stay and make this insert fail.
      h.createUpdate(
              "DELETE FROM idempotency_keys WHERE team = :team AND subject = :subject"
                  + " AND idem_key = :key AND created_at <= :since")
          .bind("team", key.team())
          .bind("subject", key.subject())
          .bind("key", key.key())
          .bind("since", JobColumns.utc(now.minus(JobStore.IDEMPOTENCY_WINDOW)))
          .execute();
    }
    var stored = job.toBuilder().lease(null, null).version(0).build();
    var first = event;
    // A job stored QUEUED (no backend can take it now) has no offer to check yet: that happens
    // when it is dispatched.
    var placed = job.state() == JobState.PENDING;
    if (placed && admission != JobAdmission.NONE && !teamLocked) {
      TeamLedger.lock(h, job.team());
    }
    if (placed && budget != null) {
      var verdict =
          teamLocked
              ? TeamLedger.check(h, job.team(), budget, job.estimatedUsd(), now)
              : TeamLedger.lockAndCheck(h, job.team(), budget, job.estimatedUsd(), now);
      if (!verdict.fits()) {
        if (budget.overBudget() == Budget.OverBudget.REFUSE) {
          audit.refused(h, job, actor, verdict.reason());
          return new InsertResult.OverBudget(verdict);
        }
        // Queued without a backend: it is re-quoted when the budget leaves room.
        stored =
            stored.toBuilder()
                .state(JobState.QUEUED)
                .backendId(null)
                .reason(verdict.reason())
                .build();
        first = JobEvent.of(job.id(), event.at(), JobEvent.STATE, "QUEUED: " + verdict.reason());
      }
    }
    if (stored.state() == JobState.PENDING) {
      var refusal = admission.refusal(h, stored);
      if (refusal != null) {
        // Over a team quota: it waits, and is dispatched in queue order when room frees.
        stored =
            stored.toBuilder()
                .state(JobState.QUEUED)
                .backendId(null)
                .hourlyUsd(null)
                .estimatedUsd(null)
                .reason(refusal)
                .build();
        first = JobEvent.of(job.id(), event.at(), JobEvent.STATE, "QUEUED: " + refusal);
      }
    }
    JobColumns.bindAll(h.createUpdate(JobColumns.INSERT), stored).execute();
    if (key != null) {
      h.createUpdate(
              "INSERT INTO idempotency_keys (team, subject, idem_key, spec_hash, job_id, created_at)"
                  + " VALUES (:team, :subject, :key, :hash, :job, :at)")
          .bind("team", key.team())
          .bind("subject", key.subject())
          .bind("key", key.key())
          .bind("hash", key.specHash())
          .bind("job", job.id())
          .bind("at", JobColumns.utc(now))
          .execute();
    }
    JobStore.insertEvents(h, List.of(first));
    audit.submitted(h, stored, actor);
    return new InsertResult.Created(stored);
  }

  /** Why the job cannot be stored, if it cannot: a young key first, then a live name. */
  Optional<InsertResult> conflict(Handle h, Instant now) {
    var sameKey = sameKey(h, now);
    if (sameKey.isPresent()) {
      return sameKey;
    }
    var nameTaken =
        h.createQuery("SELECT id FROM jobs WHERE team = :team AND live_name = :name")
            .bind("team", job.team())
            .bind("name", job.name())
            .mapTo(String.class)
            .findOne()
            .<InsertResult>map(InsertResult.NameTaken::new);
    if (nameTaken.isPresent() && key != null) {
      // A twin holding both may have committed between the two reads (H2 reports a violation
      // before the other transaction commits): its key, if it is the same, answers first.
      var committedMeanwhile = sameKey(h, now);
      if (committedMeanwhile.isPresent()) {
        return committedMeanwhile;
      }
    }
    return nameTaken;
  }

  /**
   * The young key's job, if any. Notes whether an expired row holds the key, which the insert then
   * deletes first (its own statement only then: most keys are new).
   */
  private Optional<InsertResult> sameKey(Handle h, Instant now) {
    if (key == null) {
      return Optional.empty();
    }
    var since = now.minus(JobStore.IDEMPOTENCY_WINDOW);
    var row =
        h.createQuery(
                "SELECT job_id, spec_hash, created_at FROM idempotency_keys WHERE team = :team"
                    + " AND subject = :subject AND idem_key = :key")
            .bind("team", key.team())
            .bind("subject", key.subject())
            .bind("key", key.key())
            .map(
                (rs, ctx) ->
                    new KeyRow(
                        rs.getString(1), rs.getString(2), JobColumns.instant(rs, "created_at")))
            .findOne();
    expiredKeySeen = row.isPresent() && !row.get().createdAt().isAfter(since);
    return row.filter(r -> r.createdAt().isAfter(since))
        .map(r -> new InsertResult.SameKey(r.jobId(), r.specHash()));
  }

  private record KeyRow(String jobId, String specHash, Instant createdAt) {}

  static boolean isUniqueViolation(Throwable e) {
    for (var t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql && UNIQUE_VIOLATION.equals(sql.getSQLState())) {
        return true;
      }
    }
    return false;
  }
}
