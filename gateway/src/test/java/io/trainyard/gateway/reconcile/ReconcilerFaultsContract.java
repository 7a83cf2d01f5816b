package io.trainyard.gateway.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

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
import io.trainyard.gateway.db.StaleAttempts;
import io.trainyard.gateway.jobs.JobService;
import io.trainyard.gateway.jobs.SpecReader;
import io.trainyard.gateway.jobs.StoredJson;
import io.trainyard.gateway.jobs.TeamDirectory;
import io.trainyard.gateway.testing.TestDatabase;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendHealth;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.JobState;
import io.trainyard.spi.ObjectNames;
import io.trainyard.testkit.MutableClock;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Faults that used to leave a job stuck for ever (issue #13), against a real database (H2 and
 * PostgreSQL subclasses): its backend removed from the configuration, a backend that answers
 * Retryable to every submit, and a failover to a dearer offer that the budget must allow.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ReconcilerFaultsContract {
  private static final SubmitRetries.Policy THREE_TRIES =
      new SubmitRetries.Policy(
          3, Duration.ofSeconds(10), Duration.ofSeconds(15), Duration.ofMillis(300));

  private TestDatabase db;
  private MutableClock clock;
  private JobStore store;
  private final StoredJson json = new StoredJson();
  private FakeBackend cheap;
  private FakeBackend dear;
  private BackendRegistry registry;
  private TeamDirectory teams;
  private JobService service;
  private final LogArchive logArchive =
      new LogArchive(
          JcloudsBlobSink.open(new BlobSinkConfig("transient", "logs", "", null, null, null, null)),
          1 << 20);

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
                "frugal", new TeamConfig(null, null, new BigDecimal("2"), "queue", null),
                "strict", new TeamConfig(null, null, new BigDecimal("2"), "refuse", null)),
            true);
    service = service(registry);
  }

  @Test
  void aJobWhoseBackendWasRemovedFailsWithThatReason() {
    var running = submit("nlp", "running");
    var pending = submit("nlp", "pending");
    var cancelled = submit("nlp", "cancelled");
    var r = reconciler(registry);
    r.passOnce(); // all three SUBMITTED on cheap
    cheap.phase(ObjectNames.of(running.id(), 1), BackendPhase.RUNNING);
    r.passOnce();
    assertThat(find(running).state()).isEqualTo(JobState.RUNNING);
    service.cancel(caller("nlp"), cancelled.id());

    // The operator takes "cheap" out of the configuration and restarts.
    var without = BackendRegistry.of(List.of(dear.entry()));
    var after = reconciler(without);
    after.passOnce();
    after.passOnce();

    var failed = find(running);
    assertThat(failed.state()).isEqualTo(JobState.FAILED);
    assertThat(failed.reason())
        .startsWith(JobStepper.BACKEND_REMOVED)
        .contains("backend cheap is no longer configured");
    assertThat(find(pending).state()).isEqualTo(JobState.FAILED);
    assertThat(find(cancelled).state()).isEqualTo(JobState.CANCELLED);
    assertThat(find(cancelled).reason()).contains("cheap is no longer configured");
    assertThat(store.events(running.id()))
        .anyMatch(e -> e.message().startsWith("FAILED: " + JobStepper.BACKEND_REMOVED));
  }

  @Test
  void aBackendThatKeepsAnsweringRetryableIsGivenUpOnAfterTheLimitAndFailedOver() {
    cheap.answer = FakeBackend.Answer.BUSY;
    var job = submit("nlp", "busy");
    var r = reconciler(registry);
    var name = ObjectNames.of(job.id(), 1);

    r.passOnce();
    r.passOnce(); // still in its backoff: not asked again
    assertThat(cheap.submitCalls.get(name)).hasValue(1);
    assertThat(find(job).state()).isEqualTo(JobState.PENDING);
    clock.advance(Duration.ofSeconds(10));
    r.passOnce();
    assertThat(cheap.submitCalls.get(name)).hasValue(2);
    clock.advance(Duration.ofSeconds(10));
    r.passOnce();
    assertThat(find(job).attempt()).as("20 s doubled is 15 s at most").isEqualTo(1);
    clock.advance(Duration.ofSeconds(5));
    r.passOnce();

    assertThat(cheap.submitCalls.get(name)).hasValue(3);
    var moved = find(job);
    assertThat(moved.state()).isEqualTo(JobState.PENDING);
    assertThat(moved.attempt()).isEqualTo(2);
    assertThat(moved.backendId()).isEqualTo("dear");
    assertThat(moved.reason())
        .contains("cheap did not answer after 3 tries: 503 Service Unavailable");
  }

  @Test
  void aRetryableSubmitFromABackendThatAlsoFailsItsProbeFailsOverAtOnce() {
    cheap.answer = FakeBackend.Answer.BUSY;
    cheap.healthAnswer = BackendHealth.unhealthy("connection reset");
    var job = submit("nlp", "down");
    reconciler(registry).passOnce();

    var moved = find(job);
    assertThat(moved.state()).isEqualTo(JobState.PENDING);
    assertThat(moved.attempt()).isEqualTo(2);
    assertThat(moved.backendId()).isEqualTo("dear");
    assertThat(moved.reason()).contains("cheap is unhealthy");
    assertThat(registry.health("cheap").healthy()).isFalse();
    assertThat(cheap.submitCalls.get(ObjectNames.of(job.id(), 1))).hasValue(1);
  }

  @Test
  void aPendingJobOnABackendKnownDownMovesOnWithoutAskingIt() {
    var job = submit("nlp", "known-down");
    registry.markUnhealthy("cheap", "probe failed");
    reconciler(registry).passOnce();

    var moved = find(job);
    assertThat(moved.backendId()).isEqualTo("dear");
    assertThat(moved.reason()).contains("cheap is unhealthy: probe failed");
    assertThat(cheap.submitCalls.get(ObjectNames.of(job.id(), 1))).isNull();
  }

  @Test
  void withNoOtherOfferAJobOnABackendKnownDownWaitsInQueued() {
    var onlyCheap = BackendRegistry.of(List.of(cheap.entry()));
    service = service(onlyCheap);
    var job = submit("nlp", "known-down-alone");
    onlyCheap.markUnhealthy("cheap", "probe failed");
    reconciler(onlyCheap).passOnce();

    var queued = find(job);
    assertThat(queued.state()).isEqualTo(JobState.QUEUED);
    assertThat(queued.reason()).contains("cheap is unhealthy: probe failed");
    assertThat(cheap.submitCalls.get(ObjectNames.of(job.id(), 1))).isNull();
  }

  @Test
  void withNoOtherOfferARetryableBackendFailsTheJobWithTheReason() {
    cheap.answer = FakeBackend.Answer.BUSY;
    var onlyCheap = BackendRegistry.of(List.of(cheap.entry()));
    service = service(onlyCheap);
    var job = submit("nlp", "busy-alone");
    var r = reconciler(onlyCheap);
    for (int i = 0; i < 3; i++) {
      r.passOnce();
      clock.advance(Duration.ofSeconds(15));
    }
    var failed = find(job);
    assertThat(failed.state()).isEqualTo(JobState.FAILED);
    assertThat(failed.reason()).contains("cheap did not answer after 3 tries");
  }

  @Test
  void aFailoverToADearerOfferIsQueuedWhenTheBudgetHasNoRoom() {
    cheap.answer = FakeBackend.Answer.NO_CAPACITY;
    var job = submit("frugal", "dearer"); // $1 fits a $2 budget; $3 on "dear" does not
    reconciler(registry).passOnce();
    var queued = find(job);
    assertThat(queued.state()).isEqualTo(JobState.QUEUED);
    assertThat(queued.reason())
        .contains("cheap refused: no nodes free")
        .contains("the next offer, dear, is over the team's budget");
    assertThat(dear.submitCalls).isEmpty();
  }

  @Test
  void aFailoverToADearerOfferFailsForATeamThatRefusesOverBudget() {
    cheap.answer = FakeBackend.Answer.NO_CAPACITY;
    var job = submit("strict", "dearer");
    reconciler(registry).passOnce();
    var failed = find(job);
    assertThat(failed.state()).isEqualTo(JobState.FAILED);
    assertThat(failed.reason()).contains("over the team's budget");
    assertThat(dear.submitCalls).isEmpty();
  }

  @Test
  void aFailoverWithinTheBudgetGoesAhead() {
    cheap.answer = FakeBackend.Answer.NO_CAPACITY;
    var job = submit("nlp", "no-budget");
    var r = reconciler(registry);
    r.passOnce();
    r.passOnce();
    assertThat(find(job).state()).isEqualTo(JobState.SUBMITTED);
    assertThat(find(job).backendId()).isEqualTo("dear");
  }

  @Test
  void anAttemptLeftBehindByAKilledGatewayIsCancelledOnceItsBackendIsBack() {
    var job = submit("nlp", "left-behind");
    var a1 = ObjectNames.of(job.id(), 1);
    // The gateway that submitted it was killed before writing SUBMITTED; its backend then failed
    // its probe, so the job moves on to its next offer without asking it.
    cheap.preexisting(a1, job.id(), job.specHash());
    registry.markUnhealthy("cheap", "probe failed");
    var r = reconciler(registry);
    r.passOnce();
    r.passOnce();

    var moved = find(job);
    assertThat(moved.backendId()).isEqualTo("dear");
    assertThat(moved.state()).isEqualTo(JobState.SUBMITTED);
    assertThat(store.staleAttempts().list(10))
        .extracting(StaleAttempts.Left::attempt, StaleAttempts.Left::backendId)
        .containsExactly(tuple(1, "cheap"));
    assertThat(cheap.cancelled).as("not asked while known down").isEmpty();
    assertThat(cheap.phaseOf(a1)).isEqualTo(BackendPhase.ADMITTING);

    registry.checkHealth("cheap"); // back
    r.passOnce();

    assertThat(cheap.cancelled).containsExactly(a1);
    assertThat(cheap.phaseOf(a1)).isEqualTo(BackendPhase.STOPPED);
    assertThat(store.staleAttempts().list(10)).isEmpty();
    assertThat(cleanUpMessage(job)).startsWith("attempt 1 on cheap was left");
    r.passOnce();
    assertThat(cheap.cancelled).as("cleaned up once").hasSize(1);
    assertThat(dear.cancelled).isEmpty();
    assertThat(find(job).state()).isEqualTo(JobState.SUBMITTED);
  }

  @Test
  void anAttemptMadeThoughItsAnswerTimedOutIsCancelledWhenTheJobFailsForIt() {
    cheap.answer = FakeBackend.Answer.LOST;
    var onlyCheap = BackendRegistry.of(List.of(cheap.entry()));
    service = service(onlyCheap);
    var job = submit("nlp", "timed-out");
    var a1 = ObjectNames.of(job.id(), 1);
    var r = reconciler(onlyCheap);
    for (int i = 0; i < 3; i++) {
      r.passOnce();
      clock.advance(Duration.ofSeconds(15));
    }

    assertThat(find(job).state()).isEqualTo(JobState.FAILED);
    assertThat(find(job).reason()).contains("did not answer after 3 tries: read timed out");
    assertThat(cheap.created.get(a1)).hasValue(1);
    r.passOnce();
    assertThat(cheap.phaseOf(a1)).as("the object it made anyway").isEqualTo(BackendPhase.STOPPED);
    assertThat(store.staleAttempts().list(10)).isEmpty();
  }

  @Test
  void aSubmitThatHangsIsLeftAtItsDeadlineAndWhatItMadeLateIsCancelled() throws Exception {
    cheap.submitGate = new java.util.concurrent.CountDownLatch(1);
    var job = submit("nlp", "hangs");
    var a1 = ObjectNames.of(job.id(), 1);
    var r = reconciler(registry);
    r.passOnce(); // waits 300 ms for the submit, then moves on without it

    var moved = find(job);
    assertThat(moved.backendId()).isEqualTo("dear");
    assertThat(moved.attempt()).isEqualTo(2);
    assertThat(moved.reason())
        .contains("cheap is unhealthy: no answer to the submit within 300 ms");
    assertThat(registry.health("cheap").healthy()).as("down for every job").isFalse();
    r.passOnce();
    assertThat(find(job).state()).isEqualTo(JobState.SUBMITTED);

    registry.checkHealth("cheap"); // its probe passes again
    r.passOnce();
    assertThat(cheap.cancelled).as("not cleaned up while the submit may still make it").isEmpty();
    assertThat(store.staleAttempts().list(10)).hasSize(1);

    cheap.submitGate.countDown(); // the hung call goes through after all and makes the object
    var deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (cheap.phaseOf(a1) != BackendPhase.STOPPED && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(cheap.created.get(a1)).hasValue(1);
    assertThat(cheap.phaseOf(a1))
        .as("cancelled as soon as it answered")
        .isEqualTo(BackendPhase.STOPPED);
    r.passOnce();
    assertThat(store.staleAttempts().list(10)).isEmpty();
    assertThat(cleanUpMessage(job)).startsWith("attempt 1 on cheap was left");
    assertThat(dear.cancelled).isEmpty();
  }

  @Test
  void aBackendWhoseQuotesHangCostsASubmissionItsDeadlineAndOnlyItsOwnOffer() {
    cheap.placementsGate = new java.util.concurrent.CountDownLatch(1);
    service.withQuoteTimeout(Duration.ofMillis(200));
    try {
      var job = submit("nlp", "quote-hangs");
      assertThat(job.backendId()).isEqualTo("dear");
      var decision = json.read(job.decisionJson(), io.trainyard.cost.RoutingDecision.class);
      assertThat(json.write(decision)).contains("no answer within 200 ms");
      // Asked again while the first call still hangs: the same, never more than its share of
      // threads (the ninth and later are refused without asking).
      for (int i = 0; i < 9; i++) {
        assertThat(submit("nlp", "again-" + i).backendId()).isEqualTo("dear");
      }
      assertThat(
              json.write(
                  json.read(
                      find(submit("nlp", "tenth")).decisionJson(),
                      io.trainyard.cost.RoutingDecision.class)))
          .contains("earlier calls to cheap have not answered yet");
    } finally {
      cheap.placementsGate.countDown();
    }
  }

  @Test
  void aBackendThatAnswersFromMemoryIsAskedInTheCallersThreadAndAnotherOnTheQuotePool() {
    cheap.fromMemory = true;
    var job = submit("nlp", "from-memory");
    assertThat(job.backendId()).isEqualTo("cheap");
    assertThat(cheap.placementThreads).containsExactly(Thread.currentThread().getName());
    assertThat(dear.placementThreads).containsExactly("backend-quote");
  }

  @Test
  void aBackendThatAnswersFromMemoryIsAskedWhileAHungOneRunsOutItsDeadline() {
    dear.fromMemory = true;
    cheap.placementsGate = new java.util.concurrent.CountDownLatch(1);
    service.withQuoteTimeout(Duration.ofMillis(200));
    try {
      long started = System.nanoTime();
      var job = submit("nlp", "beside-a-hung-one");
      var tookMs = (System.nanoTime() - started) / 1_000_000;
      assertThat(job.backendId()).isEqualTo("dear");
      assertThat(dear.placementThreads).containsExactly(Thread.currentThread().getName());
      assertThat(json.write(json.read(job.decisionJson(), io.trainyard.cost.RoutingDecision.class)))
          .contains("no answer within 200 ms");
      // The hung one was waited for up to its deadline, beside the inline answer.
      assertThat(tookMs).isGreaterThanOrEqualTo(200L);
    } finally {
      cheap.placementsGate.countDown();
    }
  }

  @Test
  void aBackendAskedInTheCallersThreadThatFailsIsNotNowAndTheOtherTakesTheJob() {
    cheap.fromMemory = true;
    cheap.placementsFailure = new IllegalStateException("price table unreadable");
    var job = submit("nlp", "from-memory-fails");
    assertThat(job.backendId()).isEqualTo("dear");
    var decision = json.read(job.decisionJson(), io.trainyard.cost.RoutingDecision.class);
    assertThat(decision.notNowReasons())
        .containsExactly("cheap: could not propose a placement: price table unreadable");
  }

  @Test
  void aCleanUpTheBackendCannotDoNowIsTriedAgainAndOneItRefusesIsGivenUp() {
    var job = submit("nlp", "hard-to-clean");
    registry.markUnhealthy("cheap", "probe failed");
    var r = reconciler(registry);
    r.passOnce();
    registry.checkHealth("cheap");
    cheap.cancelFailure = new BackendException.Retryable("429 Too Many Requests", null);
    r.passOnce();
    assertThat(store.staleAttempts().list(10)).as("kept for later").hasSize(1);

    cheap.cancelFailure = new BackendException.Rejected("cancel not allowed", null);
    r.passOnce();
    assertThat(store.staleAttempts().list(10)).isEmpty();
    assertThat(cleanUpMessage(job))
        .isEqualTo("attempt 1 on cheap was left and could not be cancelled: cancel not allowed");
  }

  @Test
  void anAttemptLeftOnABackendNoLongerConfiguredIsGivenUpSayingSo() {
    var job = submit("nlp", "left-on-removed");
    registry.markUnhealthy("cheap", "probe failed");
    reconciler(registry).passOnce();
    assertThat(store.staleAttempts().list(10)).hasSize(1);

    reconciler(BackendRegistry.of(List.of(dear.entry()))).passOnce();

    assertThat(store.staleAttempts().list(10)).isEmpty();
    assertThat(cleanUpMessage(job))
        .contains("attempt 1 on cheap")
        .contains("no longer configured")
        .contains("not cleaned up");
    assertThat(cheap.cancelled).isEmpty();
  }

  /** The message of the job's one {@link JobEvent#CLEANUP} event. */
  private String cleanUpMessage(JobRow job) {
    var cleanUps =
        store.events(job.id()).stream().filter(e -> e.type().equals(JobEvent.CLEANUP)).toList();
    assertThat(cleanUps).hasSize(1);
    return cleanUps.get(0).message();
  }

  private JobService service(BackendRegistry backends) {
    return new JobService(
        new Router(PriceBook.OPERATOR, BigDecimal.ONE), backends, teams, store, json, clock);
  }

  private Reconciler reconciler(BackendRegistry backends) {
    var stepper =
        new JobStepper(
            store, backends, json, service::route, teams, logArchive, THREE_TRIES, clock);
    return new Reconciler(
        store,
        stepper,
        backends,
        new Reconciler.Settings("a", Duration.ofSeconds(30), Duration.ofSeconds(1), 100),
        clock);
  }

  private static Caller caller(String team) {
    return new Caller(
        new Principal(
            "sub-" + team, team + "-user", null, Set.of(team), Set.of(Role.TRAINER), null),
        "127.0.0.1");
  }

  private JobRow submit(String team, String name) {
    var yaml =
        """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: %s}
        spec: {framework: pytorch, image: img, command: [train], replicas: {master: 1}}
        """
            .formatted(name);
    var spec = new SpecReader(1 << 16).read(yaml.getBytes(StandardCharsets.UTF_8));
    return service.submit(caller(team), spec, null).job();
  }

  private JobRow find(JobRow job) {
    return store.find(job.id()).orElseThrow();
  }
}
