package io.trainyard.gateway.db;

import io.trainyard.audit.AuditActor;
import io.trainyard.cost.Budget;
import io.trainyard.cost.MonthlySpend;
import io.trainyard.spi.JobState;
import io.trainyard.spi.SecretScrubber;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.SqlStatements;

/**
 * The jobs table, its events and idempotency keys: what the REST resources and the reconciler read
 * and write. Runs the same SQL on H2 and PostgreSQL.
 *
 * <p>Thread-safe; every method is one or a few short transactions. Concurrency control is
 * optimistic: each write bumps {@code version}, and the reconciler's writes are also fenced on its
 * lease, so a replica whose lease lapsed cannot overwrite. Lease times come from the {@link Clock},
 * so replicas' clocks must agree to well within a lease.
 */
public final class JobStore {
  /** How long an idempotency key answers with the job it made. */
  public static final Duration IDEMPOTENCY_WINDOW = Duration.ofHours(24);

  /** At most this many teams' rows are remembered as made ({@link #ensureTeam}). */
  private static final int MAX_TEAMS_REMEMBERED = 10_000;

  /** Races lost in a row before giving up: each one means another writer made progress. */
  private static final int MAX_RACES = 50;

  private static final String LIVE_STATES =
      Arrays.stream(JobState.values())
          .filter(s -> !s.isTerminal())
          .map(s -> "'" + s.name() + "'")
          .collect(Collectors.joining(", "));

  /** The live states but QUEUED: what the reconciler leases when a queue dispatcher runs. */
  private static final String LIVE_STATES_BUT_QUEUED =
      Arrays.stream(JobState.values())
          .filter(s -> !s.isTerminal() && s != JobState.QUEUED)
          .map(s -> "'" + s.name() + "'")
          .collect(Collectors.joining(", "));

  private static final String FENCE =
      " WHERE id = :id AND version = :version AND lease_owner = :owner AND lease_until > :now";

  private final Jdbi jdbi;
  private final Clock clock;
  private final JobAudit audit;
  private final JobAdmission admission;
  private final GroupCommit groupCommit;
  private final WaitingJobs waiting;
  private final StaleAttempts staleAttempts;

  /** Teams whose row this store made or found: a submission checks once, not every time. */
  private final Set<String> teamsWithRows = ConcurrentHashMap.newKeySet();

  /** A store that audits nothing: for tests of the job tables alone. */
  public JobStore(Jdbi jdbi, Clock clock) {
    this(jdbi, clock, JobAudit.NONE);
  }

  /**
   * @param audit writes the audit events of every change in the change's own transaction
   */
  public JobStore(Jdbi jdbi, Clock clock, JobAudit audit) {
    this(jdbi, clock, audit, JobAdmission.NONE);
  }

  /**
   * @param admission the teams' quotas, checked wherever a job would be placed on a backend; a job
   *     over one is stored (or stays) QUEUED with the reason
   */
  public JobStore(Jdbi jdbi, Clock clock, JobAudit audit, JobAdmission admission) {
    this(jdbi, clock, audit, admission, null);
  }

  /**
   * @param groupCommitOrNull commits concurrent inserts together ({@link GroupCommit}); null to
   *     commit each insert in its own transaction
   */
  public JobStore(
      Jdbi jdbi,
      Clock clock,
      JobAudit audit,
      JobAdmission admission,
      GroupCommit groupCommitOrNull) {
    this.groupCommit = groupCommitOrNull;
    this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.audit = Objects.requireNonNull(audit, "audit");
    this.admission = Objects.requireNonNull(admission, "admission");
    this.staleAttempts = new StaleAttempts(jdbi, audit, clock);
    this.waiting = new WaitingJobs(jdbi, clock);
  }

  /** The attempts jobs have left that may have left objects behind, for the reconciler. */
  public StaleAttempts staleAttempts() {
    return staleAttempts;
  }

  /**
   * Stores a new job with its first event and, if given, its idempotency key, in one transaction;
   * or stores nothing and says why. Of concurrent inserts with the same key or the same live name,
   * exactly one is {@link InsertResult.Created}.
   */
  public InsertResult insert(JobRow job, JobEvent event, IdempotencyKey keyOrNull) {
    return insert(job, event, keyOrNull, null);
  }

