package io.trainyard.gateway.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.spi.JobState;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The reconciler's side: leases, fenced writes, cancel requests; run on H2 and PostgreSQL. */
abstract class JobLeaseContract extends JobStoreFixture {
  private static final Duration LEASE = Duration.ofSeconds(30);

  @Test
  void aLeasedJobWaitsForItsLeaseToLapse() {
    var job = insert(newJob("nlp", "bert"));

    var won = store.claim("a", LEASE, 10);
    assertThat(won).hasSize(1);
    var leased = won.get(0);
    assertThat(leased.leaseOwner()).isEqualTo("a");
    assertThat(leased.leaseUntil()).isEqualTo(job.createdAt().plus(LEASE));
    assertThat(leased.version()).isEqualTo(job.version() + 1);
    assertThat(store.find(job.id())).contains(leased);

    assertThat(store.claim("b", LEASE, 10)).isEmpty();
    clock.advance(LEASE.minusSeconds(1));
    assertThat(store.claim("b", LEASE, 10)).isEmpty();
    // The owner may renew its own lease.
    assertThat(store.claim("a", LEASE, 10)).extracting(JobRow::id).containsExactly(job.id());

    clock.advance(LEASE);
    assertThat(store.claim("b", LEASE, 10)).extracting(JobRow::leaseOwner).containsExactly("b");
  }

  @Test
  void oneJobIsLeasedByItsIdAsAClaimWouldLeaseIt() {
    var job = insert(newJob("nlp", "bert"));

    var leased = store.claimOne(job.id(), "a", LEASE, true).orElseThrow();
    assertThat(leased.leaseOwner()).isEqualTo("a");
    assertThat(leased.version()).isEqualTo(job.version() + 1);
    assertThat(store.find(job.id())).contains(leased);
    assertThat(store.claimOne(job.id(), "b", LEASE, true)).isEmpty();
    // The owner renews its own lease; another waits for it to lapse.
    assertThat(store.claimOne(job.id(), "a", LEASE, true)).isPresent();
    clock.advance(LEASE);
    assertThat(store.claimOne(job.id(), "b", LEASE, true).orElseThrow().leaseOwner())
        .isEqualTo("b");
    assertThat(store.claimOne("0".repeat(26), "a", LEASE, true)).isEmpty();
  }

  @Test
  void aRowJustReadIsLeasedAsReadOrReadAgainWhenItMovedOn() {
    var job = insert(newJob("nlp", "bert"));

    // As read: one write, the row as the caller has it plus the lease.
    var leased = store.claimOne(job, "a", LEASE, true).orElseThrow();
    assertThat(store.find(job.id())).contains(leased);
    // Held by a: b's copy is refused without a write.
    assertThat(store.claimOne(leased, "b", LEASE, true)).isEmpty();
    assertThat(store.find(job.id())).contains(leased);

    // Moved on since it was read (a cancel asked): read again, leased at the new version.
    var cancelled = store.requestCancel(job.id(), "alice").orElseThrow();
    var again = store.claimOne(leased, "a", LEASE, true).orElseThrow();
    assertThat(again.cancelRequested()).isTrue();
    assertThat(again.version()).isEqualTo(cancelled.version() + 1);
    assertThat(store.find(job.id())).contains(again);

    var queued = insert(newJob("nlp", "waiting").toBuilder().state(JobState.QUEUED).build());
    assertThat(store.claimOne(queued, "a", LEASE, false)).isEmpty();
  }

  @Test
  void aQueuedJobIsLeasedByItsIdOnlyWhenQueuedJobsAreAsked() {
    var queued = insert(newJob("nlp", "waiting").toBuilder().state(JobState.QUEUED).build());
    assertThat(queued.state()).isEqualTo(JobState.QUEUED);

    assertThat(store.claimOne(queued.id(), "a", LEASE, false)).isEmpty();
    assertThat(store.find(queued.id()).orElseThrow().version()).isEqualTo(queued.version());
    assertThat(store.claimOne(queued.id(), "a", LEASE, true)).isPresent();
  }

  @Test
  void aReleasedJobCanBeClaimedAtOnce() {
    var job = insert(newJob("nlp", "bert"));
    store.claim("a", LEASE, 10);

    store.release(job.id(), "b");
    assertThat(store.claim("b", LEASE, 10)).isEmpty();
    store.release(job.id(), "a");
    assertThat(store.claim("b", LEASE, 10)).hasSize(1);
  }

