package io.trainyard.gateway.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.audit.BlobSinkConfig;
import io.trainyard.audit.JcloudsBlobSink;
import io.trainyard.gateway.db.DatabaseMigrator;
import io.trainyard.gateway.db.MetricStore;
import io.trainyard.gateway.metrics.LogMetrics;
import io.trainyard.gateway.metrics.MetricPoint;
import io.trainyard.gateway.testing.H2Extension;
import io.trainyard.gateway.testing.TestDatabase;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogLine;
import io.trainyard.spi.LogQuery;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Archiving an ended attempt's logs stores their metric lines, and a line already read while the
 * logs were followed is stored once.
 */
@ExtendWith(H2Extension.class)
class LogArchiveMetricsH2Test {
  private static final Instant T0 = Instant.parse("2026-01-05T10:00:00Z");
  private static final ExternalRef REF = new ExternalRef("k8s", "ty-j1-a1", Map.of());

  @TempDir Path dir;

  @Test
  void archivedMetricLinesAreStoredOnceAlongsideFollowedOnes(TestDatabase db) throws Exception {
    new DatabaseMigrator().migrate(db.jdbi());
    var store = new MetricStore(db.jdbi());
    var metrics = new LogMetrics(store, Clock.fixed(T0, ZoneOffset.UTC));
    var backend = new FakeBackend("k8s", "1");
    backend.printed.put(
        "ty-j1-a1",
        List.of(
            new LogLine("master-0", T0, "trainyard-metric name=loss value=0.9 step=1 epoch=1"),
            new LogLine("worker-0", T0.plusSeconds(1), "worker up"),
            new LogLine(
                "master-0",
                T0.plusSeconds(2),
                "trainyard-metric name=loss value=0.5 step=2 epoch=2"),
            new LogLine("master-0", null, "trainyard-metric name=accuracy value=0.8 epoch=2")));
    // Someone followed the job's logs while it ran and read its first line (JobLogs does this).
    metrics.line("j1", "trainyard-metric name=loss value=0.9 step=1 epoch=1", T0);

    try (var sink = JcloudsBlobSink.open(BlobSinkConfig.filesystem(dir.toString()))) {
      var archive = new LogArchive(sink, 1 << 20, metrics);
      archive.archive("j1", 1, backend, REF);
      // Reading the archive back (JobLogs) parses the same lines again: nothing new.
      try (var lines = archive.open("j1", 1, LogQuery.ALL).orElseThrow()) {
        for (var line = lines.next(); line.isPresent(); line = lines.next()) {
          metrics.line("j1", line.get().text(), line.get().at());
        }
      }
    }

    assertThat(store.points("j1", null))
        .containsExactly(
            new MetricPoint("accuracy", 0.8, null, 2L, T0),
            new MetricPoint("loss", 0.9, 1L, 1L, T0),
            new MetricPoint("loss", 0.5, 2L, 2L, T0.plusSeconds(2)));
  }
}
