package io.trainyard.gateway.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.audit.AuditActor;
import io.trainyard.audit.ChainedEvent;
import io.trainyard.audit.DigestPolicy;
import io.trainyard.gateway.db.InsertResult;
import io.trainyard.gateway.db.JobEvent;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import io.trainyard.spi.JobState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The audit trail against a real database (H2 and PostgreSQL subclasses): job changes audited in
 * their own transactions, one valid chain from two replicas writing at once, fail-closed and
 * fail-open, digests signed under a lease.
 */
abstract class AuditTrailContract extends AuditTrailFixture {
  private static final Duration LEASE = Duration.ofSeconds(30);
  private static final AuditActor ALICE =
      new AuditActor("subject-alice", "alice", "trainyard-cli", "10.0.0.7", "req-0123456789");
  private static final String REF =
      "{\"backendId\":\"local\",\"name\":\"ty-%s-a%d\",\"attributes\":{}}";

  @Test
  void aJobsLifeIsAuditedChangeByChangeAndTheChainHolds() {
    var spec =
        "{\"metadata\":{\"name\":\"bert\"},\"spec\":{\"env\":{\"WANDB_API_KEY\":\"plain-value-1\"},"
            + "\"secretEnv\":{\"HF_TOKEN\":{\"secret\":\"hf\",\"key\":\"token\"}}}}";
    var job = submit(replica, newJob("nlp", "bert", spec));
    var leased = claim(job, "replica-a");
    var submitted = submitted(leased);
    assertThat(replica.store().update(submitted, leased.version(), "replica-a", List.of()))
        .isTrue();
    replica.store().requestCancel(job.id(), "alice", ALICE);

    var events = eventsOf("job/" + job.id());
    assertThat(events)
        .extracting(e -> e.event().action())
        .containsExactly(
            "job.submit", "job.route", "job.state", "backend.submit", "job.state", "job.cancel");
    // One transaction's events are adjacent in the chain.
    assertThat(events.get(2).seq() - events.get(0).seq()).isEqualTo(2);
    var submit = events.get(0).event();
    assertThat(submit.actor()).isEqualTo(ALICE);
    assertThat(submit.team()).isEqualTo("nlp");
    assertThat(submit.backend()).isEqualTo("local");
    var specDetails = submit.details().get("spec").toString();
    assertThat(specDetails)
        .doesNotContain("plain-value-1")
        .contains(HMAC.evidence("plain-value-1"))
        .contains("\"secret\":\"hf\"");
    var route = events.get(1).event().details();
    assertThat(route.get("hourlyUsd").asText()).isEqualTo("1.25");
    assertThat(route.at("/decision/candidates/0/hourlyUsd").isTextual()).isTrue();
    assertThat(route.at("/decision/candidates/1/rejected").asText()).isEqualTo("no GPUs");
    var state = events.get(4).event();
    assertThat(state.actor().subject()).isEqualTo("system:reconciler");
    assertThat(state.details().get("to").asText()).isEqualTo("SUBMITTED");
    assertThat(events.get(3).event().details().at("/ref/name").asText()).startsWith("ty-");
    assertThat(events.get(5).event().actor()).isEqualTo(ALICE);
    assertThat(verifyAll().ok()).as(verifyAll().toText()).isTrue();
  }

  @Test
  void aFailoverAndATakeoverByAnotherReplicaAreAudited() {
    var job = submit(replica, newJob("nlp", "failing-over"));
    var leased = claim(job, "replica-a");
    var moved = failedOverToEks(leased, "local refused: full");
    assertThat(replica.store().update(moved, leased.version(), "replica-a", List.of())).isTrue();
    var again = replica.store().find(job.id()).orElseThrow();
    var running = submitted(again);
    assertThat(replica.store().update(running, again.version(), "replica-a", List.of())).isTrue();

    clock.advance(LEASE.plusSeconds(1));
    claim(job, "replica-b");

    var events = eventsOf("job/" + job.id());
    assertThat(events)
        .extracting(e -> e.event().action())
        .containsSubsequence("backend.failover", "backend.submit", "backend.adopt");
    var failover = find(events, "backend.failover").details();
    assertThat(failover.get("fromBackend").asText()).isEqualTo("local");
    assertThat(failover.get("toBackend").asText()).isEqualTo("eks");
    assertThat(failover.get("reason").asText()).contains("full");
    var adopt = find(events, "backend.adopt").details();
    assertThat(adopt.get("previousReplica").asText()).isEqualTo("replica-a");
    assertThat(adopt.get("replica").asText()).isEqualTo("replica-b");
  }