  @Test
  void aHandedOverJobIsClaimedAtOnceAndItsOwnersWritesAreFencedOut() {
    var mine = insert(newJob("nlp", "mine"));
    var theirs = insert(newJob("nlp", "theirs"));
    // Both are due at once: which one "a" gets is the store's choice; "b" takes the other.
    var leased = store.claim("a", LEASE, 1).get(0);
    var other = leased.id().equals(mine.id()) ? theirs : mine;
    assertThat(store.claim("b", LEASE, 10)).extracting(JobRow::id).containsExactly(other.id());
    clock.advance(Duration.ofSeconds(1));

    assertThat(store.handOver("a")).isEqualTo(1);

    assertThat(store.handOver("a")).as("nothing left to hand over").isZero();
    var adopted = store.claim("c", LEASE, 10);
    assertThat(adopted).extracting(JobRow::id).containsExactly(leased.id());
    assertThat(store.find(other.id()).orElseThrow().leaseOwner())
        .as("another replica's lease is not touched")
        .isEqualTo("b");
    assertThat(
            store.update(
                leased.toBuilder().state(JobState.SUBMITTED).build(),
                leased.version(),
                "a",
                List.of()))
        .isFalse();
  }

  @Test
  void claimsGoRoundEveryJobRatherThanTheSameFew() {
    for (int i = 0; i < 4; i++) {
      insert(newJob("nlp", "job-" + i));
    }
    var first = store.claim("a", LEASE, 2);
    first.forEach(r -> store.release(r.id(), "a"));
    clock.advance(Duration.ofSeconds(1));

    var second = store.claim("a", LEASE, 2);

    assertThat(second).extracting(JobRow::id).doesNotContainAnyElementsOf(ids(first));
    second.forEach(r -> store.release(r.id(), "a"));
    assertThat(store.claim("a", LEASE, 2))
        .extracting(JobRow::id)
        .containsExactlyElementsOf(ids(first));
  }

  @Test
  void claimTakesAtMostMaxLiveJobs() {
    for (int i = 0; i < 5; i++) {
      insert(newJob("nlp", "job-" + i));
    }
    var ended = store.claim("a", LEASE, 1).get(0);
    assertThat(
            store.update(
                ended.withState(JobState.FAILED, "x", clock.instant()),
                ended.version(),
                "a",
                List.of()))
        .isTrue();
    store.release(ended.id(), "a");

    assertThat(store.claim("b", LEASE, 3)).hasSize(3);
    assertThat(store.claim("c", LEASE, 3)).hasSize(1);
    assertThat(store.claim("d", LEASE, 3)).isEmpty();
  }

  @Test
  void aFencedUpdateWritesTheRowAndItsEvents() {
    var job = insert(newJob("nlp", "bert"));
    var leased = store.claim("a", LEASE, 1).get(0);
    clock.advance(Duration.ofSeconds(5));
    var next =
        leased.withState(JobState.SUBMITTED, null, clock.instant()).toBuilder()
            .externalRefJson("{\"name\":\"ty-" + job.id() + "-a1\"}")
            .build();

    assertThat(
            store.update(
                next,
                leased.version(),
                "a",
                List.of(
                    JobEvent.of(
                        job.id(), clock.instant(), JobEvent.STATE, "PENDING -> SUBMITTED"))))
        .isTrue();

    var stored = store.find(job.id()).orElseThrow();
    assertThat(stored.state()).isEqualTo(JobState.SUBMITTED);
    assertThat(stored.submittedAt()).isEqualTo(next.submittedAt());
    assertThat(stored.externalRefJson()).contains("ty-" + job.id() + "-a1");
    assertThat(stored.version()).isEqualTo(leased.version() + 1);
    assertThat(stored.leaseOwner()).isEqualTo("a");
    assertThat(store.events(job.id()))
        .extracting(JobEvent::type)
        .containsExactly(JobEvent.SUBMITTED, JobEvent.STATE);
  }

  @Test
  void aLapsedLeaseCannotOverwrite() {
    var job = insert(newJob("nlp", "bert"));
    var byA = store.claim("a", LEASE, 1).get(0);
    var aWants = byA.withState(JobState.SUBMITTED, null, clock.instant());

    clock.advance(LEASE);
    assertThat(store.update(aWants, byA.version(), "a", List.of())).isFalse();

    var byB = store.claim("b", LEASE, 1).get(0);
    assertThat(store.update(aWants, byA.version(), "a", List.of())).isFalse();
    // Even with the current version, a is no longer the owner.
    assertThat(store.update(aWants, byB.version(), "a", List.of())).isFalse();
    assertThat(store.find(job.id())).contains(byB);
    assertThat(store.events(job.id())).hasSize(1);
  }

  @Test
  void anIllegalTransitionIsRefusedAndNothingWritten() {
    var job = insert(newJob("nlp", "bert"));
    var leased = store.claim("a", LEASE, 1).get(0);

    assertThatThrownBy(
            () ->
                store.update(
                    leased.withState(JobState.SUCCEEDED, null, clock.instant()),
                    leased.version(),
                    "a",
                    List.of(JobEvent.of(job.id(), clock.instant(), JobEvent.STATE, "no"))))
        .isInstanceOf(JobState.IllegalTransitionException.class);

    assertThat(store.find(job.id())).contains(leased);
    assertThat(store.events(job.id())).hasSize(1);
  }

