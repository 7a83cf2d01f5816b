package io.trainyard.gateway.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.JobState;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TimeZone;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Storing and reading jobs, names and idempotency keys; run on H2 and PostgreSQL. */
abstract class JobStoreContract extends JobStoreFixture {

  @Test
  void aTeamRowDeletedAfterTheStoreMadeItIsMadeAgainForTheNextBudgetCheck() {
    var budget =
        new io.trainyard.cost.Budget(
            new BigDecimal("1000"), io.trainyard.cost.Budget.OverBudget.REFUSE);
    var first = newJob("ledger", "first");
    assertThat(store.insert(first, submitted(first), null, budget))
        .isInstanceOf(InsertResult.Created.class);
    // The store remembers it made the row; it is deleted behind its back.
    db.jdbi().useHandle(h -> h.execute("DELETE FROM teams WHERE name = 'ledger'"));

    var second = newJob("ledger", "second");
    assertThat(store.insert(second, submitted(second), null, budget))
        .isInstanceOf(InsertResult.Created.class);
    int rows =
        db.jdbi()
            .withHandle(
                h ->
                    h.createQuery("SELECT COUNT(*) FROM teams WHERE name = 'ledger'")
                        .mapTo(Integer.class)
                        .one());
    assertThat(rows).isEqualTo(1);
  }

  @Test
  void aKeyOlderThanTheWindowIsFreeAgainAndTheNewJobHoldsIt() {
    var key = new IdempotencyKey("nlp", "subject-alice", "reused", HASH_A);
    var first = newJob("nlp", "first");
    assertThat(store.insert(first, submitted(first), key)).isInstanceOf(InsertResult.Created.class);
    var again = newJob("nlp", "again");
    assertThat(store.insert(again, submitted(again), key))
        .isEqualTo(new InsertResult.SameKey(first.id(), HASH_A));

    clock.set(T0.plus(JobStore.IDEMPOTENCY_WINDOW));
    var later = newJob("nlp", "later");
    assertThat(store.insert(later, submitted(later), key)).isInstanceOf(InsertResult.Created.class);
    var retried = newJob("nlp", "retried");
    assertThat(store.insert(retried, submitted(retried), key))
        .isEqualTo(new InsertResult.SameKey(later.id(), HASH_A));
    assertThat(count("idempotency_keys")).isEqualTo(1);
  }

  @Test
  void aStoredJobReadsBackEqualWithItsFirstEvent() {
    var job = newJob("nlp", "bert");

    var stored = insert(job);

    assertThat(stored).isEqualTo(job);
    assertThat(store.find(job.id())).contains(job);
    assertThat(stored.createdAt()).isEqualTo("2030-01-02T03:04:05.123456Z");
    assertThat(stored.hourlyUsd()).isEqualTo(new BigDecimal("1.250000"));
    var events = store.events(job.id());
    assertThat(events).hasSize(1);
    assertThat(events.get(0).type()).isEqualTo(JobEvent.SUBMITTED);
    assertThat(events.get(0).at()).isEqualTo(stored.createdAt());
    assertThat(store.find(JobIds.newId())).isEmpty();
  }

  @Test
  void timesReadBackAsTheSameInstantWhateverTheJvmTimeZone() {
    var original = TimeZone.getDefault();
    try {
      // +12:45 and no DST: a time zone leak would show as a shifted instant.
      TimeZone.setDefault(TimeZone.getTimeZone("Pacific/Chatham"));
      var job = insert(newJob("nlp", "tz"));
      assertThat(store.find(job.id()).orElseThrow().createdAt()).isEqualTo(job.createdAt());
    } finally {
      TimeZone.setDefault(original);
    }
  }

  @Test
  void listsNewestFirstByTeamAndState() {
    var a = insert(newJob("nlp", "a"));
    clock.advance(Duration.ofSeconds(1));
    var b = insert(newJob("nlp", "b"));
    clock.advance(Duration.ofSeconds(1));
    var c = insert(newJob("vision", "c"));
    endAs(b, JobState.FAILED);

    assertThat(ids(store.list(null, Set.of(), 10))).containsExactly(c.id(), b.id(), a.id());
    assertThat(ids(store.list("nlp", Set.of(), 10))).containsExactly(b.id(), a.id());
    assertThat(ids(store.list("nlp", Set.of(JobState.PENDING), 10))).containsExactly(a.id());
    assertThat(ids(store.list(null, Set.of(JobState.PENDING, JobState.FAILED), 2)))
        .containsExactly(c.id(), b.id());
    assertThat(store.list("nobody", Set.of(), 10)).isEmpty();
  }

