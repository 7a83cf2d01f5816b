package io.trainyard.gateway.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.audit.AuditActions;
import io.trainyard.audit.AuditActor;
import io.trainyard.audit.AuditExporter;
import io.trainyard.audit.AuditVerifier;
import io.trainyard.audit.BlobSinkConfig;
import io.trainyard.audit.DigestPolicy;
import io.trainyard.audit.JcloudsBlobSink;
import io.trainyard.gateway.testing.H2Extension;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What runs in the background of a replica: aggregated auth failures, digests on their policy,
 * daily exports; in order, on one H2 database, the last test tampering with it.
 */
@ExtendWith(H2Extension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class BackgroundWorkH2Test extends AuditTrailFixture {
  private static final Duration LEASE = Duration.ofSeconds(30);

  @Test
  @Order(1)
  void authFailuresBecomeOneEventPerSourceAndMinute() {
    var counts = new AuthFailureCounts(replica.log(), "replica-a", clock);
    clock.set(java.time.Instant.parse("2030-01-02T03:04:00Z"));
    for (int i = 0; i < 500; i++) {
      counts.refused("10.0.0.9", i % 5 == 0 ? "missing" : "TOKEN_EXPIRED");
    }
    counts.refused("10.0.0.10", "TOKEN_SIGNATURE_INVALID");
    counts.flush(false);
    assertThat(failures()).isZero(); // the minute is not over yet

    clock.advance(Duration.ofSeconds(61));
    counts.refused("10.0.0.9", "missing");
    counts.flush(false);
    var events =
        replica.audit().page(new AuditQuery(null, null, "auth.failure", null, null, null), 0, 10);
    assertThat(events).hasSize(2);
    var flood =
        events.stream()
            .map(e -> e.event())
            .filter(e -> e.actor().sourceIp().equals("10.0.0.9"))
            .findFirst()
            .orElseThrow();
    assertThat(flood.actor().sourceIp()).isEqualTo("10.0.0.9");
    assertThat(flood.details().get("count").asLong()).isEqualTo(500);
    assertThat(flood.details().at("/reasons/TOKEN_EXPIRED").asLong()).isEqualTo(400);
    assertThat(flood.details().get("windowStart").asText()).isEqualTo("2030-01-02T03:04:00Z");

    counts.flush(true);
    assertThat(failures()).isEqualTo(502);
  }

  @Test
  @Order(1)
  void deniedRequestsOfOneCallerBecomeTwoEventsAMinuteNotOnePerRequest() {
    var counts = new AuthFailureCounts(replica.log(), "replica-a", clock);
    clock.set(java.time.Instant.parse("2030-01-03T03:04:00Z"));
    var mallory =
        new io.trainyard.gateway.auth.Caller(
            new io.trainyard.auth.Principal(
                "sub-mallory",
                "mallory",
                null,
                java.util.Set.of("nlp"),
                java.util.Set.of(io.trainyard.auth.Role.TRAINER),
                null),
            "10.0.0.7");
    var before = denials().size();
    for (int i = 0; i < 300; i++) {
      counts.denied(mallory, i % 3 == 0 ? "POST /v1/audit/exports" : "GET /v1/audit", "auditor");
    }
    assertThat(denials()).as("the first is written at once").hasSize(before + 1);
    counts.flush(false);
    assertThat(denials()).as("the minute is not over").hasSize(before + 1);

    clock.advance(Duration.ofSeconds(61));
    counts.flush(false);
    var all = denials();
    assertThat(all).hasSize(before + 2);
    var coalesced = all.get(all.size() - 1);
    assertThat(coalesced.actor().username()).isEqualTo("mallory");
    assertThat(coalesced.details().get("count").asLong()).isEqualTo(299);
    assertThat(coalesced.details().at("/requests/GET ~1v1~1audit").asLong()).isEqualTo(200);
    assertThat(coalesced.details().at("/requests/POST ~1v1~1audit~1exports").asLong())
        .isEqualTo(99);
    assertThat(coalesced.details().get("windowStart").asText()).isEqualTo("2030-01-03T03:04:00Z");
  }

  private java.util.List<io.trainyard.audit.AuditEvent> denials() {
    return replica
        .audit()
        .page(new AuditQuery(null, null, "auth.denied", null, null, null), 0, 100)
        .stream()
        .map(e -> e.event())
        .toList();
  }

  @Test
  @Order(2)
  void digestsFollowThePolicyAndChainToEachOther() {
    var signing = signing(new DigestPolicy(5, Duration.ofMinutes(15)), "replica-a");
    var other = signing(new DigestPolicy(5, Duration.ofMinutes(15)), "replica-b");
    record(10);
    assertThat(other.tick()).isPresent(); // b takes the lease and 10 events are due
    record(10);
    assertThat(signing.tick()).isEmpty(); // a does not hold the lease
    assertThat(other.tick()).isPresent();
    var digests = replica.audit().digests();
    assertThat(digests).hasSize(2);
    assertThat(digests.get(1).toSeq()).isEqualTo(replica.audit().head().seq());

    record(2);
    assertThat(other.tick()).isEmpty(); // 2 new events: not due
    clock.advance(Duration.ofMinutes(16));
    assertThat(other.tick()).isPresent(); // due by time
    assertThat(verifyAll().ok()).isTrue();
    assertThat(verifyAll().digestsChecked()).isEqualTo(3);
  }

  @Test
  @Order(3)
  void aDailyExportIsWrittenOnceAndVerifiesOffline() throws Exception {
    var dir = Files.createTempDirectory("audit-sink");
    try (var sink = JcloudsBlobSink.open(BlobSinkConfig.filesystem(dir.toString()))) {
      var exporter = new AuditExporter(sink, signer, clock, dir.resolve("tmp"));
      var exports = new AuditExports(replica.audit(), replica.log(), exporter, "filesystem", clock);
      var leases = new AuditLeases(db.jdbi(), clock);
      var daily = new DailyExports(exports, replica.audit(), leases, "replica-a", LEASE, clock);
      var day = clock.instant();
      clock.advance(Duration.ofDays(1));
      var name = daily.tick();
      assertThat(name).isEqualTo("daily-" + day.toString().substring(0, 10));
      assertThat(daily.tick()).isNull();
      var report = AuditVerifier.verify(sink, name, signer.keyId());
      assertThat(report.ok()).as(report.toText()).isTrue();
      assertThat(replica.audit().page(AuditQuery.ALL, 0, 1000))
          .extracting(e -> e.event().action())
          .contains(AuditActions.AUDIT_EXPORT);
    }
  }

  @Test
  @Order(4)
  void noDigestVouchesForAChainBrokenInTheDatabase() {
    record(10);
    var head = replica.audit().head().seq();
    db.jdbi()
        .useHandle(
            h ->
                h.execute("UPDATE audit_events SET resource = 'forged' WHERE seq = " + (head - 3)));
    var signing = signing(new DigestPolicy(1, Duration.ofMinutes(15)), "replica-a");
    clock.advance(Duration.ofMinutes(1));
    assertThat(signing.tick()).isEmpty();
    assertThat(replica.audit().lastDigest().orElseThrow().toSeq()).isLessThan(head);
  }

  private DigestSigning signing(DigestPolicy policy, String owner) {
    return new DigestSigning(
        replica.audit(), new AuditLeases(db.jdbi(), clock), signer, policy, owner, LEASE, clock);
  }

  private void record(int n) {
    for (int i = 0; i < n; i++) {
      replica
          .log()
          .record(
              AuditEntry.builder(
                      clock.instant(), AuditActor.system("test"), AuditActions.CONFIG_START, "t")
                  .details(Map.of("i", i))
                  .build());
    }
  }

  private long failures() {
    return replica.audit().page(AuditQuery.ALL, 0, 1000).stream()
        .filter(e -> e.event().action().equals(AuditActions.AUTH_FAILURE))
        .mapToLong(e -> e.event().details().get("count").asLong())
        .sum();
  }
}