  @Test
  void aCancelRequestFencesOutAWriteBasedOnTheRowBefore() {
    var job = insert(newJob("nlp", "bert"));
    var leased = store.claim("a", LEASE, 1).get(0);

    var cancelled = store.requestCancel(job.id(), "alice").orElseThrow();
    assertThat(cancelled.cancelRequested()).isTrue();
    assertThat(cancelled.version()).isEqualTo(leased.version() + 1);
    assertThat(store.find(job.id())).contains(cancelled);

    var stale = leased.withState(JobState.SUBMITTED, null, clock.instant());
    assertThat(store.update(stale, leased.version(), "a", List.of())).isFalse();
    var fresh = store.find(job.id()).orElseThrow();
    assertThat(
            store.update(
                fresh.withState(JobState.CANCELLED, "cancelled by user", clock.instant()),
                fresh.version(),
                "a",
                List.of()))
        .isTrue();
    // Terminal: a second request changes nothing.
    var ended = store.find(job.id()).orElseThrow();
    assertThat(store.requestCancel(job.id(), "alice")).contains(ended);
    assertThat(store.events(job.id()))
        .extracting(JobEvent::type)
        .containsExactly(JobEvent.SUBMITTED, JobEvent.CANCEL_REQUESTED);
    assertThat(store.requestCancel(JobIds.newId(), "alice")).isEmpty();
  }

  @Test
  void aCancelRequestRacingTheReconcilerIsNeverLost() throws Exception {
    var job = insert(newJob("nlp", "bert"));
    var leased = store.claim("a", LEASE, 1).get(0);
    assertThat(
            store.update(
                leased.withState(JobState.SUBMITTED, null, clock.instant()),
                leased.version(),
                "a",
                List.of()))
        .isTrue();
    var pool = Executors.newSingleThreadExecutor();
    try {
      var reconcilerStarted = new CountDownLatch(1);
      // Flips SUBMITTED <-> RUNNING as fast as it can until it sees the cancel, then honours it.
      Future<JobState> reconciler =
          pool.submit(
              () -> {
                while (true) {
                  var row = store.find(job.id()).orElseThrow();
                  var next =
                      row.cancelRequested()
                          ? JobState.CANCELLING
                          : row.state() == JobState.RUNNING ? JobState.SUBMITTED : JobState.RUNNING;
                  if (store.update(
                          row.withState(next, null, clock.instant()), row.version(), "a", List.of())
                      && next == JobState.CANCELLING) {
                    return next;
                  }
                  reconcilerStarted.countDown();
                }
              });
      reconcilerStarted.await();

      assertThat(store.requestCancel(job.id(), "alice").orElseThrow().cancelRequested()).isTrue();

      assertThat(reconciler.get(30, TimeUnit.SECONDS)).isEqualTo(JobState.CANCELLING);
    } finally {
      pool.shutdownNow();
    }
    var stored = store.find(job.id()).orElseThrow();
    assertThat(stored.state()).isEqualTo(JobState.CANCELLING);
    assertThat(stored.cancelRequested()).isTrue();
    assertThat(store.events(job.id()))
        .filteredOn(e -> e.type().equals(JobEvent.CANCEL_REQUESTED))
        .hasSize(1);
  }

  @Test
  void twoClaimersRacingSubmitEveryJobExactlyOnce() throws Exception {
    int jobs = 50;
    for (int i = 0; i < jobs; i++) {
      insert(newJob("nlp", "job-" + i));
    }
    Map<String, AtomicInteger> submits = new ConcurrentHashMap<>();
    var done = new AtomicInteger();
    var pool = Executors.newFixedThreadPool(2);
    try {
      var gate = new CountDownLatch(1);
      var replicas =
          List.of("replica-a", "replica-b").stream()
              .map(owner -> pool.submit(() -> submitAll(owner, gate, submits, done, jobs)))
              .toList();
      gate.countDown();
      for (var r : replicas) {
        r.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(submits).hasSize(jobs);
    assertThat(submits.values()).allMatch(n -> n.get() == 1);
    assertThat(store.list("nlp", Set.of(JobState.SUBMITTED), 100)).hasSize(jobs);
    assertThat(count("job_events")).isEqualTo(2 * jobs);
  }

  /** One replica's reconciler loop: claim, "call the backend", write SUBMITTED, release. */
  private Void submitAll(
      String owner,
      CountDownLatch gate,
      Map<String, AtomicInteger> submits,
      AtomicInteger done,
      int jobs)
      throws InterruptedException {
    gate.await();
    while (done.get() < jobs) {
      for (var row : store.claim(owner, Duration.ofMinutes(1), 5)) {
        if (row.state() == JobState.PENDING) {
          submits.computeIfAbsent(row.id(), id -> new AtomicInteger()).incrementAndGet();
          var event = JobEvent.of(row.id(), clock.instant(), JobEvent.STATE, owner);
          var next = row.withState(JobState.SUBMITTED, null, clock.instant());
          if (store.update(next, row.version(), owner, List.of(event))) {
            done.incrementAndGet();
          }
        }
        store.release(row.id(), owner);
      }
    }
    return null;
  }

  private static List<String> ids(List<JobRow> rows) {
    return rows.stream().map(JobRow::id).toList();
  }
}