  @Test
  void anAttemptLeftByAFailoverIsRecordedAndItsCleanUpAuditedOnce() {
    var job = submit(replica, newJob("nlp", "left-attempt"));
    var leased = claim(job, "replica-a");
    var moved = failedOverToEks(leased, "local is unhealthy");
    assertThat(replica.store().update(moved, leased.version(), "replica-a", List.of())).isTrue();

    var left = replica.store().staleAttempts().list(10);
    assertThat(left).singleElement().satisfies(l -> assertThat(l.attempt()).isEqualTo(1));
    assertThat(left.get(0).backendId()).isEqualTo("local");
    var stale = replica.store().staleAttempts();
    assertThat(stale.forget(left.get(0), true, "cancelled there", "replica-a")).isTrue();
    assertThat(stale.forget(left.get(0), true, "cancelled there", "replica-b"))
        .as("another replica got there first")
        .isFalse();

    var cleanUps =
        eventsOf("job/" + job.id()).stream()
            .filter(e -> e.event().action().equals("backend.cleanup"))
            .toList();
    assertThat(cleanUps).hasSize(1);
    var cleanUp = cleanUps.get(0).event();
    assertThat(cleanUp.backend()).isEqualTo("local");
    assertThat(cleanUp.details().get("attempt").asInt()).isEqualTo(1);
    assertThat(cleanUp.details().get("removed").asBoolean()).isTrue();
    assertThat(cleanUp.details().get("replica").asText()).isEqualTo("replica-a");
    assertThat(replica.store().staleAttempts().list(10)).isEmpty();
    assertThat(verifyAll().ok()).as(verifyAll().toText()).isTrue();
  }

  @Test
  void twoReplicasWritingAtOnceLeaveOneValidChain() throws Exception {
    var replicas = List.of(replica, otherReplica());
    long before = replica.audit().head().seq();
    int writers = 6;
    int jobsEach = 12;
    var start = new CountDownLatch(1);
    var running = new AtomicBoolean(true);
    var pool = Executors.newFixedThreadPool(writers + 2);
    var tasks = new ArrayList<java.util.concurrent.Future<?>>();
    for (int w = 0; w < writers; w++) {
      var writer = replicas.get(w % 2);
      var prefix = "w" + w + "-";
      tasks.add(
          pool.submit(
              (Callable<Void>)
                  () -> {
                    start.await();
                    for (int i = 0; i < jobsEach; i++) {
                      var job = submit(writer, newJob("team-" + (i % 3), prefix + i));
                      writer.store().requestCancel(job.id(), "alice", ALICE);
                    }
                    return null;
                  }));
    }
    // Both replicas sign digests meanwhile; a zero lease lets them race for every range.
    for (int r = 0; r < 2; r++) {
      var signing =
          new DigestSigning(
              replicas.get(r).audit(),
              new AuditLeases(replicas.get(r).jdbi(), clock),
              signer,
              new DigestPolicy(20, Duration.ofHours(1)),
              "replica-" + r,
              Duration.ZERO,
              clock);
      pool.submit(
          () -> {
            while (running.get()) {
              signing.tick();
            }
          });
    }
    start.countDown();
    for (var task : tasks) {
      task.get(120, TimeUnit.SECONDS);
    }
    running.set(false);
    pool.shutdown();
    assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();

    assertThat(replica.audit().head().seq() - before).isEqualTo(writers * jobsEach * 4L);
    var report = verifyAll();
    assertThat(report.ok()).as(report.toText()).isTrue();
    assertThat(report.digestsChecked()).isPositive();
    var chain = chain();
    for (int i = 0; i < chain.size(); i++) {
      assertThat(chain.get(i).seq()).isEqualTo(i + 1);
    }
  }

