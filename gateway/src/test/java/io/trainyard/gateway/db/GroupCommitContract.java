package io.trainyard.gateway.db;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.audit.AuditActions;
import io.trainyard.audit.AuditActor;
import io.trainyard.audit.AuditChain;
import io.trainyard.audit.AuditChainVerifier;
import io.trainyard.audit.Redactor;
import io.trainyard.audit.SecretHmac;
import io.trainyard.cost.Budget;
import io.trainyard.gateway.audit.AuditChainHead;
import io.trainyard.gateway.audit.AuditLog;
import io.trainyard.gateway.audit.AuditStore;
import io.trainyard.gateway.audit.JobAuditTrail;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;

/**
 * Inserts committed in batches ({@link GroupCommit}): within one batch, callers are answered as
 * sequential callers would be; one caller's conflict fails only that caller; nothing of a failed
 * batch is stored; the audit chain stays whole; two committers on one database never deadlock. Run
 * on H2 and PostgreSQL.
 */
abstract class GroupCommitContract extends JobStoreFixture {
  private static final Budget ROOMY =
      new Budget(new BigDecimal("1000000"), Budget.OverBudget.QUEUE);

  /** A committer held on the lock of this team's row lets the next batch fill up. */
  private static final String BLOCKER = "blocker";

  @Test
  void aBatchAnswersRepeatedNamesAndKeysAsSequentialCallersWould() throws Exception {
    var gc = new GroupCommit(db.jdbi(), GroupCommit.MAX_BATCH);
    var batched = new JobStore(db.jdbi(), clock, JobAudit.NONE, JobAdmission.NONE, gc);
    var k1 = new IdempotencyKey("nlp", "subject-alice", "k1", HASH_A);
    var k2 = new IdempotencyKey("nlp", "subject-alice", "k2", HASH_A);
    var a = newJob("nlp", "x");
    var b = newJob("nlp", "x");
    var c = newJob("nlp", "y");
    var d = newJob("nlp", "z");

    var results =
        oneBatch(
            gc,
            List.of(
                () -> batched.insert(a, submitted(a), k1),
                () -> batched.insert(b, submitted(b), k2),
                () -> batched.insert(c, submitted(c), k1),
                () -> batched.insert(d, submitted(d), null)));

    assertThat(results.get(0)).isInstanceOf(InsertResult.Created.class);
    assertThat(results.get(1)).isEqualTo(new InsertResult.NameTaken(a.id()));
    assertThat(results.get(2)).isEqualTo(new InsertResult.SameKey(a.id(), HASH_A));
    assertThat(results.get(3)).isInstanceOf(InsertResult.Created.class);
    assertThat(liveIds("nlp")).containsExactlyInAnyOrder(a.id(), d.id());
    assertThat(count("idempotency_keys")).isEqualTo(1);
    assertThat(count("job_events")).isEqualTo(3); // the blocker's, a's and d's
  }

  @Test
  void aTeamRowDeletedBehindTheStoreFailsNoOtherTeamsSubmissionInItsBatch() throws Exception {
    var gc = new GroupCommit(db.jdbi(), GroupCommit.MAX_BATCH);
    var batched = new JobStore(db.jdbi(), clock, JobAudit.NONE, JobAdmission.NONE, gc);
    var first = newJob("vanishing", "first");
    assertThat(batched.insert(first, submitted(first), null, ROOMY))
        .isInstanceOf(InsertResult.Created.class);
    db.jdbi().useHandle(h -> h.execute("DELETE FROM teams WHERE name = 'vanishing'"));
    var again = newJob("vanishing", "again");
    var unbudgeted = newJob("nlp", "no-lock");

    // The batch locks the vanishing team's row, which is gone: the batch fails, both retry.
    var outcomes =
        oneBatchOutcomes(
            gc,
            List.of(
                () -> batched.insert(again, submitted(again), null, ROOMY),
                () -> batched.insert(unbudgeted, submitted(unbudgeted), null)),
            4);

    assertThat(outcomes).allMatch(o -> o instanceof InsertResult.Created);
    assertThat(liveIds("nlp")).containsExactly(unbudgeted.id());
    assertThat(liveIds("vanishing")).containsExactlyInAnyOrder(first.id(), again.id());
  }

