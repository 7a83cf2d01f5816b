package io.trainyard.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every cloud blob sink must do, checked through the real jclouds provider against a server
 * that speaks the store's protocol: exports land byte for byte as on the local file system and
 * verify, an attempt's log archive goes in and comes out whole, {@code put} replaces, a missing
 * container is created on open and a missing blob is {@link AuditErrorCode#BLOB_NOT_FOUND}, and
 * credentials the store turns down are {@link AuditErrorCode#SINK_ACCESS_DENIED} with no secret in
 * the message.
 */
abstract class BlobSinkContract {
  private static final AtomicInteger CONTAINERS = new AtomicInteger();
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-12-01T00:00:05Z"), ZoneOffset.UTC);

  private static DigestSigner signer;
  private static TestChain chain;

  /** The sink's config for {@code container} (created by the test if missing) and prefix. */
  abstract BlobSinkConfig config(String container, String prefix);

  /** {@code config} with credentials the store refuses. */
  abstract BlobSinkConfig withWrongCredentials(BlobSinkConfig config);

  /** Text that must not appear in any error message: the secret halves of both credentials. */
  abstract Stream<String> secrets();

  @BeforeAll
  static void chain() {
    signer = ExportFixture.newSigner();
    chain = new TestChain(signer, 300, 100);
  }

  /** A container name no other test used, valid on S3, GCS and Azure. */
  static String newContainer(String purpose) {
    return "ty-" + purpose + "-" + CONTAINERS.incrementAndGet();
  }

  @Test
  void aJsonLinesExportIsStoredByteForByteAndVerifiesInPlace(@TempDir Path dir) throws Exception {
    var request = new ExportRequest("2026-11-30", 1, 300, null, ExportFormat.JSONL);
    var local = exportLocally(request, dir.resolve("local"));

    try (var sink = JcloudsBlobSink.open(config(newContainer("export"), "exports/daily"))) {
      var result = new AuditExporter(sink, signer, CLOCK, dir).export(request, chain);
      assertThat(result.checkedAtExport().ok()).isTrue();
      assertThat(sink.list("2026-11-30/"))
          .containsExactly(
              "2026-11-30/digests.jsonl",
              "2026-11-30/events.jsonl",
              "2026-11-30/manifest.json",
              "2026-11-30/public-key.pem");

      var downloaded = dir.resolve("downloaded");
      sink.download("2026-11-30/", downloaded);
      assertSameFiles(local, downloaded);
      var manifest = ExportFixture.tree(Files.readString(downloaded.resolve("manifest.json")));
      assertThat(manifest.path("files").path("events.jsonl").asText())
          .isEqualTo(sha256(downloaded.resolve("events.jsonl")));

      var report = AuditVerifier.verify(downloaded, signer.keyId());
      assertThat(report.ok()).as(report.toText()).isTrue();
      assertThat(report.eventsChecked()).isEqualTo(300);
      assertThat(report.digestsChecked()).isEqualTo(3);
      assertThat(AuditVerifier.verify(sink, "2026-11-30", signer.keyId()).ok()).isTrue();

      var events = ExportFixture.lines(downloaded.resolve("events.jsonl"));
      events.set(241, events.get(241).replace("\"job.", "\"jobs."));
      sink.put(
          "2026-11-30/events.jsonl",
          (String.join("\n", events) + "\n").getBytes(StandardCharsets.UTF_8));
      assertThat(AuditVerifier.verify(sink, "2026-11-30", signer.keyId()).firstBadSeq())
          .hasValue(242);
    }
  }

  @Test
  void aCsvExportIsStoredByteForByteUnderItsSignedManifest(@TempDir Path dir) throws Exception {
    var filter = new ExportFilter(java.util.Set.of("alice1"), null, null, null, null, null);
    var request = new ExportRequest("people", 1, 200, filter, ExportFormat.CSV);
    var local = exportLocally(request, dir.resolve("local"));

    try (var sink = JcloudsBlobSink.open(config(newContainer("csv"), ""))) {
      new AuditExporter(sink, signer, CLOCK, dir).export(request, chain);
      var downloaded = dir.resolve("downloaded");
      sink.download("people/", downloaded);
      assertSameFiles(local, downloaded);
      var manifest = ExportFixture.tree(Files.readString(downloaded.resolve("manifest.json")));
      assertThat(manifest.path("files").path("events.csv").asText())
          .isEqualTo(sha256(downloaded.resolve("events.csv")));
      // As on the file system: the manifest's signature holds, and CSV is said to be for people.
      var report = AuditVerifier.verify(sink, "people", signer.keyId());
      assertThat(report.findings())
          .singleElement()
          .satisfies(f -> assertThat(f.problem()).contains("CSV"));
    }
  }

  @Test
  void anAttemptsLogArchiveIsWrittenFromAFileAndReadBackWhole(@TempDir Path dir) throws Exception {
    // As LogArchive does: gzip'd JSON Lines in a local file, put whole under the job's name.
    var lines = new StringBuilder();
    for (int i = 0; i < 2000; i++) {
      lines.append("{\"replica\":\"master-0\",\"at\":\"2026-12-01T10:00:00Z\",\"text\":\"epoch ");
      lines.append(i).append(" loss 0.").append(i % 97).append(" ünïcode\"}\n");
    }
    var file = dir.resolve("attempt.jsonl.gz");
    try (var out = new GZIPOutputStream(Files.newOutputStream(file))) {
      out.write(lines.toString().getBytes(StandardCharsets.UTF_8));
    }

    try (var sink = JcloudsBlobSink.open(config(newContainer("logs"), "/log-archive/"))) {
      assertThat(sink.exists("jobs/j1/attempt-1.jsonl.gz")).isFalse();
      sink.put("jobs/j1/attempt-1.jsonl.gz", file);
      assertThat(sink.exists("jobs/j1/attempt-1.jsonl.gz")).isTrue();
      assertThat(sink.exists("jobs/j1/attempt-2.jsonl.gz")).isFalse();
      try (var in = new GZIPInputStream(sink.open("jobs/j1/attempt-1.jsonl.gz"))) {
        assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
            .isEqualTo(lines.toString());
      }

      // A log streamed with its length, as a backend's log is.
      byte[] streamed = gzip("step 1\nstep 2\n");
      sink.put("jobs/j1/attempt-2.jsonl.gz", new ByteArrayInputStream(streamed), streamed.length);
      try (var in = sink.open("jobs/j1/attempt-2.jsonl.gz")) {
        assertThat(in.readAllBytes()).isEqualTo(streamed);
      }
      assertThat(sink.list("jobs/j1/"))
          .containsExactly("jobs/j1/attempt-1.jsonl.gz", "jobs/j1/attempt-2.jsonl.gz");
    }
  }

  @Test
  void putReplacesTheBlobAndRepeatingAnExportLeavesTheSameBytes(@TempDir Path dir)
      throws Exception {
    var container = newContainer("overwrite");
    try (var sink = JcloudsBlobSink.open(config(container, "p"))) {
      sink.put("a/b.txt", "a longer first version\n".getBytes(StandardCharsets.UTF_8));
      sink.put("a/b.txt", "second\n".getBytes(StandardCharsets.UTF_8));
      try (var in = sink.open("a/b.txt")) {
        assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("second\n");
      }
      assertThat(sink.list("a/")).containsExactly("a/b.txt");

      var request = new ExportRequest("again", 1, 120, null, ExportFormat.JSONL);
      var exporter = new AuditExporter(sink, signer, CLOCK, dir);
      exporter.export(request, chain);
      sink.download("again/", dir.resolve("first"));
      exporter.export(request, chain);
      sink.download("again/", dir.resolve("second"));
      assertSameFiles(dir.resolve("first"), dir.resolve("second"));
      assertThat(sink.list("again/")).hasSize(4);
    }
    // Opening on the container that now exists is as good as creating it.
    try (var sink = JcloudsBlobSink.open(config(container, "p"))) {
      assertThat(sink.list("a/")).containsExactly("a/b.txt");
    }
  }

  @Test
  void aMissingContainerIsCreatedOnOpenAndAMissingBlobIsNotFound() {
    try (var sink = JcloudsBlobSink.open(config(newContainer("fresh"), ""))) {
      assertThat(sink.list("")).isEmpty();
      assertThat(sink.exists("nothing/here")).isFalse();
      assertThatThrownBy(() -> sink.open("nothing/here"))
          .isInstanceOfSatisfying(
              AuditException.class,
              e -> assertThat(e.code()).isEqualTo(AuditErrorCode.BLOB_NOT_FOUND));
      sink.put("now/here", new byte[] {1, 2, 3});
      assertThat(sink.list("")).containsExactly("now/here");
    }
  }

  @Test
  void credentialsTheStoreRefusesAreATypedErrorThatNamesNoSecret() {
    var config = withWrongCredentials(config(newContainer("denied"), ""));
    assertThatThrownBy(() -> JcloudsBlobSink.open(config))
        .isInstanceOfSatisfying(
            AuditException.class,
            e -> {
              assertThat(e.code()).isEqualTo(AuditErrorCode.SINK_ACCESS_DENIED);
              assertThat(e.getMessage()).contains(config.provider(), "denied", config.container());
              for (Throwable t = e; t != null; t = t.getCause()) {
                var message = String.valueOf(t.getMessage());
                secrets().forEach(secret -> assertThat(message).doesNotContain(secret));
              }
            });
  }

  private static Path exportLocally(ExportRequest request, Path dir) {
    var config = new BlobSinkConfig("filesystem", "local", "", null, null, null, dir.toString());
    try (var sink = JcloudsBlobSink.open(config)) {
      new AuditExporter(sink, signer, CLOCK, dir).export(request, chain);
    }
    return dir.resolve("local").resolve(request.name());
  }

  private static void assertSameFiles(Path expected, Path actual) throws IOException {
    try (var files = Files.list(expected)) {
      var names = files.map(f -> f.getFileName().toString()).sorted().toList();
      try (var others = Files.list(actual)) {
        assertThat(others.map(f -> f.getFileName().toString()).sorted().toList()).isEqualTo(names);
      }
      for (var name : names) {
        assertThat(Files.readAllBytes(actual.resolve(name)))
            .as(name)
            .isEqualTo(Files.readAllBytes(expected.resolve(name)));
      }
    }
  }

  private static String sha256(Path file) {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] gzip(String text) throws IOException {
    var bytes = new ByteArrayOutputStream();
    try (var out = new GZIPOutputStream(bytes)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
    return bytes.toByteArray();
  }
}