  /**
   * As {@link #insert(JobRow, JobEvent, IdempotencyKey)}, checking the team's budget in the same
   * transaction with the team's row locked: over budget, the job is stored QUEUED or refused
   * ({@link InsertResult.OverBudget}) as the budget says.
   *
   * @param budget the team's budget; null when it has none
   */
  public InsertResult insert(JobRow job, JobEvent event, IdempotencyKey keyOrNull, Budget budget) {
    var owner = new AuditActor(job.ownerSubject(), job.ownerUsername(), null, null, null);
    return insert(job, event, keyOrNull, budget, owner);
  }

  /**
   * As {@link #insert(JobRow, JobEvent, IdempotencyKey, Budget)}, auditing the submission (or its
   * refusal for budget) as {@code actor}'s in the same transaction.
   */
  public InsertResult insert(
      JobRow job, JobEvent event, IdempotencyKey keyOrNull, Budget budget, AuditActor actor) {
    requireEventOf(job, event);
    var insertion = new JobInsertion(jdbi, job, event, keyOrNull, budget, audit, actor, admission);
    var team = insertion.teamToLock();
    if (team != null) {
      ensureTeam(team);
    }
    InsertResult result;
    try {
      result = commit(insertion);
    } catch (TeamLedger.NoTeamRow gone) {
      // A row this store made was deleted since (by hand, or a test's clean-up). It may be another
      // team's: a group commit locks its batch's teams first, and fails the batch without one.
      teamsWithRows.remove(gone.team());
      if (team != null) {
        ensureTeam(team);
      }
      result = commit(insertion);
    }
    if (result instanceof InsertResult.Created created) {
      waiting.moved(null, WaitingJobs.waitsOn(created.job())); // committed
    }
    return result;
  }

  private InsertResult commit(JobInsertion insertion) {
    return groupCommit != null
        ? groupCommit.insert(insertion, this::now)
        : insertion.run(this::now);
  }

  /** Makes the team's row, which a budget or quota check locks, unless this store made it. */
  private void ensureTeam(String team) {
    if (teamsWithRows.contains(team)) {
      return;
    }
    TeamLedger.ensureTeam(jdbi, team, now());
    if (teamsWithRows.size() < MAX_TEAMS_REMEMBERED) {
      teamsWithRows.add(team);
    }
  }

  /** Audits a submission that was refused before anything could be stored (no offer). */
  public void refused(JobRow attempted, AuditActor actor, String reason) {
    jdbi.useTransaction(h -> audit.refused(h, attempted, actor, reason));
  }

  public Optional<JobRow> find(String id) {
    return jdbi.withHandle(
        h ->
            h.createQuery(JobColumns.SELECT + " WHERE id = :id")
                .bind("id", id)
                .map(JobColumns.MAPPER)
                .findOne());
  }