  @Test
  void aBudgetThatFitsOnlyTheFirstJobOfABatchRefusesTheSecond() throws Exception {
    var gc = new GroupCommit(db.jdbi(), GroupCommit.MAX_BATCH);
    var batched = new JobStore(db.jdbi(), clock, JobAudit.NONE, JobAdmission.NONE, gc);
    // Each job commits $2.50: the first fits in $4, the two do not.
    var budget = new Budget(new BigDecimal("4"), Budget.OverBudget.REFUSE);
    var first = newJob("ml", "first");
    var second = newJob("ml", "second");

    var results =
        oneBatch(
            gc,
            List.of(
                () -> batched.insert(first, submitted(first), null, budget),
                () -> batched.insert(second, submitted(second), null, budget)));

    assertThat(results.get(0)).isInstanceOf(InsertResult.Created.class);
    assertThat(results.get(1)).isInstanceOf(InsertResult.OverBudget.class);
    assertThat(liveIds("ml")).containsExactly(first.id());
  }

  @Test
  void whenTheAuditCannotBeWrittenEveryCallerOfTheBatchFailsAndNothingIsStored() throws Exception {
    var gc = new GroupCommit(db.jdbi(), GroupCommit.MAX_BATCH);
    var down = new UnwritableAudit();
    var batched = new JobStore(db.jdbi(), clock, down, JobAdmission.NONE, gc);
    var inserts = new ArrayList<Callable<InsertResult>>();
    for (int i = 0; i < 5; i++) {
      var job = newJob("nlp", "j" + i);
      inserts.add(() -> batched.insert(job, submitted(job), null));
    }

    var outcomes = oneBatchOutcomes(gc, inserts);

    assertThat(outcomes).hasSize(5);
    for (var o : outcomes) {
      assertThat(o).isInstanceOf(ExecutionException.class);
      assertThat((Throwable) o).hasRootCauseMessage("audit is down");
    }
    assertThat(liveIds("nlp")).isEmpty();
    assertThat(count("job_events")).isEqualTo(1); // the blocker's
    assertThat(count("idempotency_keys")).isZero();

    // Once the audit is back, the same store stores again.
    down.back = true;
    var job = newJob("nlp", "after");
    assertThat(batched.insert(job, submitted(job), null)).isInstanceOf(InsertResult.Created.class);
  }

  @Test
  void theAuditChainVerifiesAfterConcurrentBatches() throws Exception {
    // As the gateway wires it: the head kept in memory through each batch, written once.
    var gc = new GroupCommit(db.jdbi(), GroupCommit.MAX_BATCH, AuditChainHead.BATCHES);
    var log = new AuditLog(db.jdbi(), new AuditChainHead(), true);
    var trail = new JobAuditTrail(log, new Redactor(new SecretHmac(new byte[32]), Set.of()), clock);
    var batched = new JobStore(db.jdbi(), clock, trail, JobAdmission.NONE, gc);
    var audit = new AuditStore(db.jdbi());
    var before = audit.head().seq();
    var before0 = gc.batches();

    var results =
        concurrently(24, 5, (t, i) -> newJob("team" + (t % 3), "c-" + t + "-" + i), batched);
    var inserted = results.size();

    assertThat(results).allMatch(InsertResult.Created.class::isInstance);
    assertThat(gc.batches() - before0).isLessThanOrEqualTo(inserted);
    var head = audit.head();
    assertThat(head.seq() - before).isEqualTo(3L * inserted);
    var verifier = new AuditChainVerifier(1, AuditChain.GENESIS_HASH);
    try (var events = audit.events(1, head.seq())) {
      events.forEach(verifier::accept);
    }
    var report = verifier.finish(head.seq(), head.hash());
    assertThat(report.ok()).as(report.toString()).isTrue();
    try (var events = audit.events(before + 1, head.seq())) {
      assertThat(events.filter(e -> e.event().action().equals(AuditActions.JOB_SUBMIT)))
          .hasSize(inserted);
    }
  }

