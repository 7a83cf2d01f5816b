package io.trainyard.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.testkit.MotoServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Exports to S3 through jclouds' {@code aws-s3} provider against moto, downloads the export and
 * verifies it offline; then tampers with the stored object and verifies in place.
 */
@ExtendWith(MotoServer.class)
class S3ExportIT {
  @Test
  void anExportToS3VerifiesAfterDownloadAndTamperingIsFoundInPlace(@TempDir Path dir)
      throws Exception {
    var signer = ExportFixture.newSigner();
    var chain = new TestChain(signer, 300, 100);
    var config =
        new BlobSinkConfig(
            "aws-s3",
            "trainyard-audit-it",
            "exports/daily",
            MotoServer.endpoint(),
            "test",
            "test",
            null);
    try (var sink = JcloudsBlobSink.open(config)) {
      var result =
          new AuditExporter(sink, signer)
              .export(new ExportRequest("2026-11-30", 1, 300, null, ExportFormat.JSONL), chain);
      assertThat(result.checkedAtExport().ok()).isTrue();
      assertThat(sink.list("2026-11-30/"))
          .containsExactly(
              "2026-11-30/digests.jsonl",
              "2026-11-30/events.jsonl",
              "2026-11-30/manifest.json",
              "2026-11-30/public-key.pem");

      sink.download("2026-11-30/", dir);
      var report = AuditVerifier.verify(dir, signer.keyId());
      assertThat(report.ok()).as(report.toText()).isTrue();
      assertThat(report.eventsChecked()).isEqualTo(300);
      assertThat(report.digestsChecked()).isEqualTo(3);
      assertThat(AuditVerifier.verify(sink, "2026-11-30", signer.keyId()).ok()).isTrue();

      var events = ExportFixture.lines(dir.resolve("events.jsonl"));
      events.set(241, events.get(241).replace("\"job.", "\"jobs."));
      sink.put(
          "2026-11-30/events.jsonl",
          (String.join("\n", events) + "\n").getBytes(StandardCharsets.UTF_8));
      var tampered = AuditVerifier.verify(sink, "2026-11-30", signer.keyId());
      assertThat(tampered.firstBadSeq()).hasValue(242);
    }
  }

  @Test
  void theSinkPrefixesNamesAndStreamsLogs() throws Exception {
    var config =
        new BlobSinkConfig(
            "aws-s3", "trainyard-logs-it", "/logs/", MotoServer.endpoint(), "test", "test", null);
    try (var sink = JcloudsBlobSink.open(config)) {
      byte[] log = "epoch 1 loss 0.3\n".repeat(1000).getBytes(StandardCharsets.UTF_8);
      sink.put("job-1/master-0.log", new java.io.ByteArrayInputStream(log), log.length);
      assertThat(sink.exists("job-1/master-0.log")).isTrue();
      assertThat(sink.exists("job-1/missing.log")).isFalse();
      try (var in = sink.open("job-1/master-0.log")) {
        assertThat(in.readAllBytes()).isEqualTo(log);
      }
      assertThat(sink.list("job-1/")).containsExactly("job-1/master-0.log");
    }
  }
}