  @Test
  void failClosedRefusesASubmissionWhenTheAuditTableCannotBeWrittenAndStoresNothing() {
    var head = replica.audit().head();
    var job = newJob("nlp", "refused-by-audit");
    renameAuditTable("audit_events", "audit_events_away");
    try {
      assertThatThrownBy(() -> submit(replica, job))
          .isInstanceOfSatisfying(
              ApiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.AUDIT_UNAVAILABLE));
    } finally {
      renameAuditTable("audit_events_away", "audit_events");
    }
    assertThat(replica.store().find(job.id())).isEmpty();
    assertThat(replica.store().events(job.id())).isEmpty();
    assertThat(replica.audit().head()).isEqualTo(head);
    assertThat(ErrorCode.AUDIT_UNAVAILABLE.status()).isEqualTo(503);
  }

  @Test
  void failOpenKeepsTheChangeAndLosesOnlyItsEvents() {
    var open = replica(db.jdbi(), false);
    var head = replica.audit().head();
    var job = newJob("nlp", "kept-without-audit");
    renameAuditTable("audit_events", "audit_events_away");
    try {
      submit(open, job);
    } finally {
      renameAuditTable("audit_events_away", "audit_events");
    }
    assertThat(replica.store().find(job.id())).isPresent();
    assertThat(replica.audit().head()).isEqualTo(head);
  }

  @Test
  void pagesFollowTheChainAndFilter() {
    var job = submit(replica, newJob("vision", "paged"));
    var all = replica.audit().page(AuditQuery.ALL, 0, 1_000);
    assertThat(all).extracting(ChainedEvent::seq).isSorted();
    var vision = new AuditQuery(null, "vision", "job.*", null, null, null);
    var page = replica.audit().page(vision, 0, 2);
    assertThat(page).hasSize(2).allMatch(e -> e.event().team().equals("vision"));
    var next = replica.audit().page(vision, page.get(1).seq(), 10);
    assertThat(next).extracting(e -> e.event().action()).contains("job.state");
    assertThat(
            replica
                .audit()
                .page(new AuditQuery("alice", null, "job.submit", null, null, null), 0, 1000))
        .extracting(e -> e.event().resource())
        .contains("job/" + job.id());
    assertThat(replica.audit().page(new AuditQuery("nobody", null, null, null, null, null), 0, 10))
        .isEmpty();
    var range = replica.audit().seqRange(T0.minusSeconds(1), clock.instant().plusSeconds(1));
    assertThat(range).isPresent();
  }

  @Test
  void aLeaseHasOneHolderAtATime() {
    var leases = new AuditLeases(db.jdbi(), clock);
    assertThat(leases.hold("test-lease", "a", LEASE)).isTrue();
    assertThat(leases.hold("test-lease", "b", LEASE)).isFalse();
    assertThat(leases.hold("test-lease", "a", LEASE)).isTrue();
    assertThat(leases.markDone("test-lease", "b", "x")).isFalse();
    assertThat(leases.markDone("test-lease", "a", "2030-01-01")).isTrue();
    assertThat(leases.lastDone("test-lease")).contains("2030-01-01");
    clock.advance(LEASE.plusSeconds(1));
    assertThat(leases.hold("test-lease", "b", LEASE)).isTrue();
    leases.release("test-lease", "b");
    assertThat(leases.hold("test-lease", "a", LEASE)).isTrue();
  }

  private JobRow submit(Replica r, JobRow job) {
    var event = JobEvent.of(job.id(), job.createdAt(), JobEvent.STATE, "PENDING");
    var result = r.store().insert(job, event, null, null, ALICE);
    assertThat(result).isInstanceOf(InsertResult.Created.class);
    return ((InsertResult.Created) result).job();
  }

  private JobRow claim(JobRow job, String owner) {
    // Claims may take other tests' live jobs too; only ours matters.
    for (int i = 0; i < 100; i++) {
      var mine =
          replica.store().claim(owner, LEASE, 500).stream()
              .filter(j -> j.id().equals(job.id()))
              .findFirst();
      if (mine.isPresent()) {
        return mine.get();
      }
    }
    throw new AssertionError("could not claim " + job.id());
  }

  private JobRow submitted(JobRow leased) {
    return leased.withState(JobState.SUBMITTED, null, clock.instant()).toBuilder()
        .externalRefJson(REF.formatted(leased.id(), leased.attempt()))
        .submittedAt(clock.instant())
        .build();
  }

  private static io.trainyard.audit.AuditEvent find(List<ChainedEvent> events, String action) {
    return events.stream()
        .filter(e -> e.event().action().equals(action))
        .findFirst()
        .orElseThrow()
        .event();
  }

  /** {@code leased} moved to its second offer, on eks, as its second attempt. */
  private JobRow failedOverToEks(JobRow leased, String reason) {
    return leased.toBuilder()
        .attempt(2)
        .offerIndex(1)
        .backendId("eks")
        .reason(reason)
        .updatedAt(clock.instant())
        .build();
  }

  private void renameAuditTable(String from, String to) {
    db.jdbi().useHandle(h -> h.execute("ALTER TABLE " + from + " RENAME TO " + to));
  }
}
