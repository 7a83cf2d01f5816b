package io.trainyard.gateway.audit;

import io.trainyard.audit.AuditChainVerifier;
import io.trainyard.audit.AuditDigest;
import io.trainyard.audit.ChainedEvent;
import io.trainyard.audit.DigestSigner;
import io.trainyard.audit.Redactor;
import io.trainyard.audit.SecretHmac;
import io.trainyard.audit.VerificationReport;
import io.trainyard.gateway.db.DatabaseMigrator;
import io.trainyard.gateway.db.JobIds;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.db.JobStore;
import io.trainyard.gateway.testing.TestDatabase;
import io.trainyard.spi.JobState;
import io.trainyard.testkit.MutableClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

/**
 * What the audit trail's database tests share: one migrated database per class (H2 or PostgreSQL
 * from the subclass's extension), keys, and "replicas": a job store with its audit trail on a
 * connection source of its own. Audit tables are append-only, so tests never empty them; they look
 * at what they added.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AuditTrailFixture {
  static final Instant T0 = Instant.parse("2030-01-02T03:04:05.123456789Z");
  static final SecretHmac HMAC = new SecretHmac(new byte[32]);

  TestDatabase db;
  MutableClock clock;
  DigestSigner signer;
  Replica replica;

  /** One gateway replica's audit-writing parts. */
  record Replica(Jdbi jdbi, AuditLog log, JobStore store, AuditStore audit) {}

  @BeforeAll
  void migrate(TestDatabase database) {
    db = database;
    new DatabaseMigrator().migrate(db.jdbi());
    clock = new MutableClock(T0);
    try {
      signer = DigestSigner.loadOrGenerate(Files.createTempDirectory("audit-keys"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    replica = replica(db.jdbi(), true);
  }

  /** A replica with connections of its own to the same database, as another process has. */
  Replica otherReplica() {
    return replica(Jdbi.create(db.url(), db.user(), ""), true);
  }

  Replica replica(Jdbi jdbi, boolean failClosed) {
    var log = new AuditLog(jdbi, new AuditChainHead(), failClosed);
    var trail = new JobAuditTrail(log, new Redactor(HMAC, Set.of("secretEnv")), clock);
    return new Replica(jdbi, log, new JobStore(jdbi, clock, trail), new AuditStore(jdbi));
  }

  JobRow newJob(String team, String name, String specJson) {
    return JobRow.builder()
        .id(JobIds.newId())
        .team(team)
        .ownerSubject("subject-alice")
        .ownerUsername("alice")
        .name(name)
        .state(JobState.PENDING)
        .attempt(1)
        .specJson(specJson)
        .specHash("a".repeat(64))
        .decisionJson(
            "{\"chosen\":\"local\",\"candidates\":[{\"backendId\":\"local\","
                + "\"hourlyUsd\":1.25},{\"backendId\":\"eks\",\"rejected\":\"no GPUs\"}]}")
        .offerIndex(0)
        .backendId("local")
        .hourlyUsd(new BigDecimal("1.25"))
        .estimatedUsd(new BigDecimal("2.50"))
        .createdAt(clock.instant())
        .build();
  }

  JobRow newJob(String team, String name) {
    return newJob(team, name, "{\"metadata\":{\"name\":\"" + name + "\"}}");
  }

  /** Every event of the chain, in seq order. */
  List<ChainedEvent> chain() {
    var store = replica.audit();
    try (var events = store.events(1, store.head().seq())) {
      return events.toList();
    }
  }

  /** The whole chain and its digests, checked from genesis against our signing key. */
  VerificationReport verifyAll() {
    List<AuditDigest> digests = replica.audit().digests();
    return AuditChainVerifier.verify(chain(), digests, signer.verifier());
  }

  List<ChainedEvent> eventsOf(String resource) {
    return chain().stream().filter(e -> e.event().resource().equals(resource)).toList();
  }
}
