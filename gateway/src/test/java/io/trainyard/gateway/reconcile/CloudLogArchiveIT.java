package io.trainyard.gateway.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.audit.AzuriteServer;
import io.trainyard.audit.BlobSinkConfig;
import io.trainyard.audit.FakeGcsServer;
import io.trainyard.audit.JcloudsBlobSink;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogLine;
import io.trainyard.spi.LogQuery;
import io.trainyard.spi.LogStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The log archive on the cloud blob sinks: an ended attempt's logs archived through {@code
 * azureblob} (Azurite) and {@code google-cloud-storage} (the audit module's GCS stub), read back by
 * replica and time, and archived again over the first copy.
 */
@ExtendWith(AzuriteServer.class)
class CloudLogArchiveIT {
  private static final Instant T0 = Instant.parse("2026-01-05T10:00:00Z");
  private static final ExternalRef REF = new ExternalRef("k8s", "ty-j1-a1", Map.of());

  private static FakeGcsServer gcs;

  @BeforeAll
  static void start() {
    gcs = new FakeGcsServer();
  }

  @AfterAll
  static void stop() {
    gcs.close();
  }

  @Test
  void anAttemptIsArchivedOnAzureBlobAndReadBack(AzuriteServer azurite) throws Exception {
    archiveAndReadBack(
        new BlobSinkConfig(
            "azureblob",
            "log-archive",
            "trainyard",
            azurite.endpoint(),
            AzuriteServer.ACCOUNT,
            AzuriteServer.KEY,
            null));
  }

  @Test
  void anAttemptIsArchivedOnGoogleCloudStorageAndReadBack() throws Exception {
    archiveAndReadBack(
        new BlobSinkConfig(
            "google-cloud-storage",
            "log-archive",
            "trainyard",
            gcs.endpoint(),
            null,
            gcs.keyJson(),
            null));
  }

  private static void archiveAndReadBack(BlobSinkConfig config) throws Exception {
    var backend = new FakeBackend("k8s", "1");
    var printed = new ArrayList<LogLine>();
    printed.add(new LogLine("master-0", T0, "loading data"));
    printed.add(new LogLine("worker-0", T0.plusSeconds(1), "worker up"));
    for (int i = 0; i < 3000; i++) {
      printed.add(new LogLine("master-0", T0.plusSeconds(2 + i), "epoch " + i + " loss ünïcode"));
    }
    backend.printed.put("ty-j1-a1", printed);

    try (var sink = JcloudsBlobSink.open(config)) {
      var archive = new LogArchive(sink, 1 << 20);
      assertThat(archive.has("j1", 1)).isFalse();
      var summary = archive.archive("j1", 1, backend, REF);
      assertThat(summary.lines()).isEqualTo(3002);
      assertThat(summary.truncated()).isFalse();
      assertThat(archive.has("j1", 1)).isTrue();
      assertThat(archive.has("j1", 2)).isFalse();
      assertThat(archive.open("j1", 2, LogQuery.ALL)).isEmpty();

      var all = read(archive, LogQuery.ALL);
      assertThat(all).hasSize(3002);
      assertThat(all.get(0)).isEqualTo("master-0 loading data");
      assertThat(all.get(3001)).isEqualTo("master-0 epoch 2999 loss ünïcode");
      assertThat(read(archive, new LogQuery("worker-0", null, false)))
          .containsExactly("worker-0 worker up");
      assertThat(read(archive, new LogQuery("master-0", T0.plusSeconds(3000), false)))
          .containsExactly("master-0 epoch 2998 loss ünïcode", "master-0 epoch 2999 loss ünïcode");

      // Archiving the attempt again (a replica retrying) replaces the blob with a whole copy.
      printed.add(new LogLine("worker-0", T0.plusSeconds(4000), "late line"));
      archive.archive("j1", 1, backend, REF);
      assertThat(read(archive, LogQuery.ALL)).hasSize(3003).endsWith("worker-0 late line");
      assertThat(sink.list("jobs/")).containsExactly("jobs/j1/attempt-1.jsonl.gz");
    }
  }

  private static List<String> read(LogArchive archive, LogQuery query) throws Exception {
    var lines = new ArrayList<String>();
    try (LogStream stream = archive.open("j1", 1, query).orElseThrow()) {
      for (var line = stream.next(); line.isPresent(); line = stream.next()) {
        lines.add(line.get().replica() + " " + line.get().text());
      }
    }
    return lines;
  }
}