  @Test
  void aLiveNameIsTakenUntilItsJobEnds() {
    var first = insert(newJob("nlp", "bert"));

    var second = newJob("nlp", "bert");
    assertThat(store.insert(second, submitted(second), null))
        .isEqualTo(new InsertResult.NameTaken(first.id()));
    assertThat(count("jobs")).isEqualTo(1);
    insert(newJob("vision", "bert"));

    endAs(first, JobState.CANCELLED);

    var third = insert(newJob("nlp", "bert"));
    assertThat(store.find(first.id()).orElseThrow().liveName()).isNull();
    assertThat(store.find(third.id()).orElseThrow().liveName()).isEqualTo("bert");
  }

  @Test
  void aRepeatedKeyAnswersTheFirstJobAndStoresNothing() {
    var key = new IdempotencyKey("nlp", "subject-alice", "k1", HASH_A);
    var first = newJob("nlp", "bert");
    assertThat(store.insert(first, submitted(first), key)).isInstanceOf(InsertResult.Created.class);

    var retry = newJob("nlp", "bert");
    assertThat(store.insert(retry, submitted(retry), key))
        .isEqualTo(new InsertResult.SameKey(first.id(), HASH_A));
    // Another spec under the same key: the caller sees the first hash and answers 409.
    var other = newJob("nlp", "other").toBuilder().specHash(HASH_B).build();
    var otherKey = new IdempotencyKey("nlp", "subject-alice", "k1", HASH_B);
    assertThat(store.insert(other, submitted(other), otherKey))
        .isEqualTo(new InsertResult.SameKey(first.id(), HASH_A));

    assertThat(count("jobs")).isEqualTo(1);
    assertThat(count("job_events")).isEqualTo(1);
  }

  @Test
  void theSameKeyOfAnotherTeamOrCallerIsIndependent() {
    var first = newJob("nlp", "bert");
    store.insert(first, submitted(first), new IdempotencyKey("nlp", "subject-alice", "k", HASH_A));

    var otherTeam = newJob("vision", "bert");
    assertThat(
            store.insert(
                otherTeam,
                submitted(otherTeam),
                new IdempotencyKey("vision", "subject-alice", "k", HASH_A)))
        .isEqualTo(new InsertResult.Created(otherTeam));
    var otherCaller = newJob("nlp", "roberta");
    assertThat(
            store.insert(
                otherCaller,
                submitted(otherCaller),
                new IdempotencyKey("nlp", "subject-bob", "k", HASH_A)))
        .isEqualTo(new InsertResult.Created(otherCaller));
  }

  @Test
  void aKeyExpiresAfter24HoursAndIsPurged() {
    var key = new IdempotencyKey("nlp", "subject-alice", "k1", HASH_A);
    var first = newJob("nlp", "first");
    store.insert(first, submitted(first), key);

    clock.advance(Duration.ofHours(24).plusSeconds(1));
    var later = newJob("nlp", "later");
    assertThat(store.insert(later, submitted(later), key))
        .isEqualTo(new InsertResult.Created(later));
    var retry = newJob("nlp", "retry");
    assertThat(store.insert(retry, submitted(retry), key))
        .isEqualTo(new InsertResult.SameKey(later.id(), HASH_A));

    var k2 = newJob("nlp", "k2");
    store.insert(k2, submitted(k2), new IdempotencyKey("nlp", "subject-alice", "k2", HASH_A));
    clock.advance(Duration.ofHours(1));
    var k3 = newJob("nlp", "k3");
    store.insert(k3, submitted(k3), new IdempotencyKey("nlp", "subject-alice", "k3", HASH_A));
    assertThat(store.purgeIdempotencyKeys(clock.instant())).isEqualTo(2);
    assertThat(count("idempotency_keys")).isEqualTo(1);
  }

