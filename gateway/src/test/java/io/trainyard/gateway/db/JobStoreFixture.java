package io.trainyard.gateway.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.gateway.testing.TestDatabase;
import io.trainyard.spi.JobState;
import io.trainyard.testkit.MutableClock;
import java.math.BigDecimal;
import java.time.Instant;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;

/**
 * What the store's tests share: one migrated database per class (from the subclass's extension),
 * emptied before each test, a clock the test moves, and jobs to insert.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class JobStoreFixture {
  /** Nanoseconds on purpose: the store keeps microseconds on both databases. */
  static final Instant T0 = Instant.parse("2030-01-02T03:04:05.123456789Z");

  static final String HASH_A = "a".repeat(64);
  static final String HASH_B = "b".repeat(64);

  TestDatabase db;
  MutableClock clock;
  JobStore store;

  @BeforeAll
  void migrate(TestDatabase database) {
    db = database;
    new DatabaseMigrator().migrate(db.jdbi());
    clock = new MutableClock(T0);
    var groupCommit = groupCommit(db);
    store =
        groupCommit == null
            ? new JobStore(db.jdbi(), clock)
            : new JobStore(db.jdbi(), clock, JobAudit.NONE, JobAdmission.NONE, groupCommit);
  }

  /** How the store under test commits inserts: null for one transaction each. */
  GroupCommit groupCommit(TestDatabase database) {
    return null;
  }

  @BeforeEach
  void empty() {
    db.jdbi()
        .useTransaction(
            h -> {
              h.execute("DELETE FROM idempotency_keys");
              h.execute("DELETE FROM job_events");
              h.execute("DELETE FROM stale_attempts");
              h.execute("DELETE FROM jobs");
            });
    clock.set(T0);
  }

  JobRow newJob(String team, String name) {
    return JobRow.builder()
        .id(JobIds.newId())
        .team(team)
        .ownerSubject("subject-alice")
        .ownerUsername("alice")
        .name(name)
        .state(JobState.PENDING)
        .attempt(1)
        .specJson("{\"metadata\":{\"name\":\"" + name + "\"}}")
        .specHash(HASH_A)
        .decisionJson("{\"offers\":[]}")
        .offerIndex(0)
        .backendId("local")
        .hourlyUsd(new BigDecimal("1.25"))
        .estimatedUsd(new BigDecimal("2.5"))
        .createdAt(clock.instant())
        .build();
  }

  static JobEvent submitted(JobRow job) {
    return JobEvent.of(job.id(), job.createdAt(), JobEvent.SUBMITTED, "accepted");
  }

  /** Inserts {@code job} without a key and returns it as stored. */
  JobRow insert(JobRow job) {
    var result = store.insert(job, submitted(job), null);
    assertThat(result).isInstanceOf(InsertResult.Created.class);
    return ((InsertResult.Created) result).job();
  }

  int count(String table) {
    return db.jdbi()
        .withHandle(h -> h.createQuery("SELECT COUNT(*) FROM " + table).mapTo(Integer.class).one());
  }
}
