package io.trainyard.gateway.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.audit.BlobSinkConfig;
import io.trainyard.audit.JcloudsBlobSink;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogLine;
import io.trainyard.spi.LogQuery;
import io.trainyard.spi.LogStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The log archive on the filesystem blob store: whole blobs, queries, the size cap. */
class LogArchiveTest {
  private static final Instant T0 = Instant.parse("2026-01-05T10:00:00Z");
  private static final ExternalRef REF = new ExternalRef("k8s", "ty-j1-a1", Map.of());

  @TempDir Path dir;
  private JcloudsBlobSink sink;
  private final FakeBackend backend = new FakeBackend("k8s", "1");

  @BeforeEach
  void open() {
    sink = JcloudsBlobSink.open(BlobSinkConfig.filesystem(dir.toString()));
    backend.printed.put(
        "ty-j1-a1",
        List.of(
            new LogLine("master-0", T0, "loading data"),
            new LogLine("worker-0", T0.plusSeconds(1), "worker up"),
            new LogLine("master-0", T0.plusSeconds(2), "epoch 1 loss 0.9 — ünïcode")));
  }

  @AfterEach
  void close() {
    sink.close();
  }

  @Test
  void anAttemptIsArchivedWholeAndReadBackByReplicaAndTime() throws Exception {
    var archive = new LogArchive(sink, 1 << 20);
    assertThat(archive.has("j1", 1)).isFalse();
    var summary = archive.archive("j1", 1, backend, REF);
    assertThat(summary).isEqualTo(new LogArchive.Summary(3, 51, false));
    assertThat(archive.has("j1", 1)).isTrue();
    assertThat(archive.has("j1", 2)).isFalse();

    assertThat(read(archive, LogQuery.ALL))
        .containsExactly(
            "master-0 loading data", "worker-0 worker up", "master-0 epoch 1 loss 0.9 — ünïcode");
    assertThat(read(archive, new LogQuery("master-0", T0.plusSeconds(1), false)))
        .containsExactly("master-0 epoch 1 loss 0.9 — ünïcode");
    assertThat(archive.open("j1", 2, LogQuery.ALL)).isEmpty();
    // No temporary file is left behind.
    try (var files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
      assertThat(files.filter(f -> f.getFileName().toString().startsWith("trainyard-logs-")))
          .isEmpty();
    }
  }

  @Test
  void archivedLogsAreOwnerOnlyWhateverTheUmask() throws Exception {
    new LogArchive(sink, 1 << 20).archive("j1", 1, backend, REF);

    try (var paths = Files.walk(dir)) {
      var all = paths.toList();
      assertThat(all).anyMatch(Files::isRegularFile);
      for (var path : all) {
        assertThat(
                java.nio.file.attribute.PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(path)))
            .as(dir.relativize(path).toString())
            .isEqualTo(Files.isDirectory(path) ? "rwx------" : "rw-------");
      }
    }
  }

  @Test
  void pastTheCapTheArchiveEndsWithALineSayingSo() throws Exception {
    var archive = new LogArchive(sink, 25);
    var summary = archive.archive("j1", 1, backend, REF);
    assertThat(summary.truncated()).isTrue();
    assertThat(summary.lines()).isEqualTo(2);
    assertThat(read(archive, new LogQuery("worker-0", null, false)))
        .containsExactly(
            "worker-0 worker up", "trainyard archive truncated at 25 bytes of log text");
  }

  @Test
  void anAttemptWithoutLogsGetsAnEmptyArchive() throws Exception {
    var archive = new LogArchive(sink, 1 << 20);
    var none = new ExternalRef("k8s", "ty-j2-a1", Map.of());
    assertThat(archive.archive("j2", 1, backend, none))
        .isEqualTo(new LogArchive.Summary(0, 0, false));
    assertThat(read(archive, "j2", LogQuery.ALL)).isEmpty();
  }

  private static List<String> read(LogArchive archive, LogQuery query) throws Exception {
    return read(archive, "j1", query);
  }

  private static List<String> read(LogArchive archive, String job, LogQuery query)
      throws Exception {
    var lines = new ArrayList<String>();
    try (LogStream stream = archive.open(job, 1, query).orElseThrow()) {
      for (var line = stream.next(); line.isPresent(); line = stream.next()) {
        lines.add(line.get().replica() + " " + line.get().text());
      }
    }
    return lines;
  }
}