  @Test
  void anItemRolledBackAfterItsAuditEventsLeavesTheChainWhole() throws Exception {
    // The head kept in memory for the batch must go back with the item's savepoint: had it kept
    // the rolled-back item's events, the items after it would chain to events that do not exist.
    var gc = new GroupCommit(db.jdbi(), GroupCommit.MAX_BATCH, AuditChainHead.BATCHES);
    var log = new AuditLog(db.jdbi(), new AuditChainHead(), true);
    var trail = new JobAuditTrail(log, new Redactor(new SecretHmac(new byte[32]), Set.of()), clock);
    var failsAfterAppending = new FailsAfterAppending(trail, Set.of("second", "fourth"));
    var batched = new JobStore(db.jdbi(), clock, failsAfterAppending, JobAdmission.NONE, gc);
    var audit = new AuditStore(db.jdbi());
    var before = audit.head().seq();
    var inserts = new ArrayList<Callable<InsertResult>>();
    for (var name : List.of("first", "second", "third", "fourth", "fifth")) {
      var job = newJob("ops", name);
      inserts.add(() -> batched.insert(job, submitted(job), null));
    }

    var outcomes = oneBatchOutcomes(gc, inserts);

    assertThat(outcomes.get(0)).isInstanceOf(InsertResult.Created.class);
    assertThat(outcomes.get(1)).isInstanceOf(ExecutionException.class);
    assertThat(outcomes.get(2)).isInstanceOf(InsertResult.Created.class);
    assertThat(outcomes.get(3)).isInstanceOf(ExecutionException.class);
    assertThat(outcomes.get(4)).isInstanceOf(InsertResult.Created.class);
    var head = audit.head();
    // Three jobs stored with their three events each; nothing of the two rolled back.
    assertThat(head.seq() - before).isEqualTo(3L * 3);
    var verifier = new AuditChainVerifier(1, AuditChain.GENESIS_HASH);
    try (var events = audit.events(1, head.seq())) {
      events.forEach(verifier::accept);
    }
    var report = verifier.finish(head.seq(), head.hash());
    assertThat(report.ok()).as(report.toString()).isTrue();
  }

  @Test
  void whatARolledBackItemRegisteredForAfterTheCommitNeverRuns() throws Exception {
    // As the gateway's decorators do: a metric or log line registered after the audit events, then
    // a later part of the same item failing (the queue facts' write, say) rolls it back.
    var gc = new GroupCommit(db.jdbi(), GroupCommit.MAX_BATCH, AuditChainHead.BATCHES);
    var log = new AuditLog(db.jdbi(), new AuditChainHead(), true);
    var trail = new JobAuditTrail(log, new Redactor(new SecretHmac(new byte[32]), Set.of()), clock);
    var committed = new java.util.concurrent.ConcurrentLinkedQueue<String>();
    var counting =
        new FailsAfterAppending(trail, Set.of()) {
          @Override
          public void submitted(Handle h, JobRow stored, AuditActor actor) {
            super.submitted(h, stored, actor);
            AfterCommit.run(h, () -> committed.add(stored.name()));
          }
        };
    var failsAfterCounting = new FailsAfterAppending(counting, Set.of("second", "fourth"));
    var batched = new JobStore(db.jdbi(), clock, failsAfterCounting, JobAdmission.NONE, gc);
    var inserts = new ArrayList<Callable<InsertResult>>();
    for (var name : List.of("first", "second", "third", "fourth", "fifth")) {
      var job = newJob("ops", name);
      inserts.add(() -> batched.insert(job, submitted(job), null));
    }

    var outcomes = oneBatchOutcomes(gc, inserts);

    assertThat(outcomes.get(1)).isInstanceOf(ExecutionException.class);
    assertThat(outcomes.get(3)).isInstanceOf(ExecutionException.class);
    assertThat(committed).containsExactly("first", "third", "fifth");
    assertThat(liveIds("ops")).hasSize(3);
  }

  @Test
  void aCallerFindingNoBatchUnderWayCommitsOnItsOwnThreadAndKeepsItsLogContext() throws Exception {
    var gc = new GroupCommit(db.jdbi(), GroupCommit.MAX_BATCH);
    var ranOn = new java.util.concurrent.ConcurrentLinkedQueue<String>();
    var recording =
        new FailsAfterAppending(JobAudit.NONE, Set.of()) {
          @Override
          public void submitted(Handle h, JobRow stored, AuditActor actor) {
            ranOn.add(Thread.currentThread().getName() + " " + org.slf4j.MDC.get("request"));
          }
        };
    var batched = new JobStore(db.jdbi(), clock, recording, JobAdmission.NONE, gc);
    var pool = Executors.newSingleThreadExecutor(r -> new Thread(r, "a-caller"));
    try {
      for (var name : List.of("one", "two")) {
        var job = newJob("solo", name);
        var logged =
            pool.submit(
                () -> {
                  org.slf4j.MDC.put("request", name);
                  try {
                    assertThat(batched.insert(job, submitted(job), null))
                        .isInstanceOf(InsertResult.Created.class);
                    return org.slf4j.MDC.get("request");
                  } finally {
                    org.slf4j.MDC.clear();
                  }
                });
        assertThat(logged.get(30, TimeUnit.SECONDS)).isEqualTo(name);
      }
    } finally {
      pool.shutdownNow();
    }

    // No hand-off to the committer thread and back: it was never needed.
    assertThat(ranOn).containsExactly("a-caller one", "a-caller two");
    assertThat(gc.batches()).isEqualTo(2);
    assertThat(liveIds("solo")).hasSize(2);
  }