  /**
   * A team's jobs (or every team's), newest first.
   *
   * @param statesOrEmpty only jobs in these states; empty for all
   */
  public List<JobRow> list(String teamOrNullForAll, Set<JobState> statesOrEmpty, int limit) {
    var where = new ArrayList<String>();
    if (teamOrNullForAll != null) {
      where.add("team = :team");
    }
    if (!statesOrEmpty.isEmpty()) {
      where.add("state IN (<states>)");
    }
    var sql =
        JobColumns.SELECT
            + (where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where))
            + " ORDER BY created_at DESC, id DESC LIMIT :limit";
    return jdbi.withHandle(
        h -> {
          var query = h.createQuery(sql).bind("limit", limit);
          if (teamOrNullForAll != null) {
            query.bind("team", teamOrNullForAll);
          }
          if (!statesOrEmpty.isEmpty()) {
            query.bindList("states", statesOrEmpty.stream().map(Enum::name).toList());
          }
          return query.map(JobColumns.MAPPER).list();
        });
  }

  /**
   * Leases up to {@code max} live jobs whose lease is free, lapsed or already {@code owner}'s, for
   * {@code lease} from now. Each row is won by its own conditional update on {@code version}, so of
   * concurrent claimers exactly one wins a row; the others skip it.
   *
   * @return the rows won, as now stored (new lease, new version)
   */
  public List<JobRow> claim(String owner, Duration lease, int max) {
    return claim(owner, lease, max, id -> false);
  }

  /**
   * {@link #claim(String, Duration, int)}, leaving alone the jobs {@code busy} names: those this
   * replica is still stepping, whose version a new lease would bump under the step's feet. {@code
   * busy} is asked about each candidate at most once, just before its lease is tried, so it may
   * reserve the job as it answers (the reconciler does).
   */
  public List<JobRow> claim(String owner, Duration lease, int max, Predicate<String> busy) {
    return claim(owner, lease, max, busy, true);
  }

  /**
   * {@link #claim(String, Duration, int, Predicate)}; without QUEUED jobs when {@code
   * includeQueued} is false (a queue dispatcher takes those in its own order, {@link #claimOne}).
   */
  public List<JobRow> claim(
      String owner, Duration lease, int max, Predicate<String> busy, boolean includeQueued) {
    Objects.requireNonNull(owner, "owner");
    var states = includeQueued ? LIVE_STATES : LIVE_STATES_BUT_QUEUED;
    var now = now();
    var until = now.plus(lease);
    return jdbi.withHandle(
        h -> {
          // Twice as many candidates as wanted, as a concurrent claimer may take some first.
          // Never-leased rows first, then by how long ago their lease ended (see release).
          var candidates =
              h.createQuery(
                      JobColumns.SELECT
                          + " WHERE state IN ("
                          + states
                          + ") AND (lease_owner IS NULL OR lease_until <= :now"
                          + " OR lease_owner = :owner)"
                          + " ORDER BY lease_until NULLS FIRST, updated_at, id LIMIT :limit")
                  .bind("now", JobColumns.utc(now))
                  .bind("owner", owner)
                  .bind("limit", 2 * max)
                  .map(JobColumns.MAPPER)
                  .list();
          var won = new ArrayList<JobRow>();
          for (var candidate : candidates) {
            if (won.size() == max) {
              break;
            }
            if (busy.test(candidate.id())) {
              continue;
            }
            if (leaseOne(h, candidate, owner, until)) {
              won.add(leased(candidate, owner, until));
            }
          }
          return won;
        });
  }

  /**
   * Leases job {@code id} for {@code owner} as {@link #claim} would, if it is live and its lease is
   * free, lapsed or already {@code owner}'s.
   *
   * @return the row as now stored (new lease, new version); empty when it is not there to take
   */
  public Optional<JobRow> claimOne(String id, String owner, Duration lease) {
    return claimOne(id, owner, lease, true);
  }

  /**
   * {@link #claimOne(String, String, Duration)}; a QUEUED job is left alone when {@code
   * includeQueued} is false (a queue dispatcher takes those in its own order), as {@link
   * #claim(String, Duration, int, Predicate, boolean)} does. The reconciler's targeted step.
   */
  public Optional<JobRow> claimOne(String id, String owner, Duration lease, boolean includeQueued) {
    var now = now();
    var until = now.plus(lease);
    return jdbi.withHandle(
        h -> {
          var row =
              h.createQuery(JobColumns.SELECT + " WHERE id = :id")
                  .bind("id", id)
                  .map(JobColumns.MAPPER)
                  .findOne();
          if (row.isEmpty()
              || !claimable(row.get(), owner, now, includeQueued)
              || !leaseOne(h, row.get(), owner, until)) {
            return Optional.<JobRow>empty();
          }
          return Optional.of(leased(row.get(), owner, until));
        });
  }

  /**
   * {@link #claimOne(String, String, Duration, boolean)} of a row the caller has just read, without
   * reading it again: leased if it is still at the version read; read again and leased as that
   * method would when it moved on meanwhile.
   */
  public Optional<JobRow> claimOne(
      JobRow seen, String owner, Duration lease, boolean includeQueued) {
    var now = now();
    if (!claimable(seen, owner, now, includeQueued)) {
      return Optional.empty();
    }
    var until = now.plus(lease);
    if (jdbi.withHandle(h -> leaseOne(h, seen, owner, until))) {
      return Optional.of(leased(seen, owner, until));
    }
    return claimOne(seen.id(), owner, lease, includeQueued);
  }

  /** Live, not QUEUED unless asked for, and not held by another replica: what claimOne leases. */
  private static boolean claimable(JobRow row, String owner, Instant now, boolean includeQueued) {
    return !row.state().isTerminal()
        && (includeQueued || row.state() != JobState.QUEUED)
        && !row.heldByAnother(owner, now);
  }

  /** {@code row} as a won lease leaves it: the new lease, the next version. */
  private static JobRow leased(JobRow row, String owner, Instant until) {
    return row.toBuilder().lease(owner, until).version(row.version() + 1).build();
  }

  /** Leases one candidate of {@link #claim} if nobody changed it since it was read. */
  private boolean leaseOne(Handle h, JobRow candidate, String owner, Instant until) {
    // Taking over an attempt another replica was following is an adoption, audited with the
    // lease it changes.
    boolean takeover =
        candidate.leaseOwner() != null
            && !candidate.leaseOwner().equals(owner)
            && candidate.externalRefJson() != null;
    return h.inTransaction(
        tx -> {
          int n =
              tx.createUpdate(
                      "UPDATE jobs SET lease_owner = :owner, lease_until = :until,"
                          + " version = version + 1 WHERE id = :id AND version = :version")
                  .bind("owner", owner)
                  .bind("until", JobColumns.utc(until))
                  .bind("id", candidate.id())
                  .bind("version", candidate.version())
                  .execute();
          if (n == 1 && takeover) {
            audit.adopted(tx, candidate, candidate.leaseOwner(), owner);
          }
          return n == 1;
        });
  }

  /**
   * The reconciler's write: stores {@code next}'s changeable fields (state, attempt, decision,
   * offer, backend, external ref, money, reason, restarts, times) and {@code events}, only if the
   * row is still at {@code expectedVersion} and leased to {@code owner} until after now.
   *
   * @return false, having written nothing, when fenced out; re-read the row and decide again
   * @throws JobState.IllegalTransitionException when the state machine refuses the stored state →
   *     {@code next.state()}; nothing is written
   */
  public boolean update(JobRow next, long expectedVersion, String owner, List<JobEvent> events) {
    events.forEach(e -> requireEventOf(next, e));
    return jdbi.inTransaction(h -> fencedUpdate(h, next, expectedVersion, owner, events));
  }

  /**
   * Moves a QUEUED job on to {@code next} (PENDING on a new offer), fenced like {@link #update}, if
   * the team's budget leaves room for it: the team's row is locked while its spend is read, so two
   * replicas cannot both promote into the last of a budget.
   *
   * @param budget the team's budget; null when it has none
   * @return the verdict when over budget (nothing written); empty when promoted or fenced out
   */
  public Optional<Budget.Verdict> promote(
      JobRow next, long expectedVersion, String owner, JobEvent event, Budget budget) {
    return promote(next, expectedVersion, owner, List.of(event), budget, next.estimatedUsd());
  }

  /**
   * As {@link #promote(JobRow, long, String, JobEvent, Budget)} for any move that commits more of
   * the team's money, e.g. a failover to a dearer offer.
   *
   * @param jobUsd what the move adds to the team's committed spend
   */
  public Optional<Budget.Verdict> promote(
      JobRow next,
      long expectedVersion,
      String owner,
      List<JobEvent> events,
      Budget budget,
      java.math.BigDecimal jobUsd) {
    events.forEach(e -> requireEventOf(next, e));
    if (budget != null) {
      TeamLedger.ensureTeam(jdbi, next.team(), now());
    }
    return jdbi.inTransaction(
        h -> {
          if (budget != null) {
            var verdict = TeamLedger.lockAndCheck(h, next.team(), budget, jobUsd, now());
            if (!verdict.fits()) {
              return Optional.of(verdict);
            }
          }
          fencedUpdate(h, next, expectedVersion, owner, events);
          return Optional.<Budget.Verdict>empty();
        });
  }

  /**
   * Moves a QUEUED job on to {@code next} (PENDING on an offer), fenced like {@link #update}, if
   * the team's budget and quotas ({@link JobAdmission}) leave room, checked with the team's row
   * locked.
   *
   * @param budget the team's budget; null when it has none
   * @return why it must wait (nothing written); empty when moved on or fenced out
   */
  public Optional<String> admit(
      JobRow next, long expectedVersion, String owner, JobEvent event, Budget budget) {
    requireEventOf(next, event);
    TeamLedger.ensureTeam(jdbi, next.team(), now());
    return jdbi.inTransaction(
        h -> {
          TeamLedger.lock(h, next.team());
          if (budget != null) {
            var verdict =
                TeamLedger.lockAndCheck(h, next.team(), budget, next.estimatedUsd(), now());
            if (!verdict.fits()) {
              return Optional.of(verdict.reason());
            }
          }
          var refusal = admission.refusal(h, next);
          if (refusal != null) {
            return Optional.of(refusal);
          }
          fencedUpdate(h, next, expectedVersion, owner, List.of(event));
          return Optional.<String>empty();
        });
  }

  /** Backend id → this gateway's jobs placed there and not started yet ({@link WaitingJobs}). */
  public Map<String, Long> waitingByBackend() {
    return waiting.byBackend();
  }

  /** The team's spend in {@code month} (UTC), as budgets count it. */
  public MonthlySpend spend(String team, YearMonth month) {
    return jdbi.withHandle(h -> TeamLedger.spend(h, team, month, now()));
  }

  private boolean fencedUpdate(
      Handle h, JobRow given, long expectedVersion, String owner, List<JobEvent> givenEvents) {
    // Reasons and events quote what a job printed; secrets in it stop here, before the row, the
    // events and the audit log (which reads the row) are written.
    var next = scrubbed(given);
    var events = givenEvents.stream().map(JobStore::scrubbed).toList();
    var now = now();
    var stored =
        h.createQuery(JobColumns.SELECT + FENCE)
            .bind("id", next.id())
            .bind("version", expectedVersion)
            .bind("owner", owner)
            .bind("now", JobColumns.utc(now))
            .map(JobColumns.MAPPER)
            .findOne();
    if (stored.isEmpty()) {
      return false;
    }
    if (stored.get().state() != next.state()) {
      JobState.requireTransition(stored.get().state(), next.state());
    }
    var update =
        h.createUpdate(
            "UPDATE jobs SET " + JobColumns.SET_MUTABLE + ", version = version + 1" + FENCE);
    // bindAll binds every column, the SET list uses only the changeable ones.
    update.configure(SqlStatements.class, s -> s.setUnusedBindingAllowed(true));
    JobColumns.bindAll(update, next)
        .bind("version", expectedVersion)
        .bind("owner", owner)
        .bind("now", JobColumns.utc(now));
    if (update.execute() == 0) {
      // The row moved on between the read and the write: nothing was written.
      return false;
    }
    insertEvents(h, events);
    StaleAttempts.recordIfLeft(h, stored.get(), next, now);
    audit.changed(h, stored.get(), next, owner);
    var from = WaitingJobs.waitsOn(stored.get());
    var to = WaitingJobs.waitsOn(next);
    if (!Objects.equals(from, to)) {
      AfterCommit.run(h, () -> waiting.moved(from, to));
    }
    return true;
  }

  private static JobRow scrubbed(JobRow row) {
    var reason = SecretScrubber.shapes().scrub(row.reason());
    return Objects.equals(reason, row.reason()) ? row : row.toBuilder().reason(reason).build();
  }

  private static JobEvent scrubbed(JobEvent event) {
    var message = SecretScrubber.shapes().scrub(event.message());
    return Objects.equals(message, event.message())
        ? event
        : new JobEvent(event.seq(), event.jobId(), event.at(), event.type(), message);
  }

  /**
   * Marks a live job for cancelling and records it; the reconciler does the rest. Not fenced by a
   * lease (any replica's API may call it) but it bumps the version, so a reconciler write based on
   * the row before the cancel is fenced out and re-reads. A no-op for terminal jobs and for jobs
   * already marked.
   *
   * @param requestedBy who asked, for the job's events
   * @return the job as now stored; empty if there is no such job
   */
  public Optional<JobRow> requestCancel(String id, String requestedBy) {
    return requestCancel(id, requestedBy, new AuditActor(null, requestedBy, null, null, null));
  }

  /** As {@link #requestCancel(String, String)}, auditing the request as {@code actor}'s. */
  public Optional<JobRow> requestCancel(String id, String requestedBy, AuditActor actor) {
    for (int race = 0; ; race++) {
      var current = find(id);
      if (current.isEmpty()
          || current.get().state().isTerminal()
          || current.get().cancelRequested()) {
        return current;
      }
      var row = current.get();
      var now = now();
      boolean won =
          jdbi.inTransaction(
              h -> {
                int updated =
                    h.createUpdate(
                            "UPDATE jobs SET cancel_requested = TRUE, updated_at = :now,"
                                + " version = version + 1 WHERE id = :id AND version = :version")
                        .bind("now", JobColumns.utc(now))
                        .bind("id", id)
                        .bind("version", row.version())
                        .execute();
                if (updated == 1) {
                  insertEvents(
                      h,
                      List.of(
                          JobEvent.of(
                              id,
                              now,
                              JobEvent.CANCEL_REQUESTED,
                              "cancel requested by " + requestedBy)));
                  audit.cancelRequested(h, row, actor);
                }
                return updated == 1;
              });
      if (won) {
        return Optional.of(
            row.toBuilder()
                .cancelRequested(true)
                .updatedAt(now)
                .version(row.version() + 1)
                .build());
      }
      backOff(race);
    }
  }

  /**
   * Gives up {@code owner}'s lease on a job (no-op if it is not {@code owner}'s). {@code
   * lease_until} becomes now rather than NULL: claims take never-leased jobs first, then the ones
   * let go longest ago, so a replica that claims a few at a time goes round all of them instead of
   * re-claiming the same few.
   */
  public void release(String id, String owner) {
    var now = now();
    jdbi.useHandle(
        h ->
            h.createUpdate(
                    "UPDATE jobs SET lease_owner = NULL, lease_until = :now,"
                        + " version = version + 1 WHERE id = :id AND lease_owner = :owner")
                .bind("now", JobColumns.utc(now))
                .bind("id", id)
                .bind("owner", owner)
                .execute());
  }

  /**
   * Ends every lease {@code owner} holds now, at an orderly stop, so that other replicas take its
   * jobs at their next pass instead of after the lease lapses. The owner stays on the row, so the
   * taking over is audited as an adoption from it, as after a crash; the version moves on, so a
   * write of {@code owner}'s still under way is fenced out.
   *
   * @return how many leases ended
   */
  public int handOver(String owner) {
    var now = now();
    return jdbi.withHandle(
        h ->
            h.createUpdate(
                    "UPDATE jobs SET lease_until = :now, version = version + 1"
                        + " WHERE lease_owner = :owner AND lease_until > :now")
                .bind("now", JobColumns.utc(now))
                .bind("owner", owner)
                .execute());
  }

  /** A job's events, oldest first. */
  public List<JobEvent> events(String jobId) {
    return jdbi.withHandle(
        h ->
            h.createQuery(
                    "SELECT seq, job_id, at, type, message FROM job_events"
                        + " WHERE job_id = :id ORDER BY seq")
                .bind("id", jobId)
                .map(
                    (rs, ctx) ->
                        new JobEvent(
                            rs.getLong("seq"),
                            rs.getString("job_id"),
                            JobColumns.instant(rs, "at"),
                            rs.getString("type"),
                            rs.getString("message")))
                .list());
  }

  /** Deletes idempotency keys made before {@code olderThan}; returns how many. */
  public int purgeIdempotencyKeys(Instant olderThan) {
    return jdbi.withHandle(
        h ->
            h.createUpdate("DELETE FROM idempotency_keys WHERE created_at < :t")
                .bind("t", JobColumns.utc(olderThan))
                .execute());
  }

  static void insertEvents(Handle h, List<JobEvent> events) {
    if (events.isEmpty()) {
      return;
    }
    var batch =
        h.prepareBatch(
            "INSERT INTO job_events (job_id, at, type, message) VALUES (:job, :at, :type, :message)");
    for (var e : events) {
      batch
          .bind("job", e.jobId())
          .bind("at", JobColumns.utc(e.at()))
          .bind("type", e.type())
          .bind("message", e.message())
          .add();
    }
    batch.execute();
  }

  private static void requireEventOf(JobRow job, JobEvent event) {
    if (!job.id().equals(event.jobId())) {
      throw new IllegalArgumentException(
          "event of job " + event.jobId() + " given with job " + job.id());
    }
  }

  private Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MICROS);
  }

  /** After a lost race: give the winner time to commit, and give up if races never end. */
  static void backOff(int race) {
    if (race >= MAX_RACES) {
      throw new IllegalStateException("gave up after " + race + " lost races on the same job");
    }
    try {
      Thread.sleep(Math.min(1 + race, 20));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while retrying a job write", e);
    }
  }
}
