package io.trainyard.gateway.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.trainyard.audit.AuditActor;
import io.trainyard.gateway.db.DatabaseMigrator;
import io.trainyard.gateway.db.JobAudit;
import io.trainyard.gateway.db.JobEvent;
import io.trainyard.gateway.db.JobIds;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.db.JobStore;
import io.trainyard.gateway.db.StaleAttempts;
import io.trainyard.gateway.testing.H2Extension;
import io.trainyard.gateway.testing.TestDatabase;
import io.trainyard.spi.JobState;
import io.trainyard.testkit.MutableClock;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Job changes are counted once their transaction commits, and not at all when it rolls back. */
@ExtendWith(H2Extension.class)
class JobMetricsH2Test {
  private static final AuditActor ACTOR = null;

  @Test
  void aSubmissionIsCountedAfterCommitAndNotWhenItsTransactionRollsBack(TestDatabase db)
      throws IOException {
    new DatabaseMigrator().migrate(db.jdbi());
    var clock = new MutableClock(Instant.parse("2030-01-02T03:04:05Z"));
    var metrics = new GatewayMetrics();
    var failing = new FailingAudit();
    var store = new JobStore(db.jdbi(), clock, metrics.observing(failing));

    var first = job("nlp", "a", clock.instant());
    store.insert(first, JobEvent.of(first.id(), first.createdAt(), JobEvent.SUBMITTED, "ok"), null);
    failing.fail = true;
    var second = job("nlp", "b", clock.instant());
    assertThatThrownBy(
            () ->
                store.insert(
                    second,
                    JobEvent.of(second.id(), second.createdAt(), JobEvent.SUBMITTED, "ok"),
                    null))
        .hasMessageContaining("audit down");

    assertThat(store.find(second.id())).isEmpty();
    var scrape = PrometheusText.parse(text(metrics));
    assertThat(
            scrape.value(
                "trainyard_jobs_submitted_total", Map.of("team", "nlp", "backend", "local")))
        .contains(1.0);
  }

  private static String text(GatewayMetrics metrics) throws IOException {
    var out = new ByteArrayOutputStream();
    PrometheusTextFormatWriter.create().write(out, metrics.registry().scrape());
    return out.toString(StandardCharsets.UTF_8);
  }

  private static JobRow job(String team, String name, Instant at) {
    return JobRow.builder()
        .id(JobIds.newId())
        .team(team)
        .ownerSubject("subject-alice")
        .ownerUsername("alice")
        .name(name)
        .state(JobState.PENDING)
        .attempt(1)
        .specJson("{\"metadata\":{\"name\":\"" + name + "\"}}")
        .specHash("a".repeat(64))
        .decisionJson("{\"offers\":[]}")
        .offerIndex(0)
        .backendId("local")
        .hourlyUsd(new BigDecimal("1.25"))
        .estimatedUsd(new BigDecimal("2.5"))
        .createdAt(at)
        .build();
  }

  /** An audit trail that can refuse to write, as a full disk or a broken chain would. */
  private static final class FailingAudit implements JobAudit {
    volatile boolean fail;

    @Override
    public void submitted(Handle h, JobRow stored, AuditActor actor) {
      if (fail) {
        throw new IllegalStateException("audit down");
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