  @Test
  void eightConcurrentInsertsWithOneKeyCreateOneJob() throws Exception {
    var key = new IdempotencyKey("nlp", "subject-alice", "retry-storm", HASH_A);
    // Distinct names, so only the key can stop them.
    var results = race(8, i -> newJob("nlp", "job-" + i), key);

    var created = results.stream().filter(InsertResult.Created.class::isInstance).toList();
    assertThat(created).hasSize(1);
    var id = ((InsertResult.Created) created.get(0)).job().id();
    assertThat(results)
        .filteredOn(InsertResult.SameKey.class::isInstance)
        .hasSize(7)
        .allMatch(r -> r.equals(new InsertResult.SameKey(id, HASH_A)));
    assertThat(count("jobs")).isEqualTo(1);
  }

  @Test
  void eightConcurrentInsertsWithOneNameCreateOneJob() throws Exception {
    var results = race(8, i -> newJob("nlp", "same"), null);

    var created = results.stream().filter(InsertResult.Created.class::isInstance).toList();
    assertThat(created).hasSize(1);
    var id = ((InsertResult.Created) created.get(0)).job().id();
    assertThat(results).containsOnly(created.get(0), new InsertResult.NameTaken(id));
    assertThat(count("jobs")).isEqualTo(1);
  }

  @Test
  void anInsertRacingAnUncommittedTwinAnswersTheTwinOnceItCommits() throws Exception {
    var key = new IdempotencyKey("nlp", "subject-alice", "k", HASH_A);
    var twin = newJob("nlp", "bert");
    var pool = Executors.newSingleThreadExecutor();
    try (var otherReplica = db.jdbi().open()) {
      // Another replica's insert, stopped before its commit: invisible to the look-ups, so only
      // the constraints can stop the second insert.
      otherReplica.begin();
      JobColumns.bindAll(otherReplica.createUpdate(JobColumns.INSERT), twin).execute();
      otherReplica
          .createUpdate(
              "INSERT INTO idempotency_keys (team, subject, idem_key, spec_hash, job_id,"
                  + " created_at) VALUES ('nlp', 'subject-alice', 'k', :hash, :job, :at)")
          .bind("hash", HASH_A)
          .bind("job", twin.id())
          .bind("at", JobColumns.utc(clock.instant()))
          .execute();
      var retry = newJob("nlp", "bert");
      var result = pool.submit(() -> store.insert(retry, submitted(retry), key));
      Thread.sleep(200);
      otherReplica.commit();

      assertThat(result.get(10, TimeUnit.SECONDS))
          .isEqualTo(new InsertResult.SameKey(twin.id(), HASH_A));
    } finally {
      pool.shutdownNow();
    }
    assertThat(count("jobs")).isEqualTo(1);
  }

  /** {@code threads} inserts let loose at once. */
  private List<InsertResult> race(int threads, Function<Integer, JobRow> job, IdempotencyKey key)
      throws Exception {
    var pool = Executors.newFixedThreadPool(threads);
    try {
      var gate = new CountDownLatch(1);
      var futures = new ArrayList<Future<InsertResult>>();
      for (int i = 0; i < threads; i++) {
        var row = job.apply(i);
        Callable<InsertResult> insert =
            () -> {
              gate.await();
              return store.insert(row, submitted(row), key);
            };
        futures.add(pool.submit(insert));
      }
      gate.countDown();
      var results = new ArrayList<InsertResult>();
      for (var f : futures) {
        results.add(f.get());
      }
      return results;
    } finally {
      pool.shutdownNow();
    }
  }

  /** Ends {@code job} the way the reconciler would: lease, fenced write, release. */
  private void endAs(JobRow job, JobState end) {
    var leased =
        store.claim("test", Duration.ofMinutes(1), 100).stream()
            .filter(r -> r.id().equals(job.id()))
            .findFirst()
            .orElseThrow();
    assertThat(
            store.update(
                leased.withState(end, "test", clock.instant()),
                leased.version(),
                "test",
                List.of()))
        .isTrue();
    store.release(job.id(), "test");
  }

  private static List<String> ids(List<JobRow> rows) {
    return rows.stream().map(JobRow::id).toList();
  }
}
