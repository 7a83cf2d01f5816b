package io.trainyard.gateway.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.audit.BlobSinkConfig;
import io.trainyard.audit.JcloudsBlobSink;
import io.trainyard.auth.Principal;
import io.trainyard.auth.Role;
import io.trainyard.cost.PriceBook;
import io.trainyard.cost.Router;
import io.trainyard.gateway.auth.Caller;
import io.trainyard.gateway.backends.BackendRegistry;
import io.trainyard.gateway.config.TeamConfig;
import io.trainyard.gateway.db.DatabaseMigrator;
import io.trainyard.gateway.db.JobEvent;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.db.JobStore;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import io.trainyard.gateway.jobs.CanonicalJson;
import io.trainyard.gateway.jobs.JobService;
import io.trainyard.gateway.jobs.SpecReader;
import io.trainyard.gateway.jobs.StoredJson;
import io.trainyard.gateway.jobs.TeamDirectory;
import io.trainyard.gateway.testing.TestDatabase;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.JobState;
import io.trainyard.spi.ObjectNames;
import io.trainyard.testkit.MutableClock;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The reconciler against a real database (H2 and PostgreSQL subclasses) and in-memory backends:
 * submit, follow, fail over, cancel, adopt after a restart, and two replicas racing.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ReconcilerContract {
  private static final Duration LEASE = Duration.ofSeconds(30);
  private static final Caller ALICE =
      new Caller(
          new Principal("sub-alice", "alice", null, Set.of("nlp"), Set.of(Role.TRAINER), null),
          "127.0.0.1");

  private TestDatabase db;
  private MutableClock clock;
  private JobStore store;
  private final StoredJson json = new StoredJson();
  private FakeBackend cheap;
  private FakeBackend dear;
  private BackendRegistry registry;
  private TeamDirectory teams;
  private JobService service;

  @BeforeAll
  void migrate(TestDatabase database) {
    db = database;
    new DatabaseMigrator().migrate(db.jdbi());
    clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
    store = new JobStore(db.jdbi(), clock);
  }

  @BeforeEach
  void fresh() {
    db.jdbi()
        .useTransaction(
            h -> {
              h.execute("DELETE FROM idempotency_keys");
              h.execute("DELETE FROM job_events");
              h.execute("DELETE FROM stale_attempts");
              h.execute("DELETE FROM jobs");
              h.execute("DELETE FROM teams");
            });
    cheap = new FakeBackend("cheap", "1.00");
    dear = new FakeBackend("dear", "3.00");
    registry = BackendRegistry.of(List.of(cheap.entry(), dear.entry()));
    teams =
        new TeamDirectory(
            Map.of(
                "nlp", TeamConfig.DEV,
                "capped", new TeamConfig(null, null, new BigDecimal("3"), "refuse", null),
                "waiting", new TeamConfig(null, null, new BigDecimal("2"), "queue", null)),
            true);
    service =
        new JobService(
            new Router(PriceBook.OPERATOR, BigDecimal.ONE), registry, teams, store, json, clock);
  }

  @Test
  void aPendingJobIsSubmittedOnceThenFollowedToItsEnd() {
    var job = submit("bert");
    var r = reconciler("a");

    r.passOnce();
    var submitted = find(job);
    assertThat(submitted.state()).isEqualTo(JobState.SUBMITTED);
    assertThat(submitted.externalRefJson()).contains("\"zone\":\"z1\"");
    var name = ObjectNames.of(job.id(), 1);
    assertThat(cheap.submitCalls.get(name)).hasValue(1);

    r.passOnce();
    assertThat(find(job).state()).isEqualTo(JobState.SUBMITTED);
    cheap.phase(name, BackendPhase.RUNNING);
    r.passOnce();
    assertThat(find(job).state()).isEqualTo(JobState.RUNNING);
    assertThat(find(job).startedAt()).isEqualTo("2030-01-01T00:00:00Z");
    cheap.phase(name, BackendPhase.SUCCEEDED);
    r.passOnce();
    var done = find(job);
    assertThat(done.state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(done.endedAt()).isEqualTo("2030-01-01T01:00:00Z");
    assertThat(cheap.submitCalls.get(name)).hasValue(1);
    assertThat(types(job)).containsExactly("STATE", "SUBMITTED", "STATE", "STATE");
    assertThat(r.passOnce()).isZero();
  }

  @Test
  void aBackendWhoseCallsHangHoldsUpOnlyItsOwnJobs() throws Exception {
    cheap.submitGate = new java.util.concurrent.CountDownLatch(1);
    var stuck = submit("stuck"); // the cheapest offer: the hanging backend
    var other = service.submit(ALICE, spec("elsewhere", "[dear]"), null).job();
    var r = reconciler("a");
    r.start();
    try {
      var deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (find(other).state() != JobState.SUBMITTED && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(find(other).state()).isEqualTo(JobState.SUBMITTED);
      assertThat(find(stuck).state()).isEqualTo(JobState.PENDING);
    } finally {
      cheap.submitGate.countDown();
      r.stop();
    }
  }

  @Test
  void aJobThatFinishesBetweenPassesStillPassesThroughRunning() {
    var job = submit("quick");
    var r = reconciler("a");
    r.passOnce();
    cheap.phase(ObjectNames.of(job.id(), 1), BackendPhase.SUCCEEDED);
    r.passOnce();
    assertThat(find(job).state()).isEqualTo(JobState.SUCCEEDED);
    assertThat(messages(job)).anyMatch(m -> m.startsWith("RUNNING"));
  }

  @Test
  void afterARestartAnObjectAlreadyThereIsAdoptedNotDuplicated() {
    var job = submit("adopt");
    var name = ObjectNames.of(job.id(), 1);
    // The previous gateway submitted, then died before recording it: the row is still PENDING.
    cheap.preexisting(name, job.id(), job.specHash());

    reconciler("restarted").passOnce();

    assertThat(find(job).state()).isEqualTo(JobState.SUBMITTED);
    assertThat(cheap.created.get(name)).hasValue(1);
  }

  @Test
  void refusedForCapacityItFailsOverToTheNextOfferAsANewAttempt() {
    cheap.answer = FakeBackend.Answer.NO_CAPACITY;
    var job = submit("failover");
    var r = reconciler("a");

    r.passOnce();
    var moved = find(job);
    assertThat(moved.state()).isEqualTo(JobState.PENDING);
    assertThat(moved.attempt()).isEqualTo(2);
    assertThat(moved.backendId()).isEqualTo("dear");
    assertThat(moved.hourlyUsd()).isEqualByComparingTo("3");
    assertThat(moved.reason()).contains("cheap refused: no nodes free");

    r.passOnce();
    assertThat(find(job).state()).isEqualTo(JobState.SUBMITTED);
    assertThat(dear.submitCalls).containsOnlyKeys(ObjectNames.of(job.id(), 2));
    assertThat(types(job)).contains(JobEvent.FAILOVER);
  }

  @Test
  void aFailoverPassesOverOffersOnABackendKnownDown() {
    cheap.answer = FakeBackend.Answer.NO_CAPACITY;
    var job = submit("nowhere-up");
    registry.markUnhealthy("dear", "probe failed: connection refused");

    reconciler("a").passOnce();
    var queued = find(job);
    assertThat(queued.state()).isEqualTo(JobState.QUEUED);
    assertThat(queued.reason()).endsWith("no other offer on a backend that is up");
    assertThat(dear.submitCalls).isEmpty();
  }

  @Test
  void anAttemptTheBackendDidNotAdmitFailsOverThenQueues() {
    var job = submit("not-admitted");
    var r = reconciler("a");
    r.passOnce();
    cheap.phase(ObjectNames.of(job.id(), 1), BackendPhase.REFUSED);
    r.passOnce();
    var moved = find(job);
    assertThat(moved.state()).isEqualTo(JobState.PENDING);
    assertThat(moved.attempt()).isEqualTo(2);
    assertThat(moved.backendId()).isEqualTo("dear");
    assertThat(moved.reason()).contains("cheap did not admit it");

    r.passOnce();
    dear.phase(ObjectNames.of(job.id(), 2), BackendPhase.REFUSED);
    r.passOnce();
    var queued = find(job);
    assertThat(queued.state()).isEqualTo(JobState.QUEUED);
    assertThat(queued.reason()).contains("dear did not admit it").contains("no other offer");
  }

  @Test
  void theTeamsNamespaceReachesTheBackend() {
    var job = submit("namespaced");
    reconciler("a").passOnce();
    assertThat(cheap.settings.get(ObjectNames.of(job.id(), 1))).containsEntry("namespace", "nlp");
  }

  @Test
  void whenEveryOfferRefusesTheJobIsQueued() {
    cheap.answer = FakeBackend.Answer.NO_CAPACITY;
    dear.answer = FakeBackend.Answer.NO_CAPACITY;
    var job = submit("nowhere");
    var r = reconciler("a");
    r.passOnce();
    r.passOnce();
    var queued = find(job);
    assertThat(queued.state()).isEqualTo(JobState.QUEUED);
    assertThat(queued.reason()).contains("no other offer");
  }

  @Test
  void aRejectionFailsTheJobWithTheBackendsWords() {
    cheap.answer = FakeBackend.Answer.REJECT;
    var job = submit("rejected");
    reconciler("a").passOnce();
    var failed = find(job);
    assertThat(failed.state()).isEqualTo(JobState.FAILED);
    assertThat(failed.reason()).isEqualTo("image not allowed here");
    assertThat(failed.endedAt()).isNotNull();
  }

  @Test
  void anObjectThatVanishesEndsTheJobAsLost() {
    var job = submit("lost");
    var r = reconciler("a");
    r.passOnce();
    cheap.lose(ObjectNames.of(job.id(), 1));
    r.passOnce();
    var lost = find(job);
    assertThat(lost.state()).isEqualTo(JobState.FAILED);
    assertThat(lost.reason()).isEqualTo(JobStepper.OBJECT_LOST);
  }

  @Test
  void aRunningJobIsCancelledThroughCancelling() {
    var job = submit("cancel-running");
    var r = reconciler("a");
    r.passOnce();
    cheap.phase(ObjectNames.of(job.id(), 1), BackendPhase.RUNNING);
    r.passOnce();
    service.cancel(ALICE, job.id());
    r.passOnce();
    assertThat(find(job).state()).isEqualTo(JobState.CANCELLED);
    assertThat(cheap.cancelled).containsExactly(ObjectNames.of(job.id(), 1));
    assertThat(messages(job)).anyMatch(m -> m.startsWith("CANCELLING"));
  }

  @Test
  void aPendingJobIsCancelledAndAnyLeftoverObjectRemoved() {
    var job = submit("cancel-pending");
    service.cancel(ALICE, job.id());
    reconciler("a").passOnce();
    assertThat(find(job).state()).isEqualTo(JobState.CANCELLED);
    assertThat(cheap.cancelled).containsExactly(ObjectNames.of(job.id(), 1));
    assertThat(cheap.submitCalls).isEmpty();
  }

  @Test
  void aReplicaWhoseLeaseLapsedCannotOverwrite() {
    var job = submit("lapsed");
    var stale = store.claim("a", LEASE, 10).get(0);
    clock.advance(LEASE.plusSeconds(1));
    reconciler("b").passOnce();
    assertThat(find(job).state()).isEqualTo(JobState.SUBMITTED);

    // Replica a wakes up with its old row and tries to move the job along.
    new JobStepper(store, registry, json, service::route, teams, logArchive, clock)
        .step(stale, "a");
    var after = find(job);
    assertThat(after.state()).isEqualTo(JobState.SUBMITTED);
    assertThat(after.leaseOwner()).isEqualTo("b");
    assertThat(types(job)).containsOnlyOnce(JobEvent.SUBMITTED);
  }

  @Test
  void twoReconcilersRacingSubmitEveryJobExactlyOnce() throws Exception {
    var jobs = new ArrayList<JobRow>();
    for (int i = 0; i < 40; i++) {
      jobs.add(submit("race-" + i));
    }
    var pool = Executors.newFixedThreadPool(2);
    try {
      var tasks = new ArrayList<java.util.concurrent.Future<?>>();
      for (var owner : List.of("replica-1", "replica-2")) {
        var r = reconciler(owner);
        tasks.add(
            pool.submit(
                () -> {
                  for (int pass = 0; pass < 20 && !allSubmitted(jobs); pass++) {
                    r.passOnce();
                  }
                }));
      }
      for (var t : tasks) {
        t.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertSubmittedOnce(jobs);
  }

  @Test
  void idempotencyKeysOlderThanADayArePurged() {
    var spec = spec("keyed");
    service.submit(ALICE, spec, "key-1");
    var r = reconciler("a");
    clock.advance(Duration.ofHours(23));
    r.passOnce();
    assertThat(keys()).isEqualTo(1);
    clock.advance(Duration.ofHours(2));
    reconciler("b").passOnce();
    assertThat(keys()).isZero();
  }

  @Test
  void overBudgetARefusingTeamGetsTheNumbersAndNothingIsStored() {
    var capped = caller("capped");
    for (int i = 0; i < 3; i++) {
      service.submit(capped, spec("fits-" + i), null); // $1 each: 1 h at the cheap backend's $1/h
    }
    assertThatThrownBy(() -> service.submit(capped, spec("too-much"), null))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.OVER_BUDGET);
              assertThat(e.getMessage())
                  .contains("spent $0.00 + committed $3.00 + this job $1.00 > $3.00");
            });
    assertThat(store.list("capped", Set.of(), 10)).hasSize(3);
    assertThat(store.spend("capped", java.time.YearMonth.of(2030, 1)).totalUsd())
        .isEqualByComparingTo("3");
  }

  @Test
  void overBudgetAQueuingTeamWaitsUntilTheBudgetLeavesRoom() {
    var waiting = caller("waiting");
    var first = service.submit(waiting, spec("first"), null).job();
    service.submit(waiting, spec("second"), null);
    var third = service.submit(waiting, spec("third"), null).job();
    assertThat(third.state()).isEqualTo(JobState.QUEUED);
    assertThat(third.backendId()).isNull();
    assertThat(third.reason()).contains("over the team's budget");

    var r = reconciler("a");
    r.passOnce();
    clock.advance(JobStepper.REQUOTE_EVERY);
    r.passOnce();
    assertThat(find(third).state()).as("still no room").isEqualTo(JobState.QUEUED);

    service.cancel(caller("waiting"), first.id());
    r.passOnce(); // the first is cancelled and stops counting
    clock.advance(JobStepper.REQUOTE_EVERY);
    r.passOnce();
    var promoted = find(third);
    assertThat(promoted.state()).isEqualTo(JobState.PENDING);
    assertThat(promoted.attempt()).isEqualTo(1);
    assertThat(promoted.backendId()).isEqualTo("cheap");
    assertThat(messages(third)).anyMatch(m -> m.startsWith("PENDING: re-quoted"));
  }

  /** Long enough that only a targeted step can explain a change seen within a test. */
  private static final Duration NO_PASS_SOON = Duration.ofMinutes(10);

  @Test
  void anEventStepsItsJobWithoutWaitingForAPass() throws Exception {
    var job = submit("pushed");
    var name = ObjectNames.of(job.id(), 1);
    var r = reconciler("a", 100, NO_PASS_SOON, true);
    r.start();
    try {
      // The first pass runs at start and submits it; the next is ten minutes away.
      awaitState(job, JobState.SUBMITTED);
      cheap.phase(name, BackendPhase.RUNNING);
      awaitState(job, JobState.RUNNING);
      cheap.phase(name, BackendPhase.SUCCEEDED);
      awaitState(job, JobState.SUCCEEDED);
      assertThat(types(job)).containsExactly("STATE", "SUBMITTED", "STATE", "STATE");
    } finally {
      r.stop();
    }
  }

  @Test
  void aSubmissionIsSteppedWithoutWaitingForAPass() throws Exception {
    var passes = new java.util.concurrent.CountDownLatch(1);
    var r = reconciler("a", 100, NO_PASS_SOON, true).observedBy(passed(passes));
    r.start();
    try {
      assertThat(passes.await(60, TimeUnit.SECONDS)).isTrue();
      var job = submit("fresh");
      r.stepSoon(job);
      awaitState(job, JobState.SUBMITTED);
      assertThat(cheap.submitCalls.get(ObjectNames.of(job.id(), 1))).hasValue(1);
    } finally {
      r.stop();
    }
  }

  /**
   * A submission's targeted step and a pass that leases the same job meanwhile: whichever takes it
   * first steps it, and the other leaves it, so the backend is asked once. The pass used to lease
   * the job while its targeted step began, then step the row it had leased after the targeted step
   * had submitted it: a second submit of the same attempt (seen in CI as two CreateTrainingJob
   * calls).
   */
  @Test
  void aSubmissionSteppedAtOnceWhilePassesRunIsSubmittedOnce() throws Exception {
    var r = reconciler("a", 100, Duration.ofMillis(1), true);
    r.start();
    var jobs = new ArrayList<JobRow>();
    try {
      for (int i = 0; i < 60; i++) {
        var job = submit("both-" + i);
        jobs.add(job);
        r.stepSoon(job);
        r.wakeUp();
      }
      var deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (!allSubmitted(jobs) && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
    } finally {
      r.stop();
    }
    assertSubmittedOnce(jobs);
  }

  @Test
  void aJobThatFailsOverIsSteppedOnItsNextOfferWithoutWaitingForAPass() throws Exception {
    cheap.answer = FakeBackend.Answer.NO_CAPACITY;
    var passes = new java.util.concurrent.CountDownLatch(1);
    var r = reconciler("a", 100, NO_PASS_SOON, true).observedBy(passed(passes));
    r.start();
    try {
      assertThat(passes.await(60, TimeUnit.SECONDS)).isTrue();
      var job = submit("moves-on");
      r.stepSoon(job);
      // Refused by cheap, moved to dear, and submitted there: the next pass is ten minutes away.
      awaitState(job, JobState.SUBMITTED);
      assertThat(find(job).backendId()).isEqualTo("dear");
      assertThat(dear.submitCalls.get(ObjectNames.of(job.id(), 2))).hasValue(1);
    } finally {
      r.stop();
    }
  }

  @Test
  void repeatedEventsForAJobAlreadyWaitingForItsStepAreOneStep() throws Exception {
    var followed = submit("followed");
    var sentinel = submit("sentinel");
    var setUp = reconciler("a");
    setUp.passOnce();
    var followedName = ObjectNames.of(followed.id(), 1);
    var sentinelName = ObjectNames.of(sentinel.id(), 1);
    cheap.phase(followedName, BackendPhase.RUNNING);
    cheap.phase(sentinelName, BackendPhase.RUNNING);
    setUp.passOnce();
    assertThat(find(followed).state()).isEqualTo(JobState.RUNNING);
    // The first pass leases one job, never leased before: this one, whose submit holds the lane.
    cheap.submitGate = new java.util.concurrent.CountDownLatch(1);
    var stuck = submit("stuck");
    var r = reconciler("a", 1, NO_PASS_SOON, true);
    r.start();
    try {
      awaitSubmitCalled(ObjectNames.of(stuck.id(), 1));
      var before = cheap.statusCalls.get(followedName).get();
      for (int i = 0; i < 5; i++) {
        cheap.push(followedName);
      }
      cheap.phase(sentinelName, BackendPhase.SUCCEEDED);
      cheap.submitGate.countDown();
      // The lane runs in order: the sentinel's step comes after the followed job's.
      awaitState(sentinel, JobState.SUCCEEDED);
      assertThat(cheap.statusCalls.get(followedName).get() - before).isEqualTo(1);
      assertThat(find(stuck).state()).isEqualTo(JobState.SUBMITTED);
    } finally {
      cheap.submitGate.countDown();
      r.stop();
    }
  }

  @Test
  void anEventThatBringsNothingNewLeasesNothing() throws Exception {
    var job = submit("quiet");
    var name = ObjectNames.of(job.id(), 1);
    reconciler("a").passOnce();
    var passes = new java.util.concurrent.CountDownLatch(1);
    var r = reconciler("a", 100, NO_PASS_SOON, true).observedBy(passed(passes));
    r.start();
    try {
      assertThat(passes.await(60, TimeUnit.SECONDS)).isTrue();
      var before = find(job);
      assertThat(before.state()).isEqualTo(JobState.SUBMITTED);
      cheap.push(name); // as an informer's first list, or a watch re-delivering, would
      // The lane runs in order: a job stepped after the event shows the event's turn has passed.
      var after = submit("after");
      r.stepSoon(after);
      awaitState(after, JobState.SUBMITTED);
      assertThat(find(job).version()).as("no lease write").isEqualTo(before.version());
      cheap.phase(name, BackendPhase.RUNNING);
      awaitState(job, JobState.RUNNING);
    } finally {
      r.stop();
    }
  }

  @Test
  void anEventForAnObjectNoJobNamedWakesNoPass() throws Exception {
    var job = submit("named");
    reconciler("a").passOnce();
    var passes = new java.util.concurrent.CountDownLatch(2);
    var r = reconciler("a", 100, NO_PASS_SOON, true).observedBy(passed(passes));
    r.start();
    try {
      var deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (passes.getCount() == 2 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(passes.getCount()).as("the first pass, at start").isEqualTo(1);
      var before = find(job);
      for (int i = 0; i < 5; i++) {
        // A copy of one of ours under another name, as kubectl or a benchmark would make it.
        cheap.push("copy-of-" + ObjectNames.of(job.id(), 1));
      }
      // A pass it woke would come within milliseconds and lease the job again.
      assertThat(passes.await(500, TimeUnit.MILLISECONDS)).as("a second pass").isFalse();
      assertThat(find(job).version()).isEqualTo(before.version());
    } finally {
      r.stop();
    }
  }

  @Test
  void withTargetedStepsOffAnEventWakesAPass() throws Exception {
    var job = submit("woken");
    var name = ObjectNames.of(job.id(), 1);
    var r = reconciler("a", 100, NO_PASS_SOON, false);
    r.start();
    try {
      awaitState(job, JobState.SUBMITTED);
      cheap.phase(name, BackendPhase.RUNNING);
      awaitState(job, JobState.RUNNING);
    } finally {
      r.stop();
    }
  }

  @Test
  void aTargetedStepLeavesAJobAnotherReplicaHoldsAlone() throws Exception {
    var job = submit("theirs");
    var name = ObjectNames.of(job.id(), 1);
    reconciler("b").passOnce(); // b submitted it and holds its lease
    var passes = new java.util.concurrent.CountDownLatch(1);
    var r = reconciler("a", 100, NO_PASS_SOON, true).observedBy(passed(passes));
    r.start();
    try {
      assertThat(passes.await(60, TimeUnit.SECONDS)).isTrue();
      var before =
          cheap
              .statusCalls
              .getOrDefault(name, new java.util.concurrent.atomic.AtomicInteger())
              .get();
      cheap.phase(name, BackendPhase.RUNNING);
      r.stepSoon(find(job));
      // a's lane steps in order: a job of its own stepped after the event shows it has run.
      var mine = submit("mine");
      r.stepSoon(mine);
      awaitState(mine, JobState.SUBMITTED);
      assertThat(find(job).state()).isEqualTo(JobState.SUBMITTED);
      assertThat(find(job).leaseOwner()).isEqualTo("b");
      assertThat(
              cheap
                  .statusCalls
                  .getOrDefault(name, new java.util.concurrent.atomic.AtomicInteger())
                  .get())
          .isEqualTo(before);
    } finally {
      r.stop();
    }
  }

  private static Reconciler.Observer passed(java.util.concurrent.CountDownLatch passes) {
    return new Reconciler.Observer() {
      @Override
      public void passed(Instant at, Duration took) {
        passes.countDown();
      }

      @Override
      public void stepping(JobRow job, Duration late) {}

      @Override
      public void stepped(JobRow job, Duration took) {}
    };
  }

  /** Polls, with a deadline far below the ten minutes to the next pass. */
  private void awaitState(JobRow job, JobState state) throws InterruptedException {
    var deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (find(job).state() != state && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(find(job).state()).isEqualTo(state);
  }

  private void awaitSubmitCalled(String name) throws InterruptedException {
    var deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!cheap.submitCalls.containsKey(name) && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(cheap.submitCalls).containsKey(name);
  }

  @Test
  void twoSubmissionsRacingForTheLastOfABudgetOnlyOnePasses() throws Exception {
    var capped = caller("capped");
    service.submit(capped, spec("base-1"), null);
    service.submit(capped, spec("base-2"), null); // $1 of $3 left
    var start = new java.util.concurrent.CountDownLatch(1);
    var pool = Executors.newFixedThreadPool(2);
    try {
      var results = new ArrayList<java.util.concurrent.Future<String>>();
      for (var name : List.of("racer-a", "racer-b")) {
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  try {
                    return service.submit(capped, spec(name), null).job().state().name();
                  } catch (ApiException e) {
                    return e.code().name();
                  }
                }));
      }
      start.countDown();
      var outcomes = new ArrayList<String>();
      for (var f : results) {
        outcomes.add(f.get(30, TimeUnit.SECONDS));
      }
      assertThat(outcomes).containsExactlyInAnyOrder("PENDING", "OVER_BUDGET");
    } finally {
      pool.shutdownNow();
    }
  }

  private static Caller caller(String team) {
    return new Caller(
        new Principal(
            "sub-" + team, team + "-user", null, Set.of(team), Set.of(Role.TRAINER), null),
        "127.0.0.1");
  }

  private int keys() {
    return db.jdbi()
        .withHandle(
            h -> h.createQuery("SELECT COUNT(*) FROM idempotency_keys").mapTo(Integer.class).one());
  }

  /** Each job SUBMITTED, its first attempt sent to the backend once, one SUBMITTED event. */
  private void assertSubmittedOnce(List<JobRow> jobs) {
    for (var job : jobs) {
      var name = ObjectNames.of(job.id(), 1);
      assertThat(find(job).state()).as(job.name()).isEqualTo(JobState.SUBMITTED);
      assertThat(cheap.submitCalls.get(name)).as(name).hasValue(1);
      assertThat(types(job)).containsOnlyOnce(JobEvent.SUBMITTED);
    }
  }

  private boolean allSubmitted(List<JobRow> jobs) {
    return jobs.stream().allMatch(j -> find(j).state() != JobState.PENDING);
  }

  // FakeBackend keeps its logs, so nothing is archived; the archive is there as in the gateway.
  private final LogArchive logArchive =
      new LogArchive(
          JcloudsBlobSink.open(new BlobSinkConfig("transient", "logs", "", null, null, null, null)),
          1 << 20);

  private Reconciler reconciler(String owner) {
    return reconciler(owner, 100, Duration.ofSeconds(1), true);
  }

  private Reconciler reconciler(
      String owner, int batchSize, Duration interval, boolean targetedSteps) {
    return new Reconciler(
        store,
        new JobStepper(store, registry, json, service::route, teams, logArchive, clock),
        registry,
        new Reconciler.Settings(owner, LEASE, interval, batchSize, targetedSteps),
        clock);
  }

  private JobRow submit(String name) {
    var spec = spec(name);
    var job = service.submit(ALICE, spec, null).job();
    assertThat(job.specHash()).isEqualTo(CanonicalJson.sha256(spec.job().withTeam("nlp")));
    return job;
  }

  private static SpecReader.ParsedJob spec(String name) {
    return spec(name, null);
  }

  /** A job allowed only on {@code backends} (a YAML list), or anywhere when null. */
  private static SpecReader.ParsedJob spec(String name, String backends) {
    var placement = backends == null ? "" : ", placement: {backends: " + backends + "}";
    var yaml =
        """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: %s}
        spec: {framework: pytorch, image: img, command: [train], replicas: {master: 1}%s}
        """
            .formatted(name, placement);
    return new SpecReader(1 << 16).read(yaml.getBytes(StandardCharsets.UTF_8));
  }

  private JobRow find(JobRow job) {
    return store.find(job.id()).orElseThrow();
  }

  private List<String> types(JobRow job) {
    return store.events(job.id()).stream().map(JobEvent::type).toList();
  }

  private List<String> messages(JobRow job) {
    return store.events(job.id()).stream().map(JobEvent::message).toList();
  }
}