  @Test
  void twoCommittersLockingTheSameTeamsInOppositeOrdersBothComplete() throws Exception {
    // Two replicas: stores with committers and connections of their own on one database.
    var other = Jdbi.create(db.url(), db.user(), "");
    var one = new GroupCommit(db.jdbi(), GroupCommit.MAX_BATCH);
    var two = new GroupCommit(other, GroupCommit.MAX_BATCH);
    var storeOne = new JobStore(db.jdbi(), clock, JobAudit.NONE, JobAdmission.NONE, one);
    var storeTwo = new JobStore(other, clock, JobAudit.NONE, JobAdmission.NONE, two);
    var pool = Executors.newFixedThreadPool(8);
    try {
      var futures = new ArrayList<Future<InsertResult>>();
      for (int round = 0; round < 10; round++) {
        // One replica queues a then b, the other b then a, at the same time.
        for (var team : List.of("a", "b")) {
          futures.add(pool.submit(budgeted(storeOne, team, "one-" + round)));
        }
        for (var team : List.of("b", "a")) {
          futures.add(pool.submit(budgeted(storeTwo, team, "two-" + round)));
        }
      }
      for (var f : futures) {
        assertThat(f.get(60, TimeUnit.SECONDS)).isInstanceOf(InsertResult.Created.class);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(liveIds("a")).hasSize(20);
    assertThat(liveIds("b")).hasSize(20);
  }

  private Callable<InsertResult> budgeted(JobStore store, String team, String name) {
    var job = newJob(team, name);
    return () -> store.insert(job, submitted(job), null, ROOMY);
  }

  /** A sequence of inserts per thread, all threads at once; every result. */
  private List<InsertResult> concurrently(int threads, int each, JobMaker job, JobStore store)
      throws Exception {
    var pool = Executors.newFixedThreadPool(threads);
    try {
      var futures = new ArrayList<Future<List<InsertResult>>>();
      for (int t = 0; t < threads; t++) {
        var thread = t;
        futures.add(
            pool.submit(
                () -> {
                  var out = new ArrayList<InsertResult>();
                  for (int i = 0; i < each; i++) {
                    var row = job.make(thread, i);
                    out.add(store.insert(row, submitted(row), null));
                  }
                  return out;
                }));
      }
      var all = new ArrayList<InsertResult>();
      for (var f : futures) {
        all.addAll(f.get(60, TimeUnit.SECONDS));
      }
      return all;
    } finally {
      pool.shutdownNow();
    }
  }

  @FunctionalInterface
  private interface JobMaker {
    JobRow make(int thread, int i);
  }

  /**
   * Runs {@code inserts} as one batch, queued in the order given: the committer is held on a
   * blocker's team lock (its batch of one) while they queue.
   */
  private List<InsertResult> oneBatch(GroupCommit gc, List<Callable<InsertResult>> inserts)
      throws Exception {
    var outcomes = oneBatchOutcomes(gc, inserts);
    var results = new ArrayList<InsertResult>();
    for (var o : outcomes) {
      if (o instanceof Exception e) {
        throw e;
      }
      results.add((InsertResult) o);
    }
    return results;
  }

  /** As {@link #oneBatch}, each caller's result or what it threw. */
  private List<Object> oneBatchOutcomes(GroupCommit gc, List<Callable<InsertResult>> inserts)
      throws Exception {
    return oneBatchOutcomes(gc, inserts, 2);
  }

  @Test
  void closedTheCommitterThreadEndsAndLaterInsertsCommitOnTheirCallersThread() throws Exception {
    var gc = new GroupCommit(db.jdbi(), GroupCommit.MAX_BATCH);
    var store = new JobStore(db.jdbi(), clock, JobAudit.NONE, JobAdmission.NONE, gc);
    var queued = newJob("closing", "queued-behind");
    // Queued behind a batch under way, it starts the committer thread.
    assertThat(oneBatchOutcomes(gc, List.of(() -> store.insert(queued, submitted(queued), null))))
        .singleElement()
        .isInstanceOf(InsertResult.Created.class);
    var committer = gc.committerThread();
    assertThat(committer).isNotNull();
    assertThat(committer.isAlive()).isTrue();

    gc.close();

    assertThat(committer.isAlive()).isFalse();
    var later = newJob("closing", "after-close");
    assertThat(store.insert(later, submitted(later), null))
        .isInstanceOf(InsertResult.Created.class);
    assertThat(gc.committerThread()).isSameAs(committer); // none started again
    assertThat(liveIds("closing")).hasSize(2);
  }

  @Test
  void closedWhileABatchIsUnderWayAnInsertCommitsAloneWithoutWaitingForIt() throws Exception {
    var gc = new GroupCommit(db.jdbi(), GroupCommit.MAX_BATCH);
    var store = new JobStore(db.jdbi(), clock, JobAudit.NONE, JobAdmission.NONE, gc);
    TeamLedger.ensureTeam(db.jdbi(), BLOCKER, clock.instant());
    var pool = Executors.newFixedThreadPool(2);
    try (Handle holder = db.jdbi().open()) {
      holder.begin();
      TeamLedger.lock(holder, BLOCKER);
      var blockerJob = newJob(BLOCKER, "blocker-" + JobIds.newId());
      var blocker = pool.submit(() -> store.insert(blockerJob, submitted(blockerJob), null, ROOMY));
      waitFor(() -> gc.committing() == 1);

      gc.close();

      // No committer will come for it, and the batch under way does not take it: it commits
      // alone while that batch still waits for its team's row.
      var later = newJob("closing", "alone");
      assertThat(pool.submit(() -> store.insert(later, submitted(later), null)).get(30, SECONDS))
          .isInstanceOf(InsertResult.Created.class);
      assertThat(gc.queued()).isZero();
      holder.rollback();
      assertThat(blocker.get(30, SECONDS)).isInstanceOf(InsertResult.Created.class);
    } finally {
      pool.shutdownNow();
    }
    assertThat(gc.committerThread()).isNull();
  }

  /**
   * As {@link #oneBatchOutcomes(GroupCommit, List)}, committed in at most {@code maxBatches} (the
   * blocker's included): more when callers retry after their batch failed.
   */
  private List<Object> oneBatchOutcomes(
      GroupCommit gc, List<Callable<InsertResult>> inserts, int maxBatches) throws Exception {
    // The blocker shares the committer, not the audit of the store under test.
    var store = new JobStore(db.jdbi(), clock, JobAudit.NONE, JobAdmission.NONE, gc);
    TeamLedger.ensureTeam(db.jdbi(), BLOCKER, clock.instant());
    var pool = Executors.newFixedThreadPool(inserts.size() + 1);
    var batchesBefore = gc.batches();
    try (Handle holder = db.jdbi().open()) {
      holder.begin();
      TeamLedger.lock(holder, BLOCKER);
      var blockerJob = newJob(BLOCKER, "blocker-" + JobIds.newId());
      var blocker = pool.submit(() -> store.insert(blockerJob, submitted(blockerJob), null, ROOMY));
      // The committer took the blocker and waits for its team's row.
      waitFor(() -> gc.committing() == 1 && gc.queued() == 0);
      var futures = new ArrayList<Future<InsertResult>>();
      for (var insert : inserts) {
        var queued = gc.queued();
        futures.add(pool.submit(insert));
        waitFor(() -> gc.queued() == queued + 1);
      }
      holder.rollback();
      blocker.get(30, TimeUnit.SECONDS);
      var outcomes = new ArrayList<Object>();
      for (var f : futures) {
        try {
          outcomes.add(f.get(30, TimeUnit.SECONDS));
        } catch (ExecutionException e) {
          outcomes.add(e);
        }
      }
      // The blocker's batch, then one with every insert (and the retries of a failed one).
      assertThat(gc.batches() - batchesBefore).isLessThanOrEqualTo(maxBatches);
      return outcomes;
    } finally {
      pool.shutdownNow();
    }
  }

  private List<String> liveIds(String team) {
    return db.jdbi()
        .withHandle(
            h ->
                h.createQuery("SELECT id FROM jobs WHERE team = :team")
                    .bind("team", team)
                    .mapTo(String.class)
                    .list());
  }

  private static void waitFor(BooleanSupplier condition) throws InterruptedException {
    var deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting");
      }
      Thread.sleep(5);
    }
  }

  /** Appends an item's events, then fails for the jobs named: a later part of the item failing. */
  private static class FailsAfterAppending implements JobAudit {
    private final JobAudit delegate;
    private final Set<String> names;

    FailsAfterAppending(JobAudit delegate, Set<String> names) {
      this.delegate = delegate;
      this.names = names;
    }

    @Override
    public void submitted(Handle h, JobRow stored, AuditActor actor) {
      delegate.submitted(h, stored, actor);
      if (names.contains(stored.name())) {
        throw new IllegalStateException("failed after its audit events were appended");
      }
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
  }

  /** An audit that cannot write submissions until it is back, as a broken audit table. */
  private static final class UnwritableAudit implements JobAudit {
    volatile boolean back;

    @Override
    public void submitted(Handle h, JobRow stored, AuditActor actor) {
      if (!back) {
        throw new IllegalStateException("audit is down");
      }
    }

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
  }
}
