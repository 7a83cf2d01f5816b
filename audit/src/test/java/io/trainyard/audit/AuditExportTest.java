package io.trainyard.audit;

import static io.trainyard.audit.ExportFixture.lines;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Exports to the file system through jclouds' filesystem provider, verified offline. */
class AuditExportTest {
  @TempDir static Path base;
  static DigestSigner signer;
  static TestChain chain;
  static JcloudsBlobSink sink;
  static AuditExporter exporter;

  @BeforeAll
  static void export() {
    signer = ExportFixture.newSigner();
    chain = new TestChain(signer, 200, 50);
    sink = JcloudsBlobSink.open(BlobSinkConfig.filesystem(base.resolve("sink").toString()));
    exporter = new AuditExporter(sink, signer);
  }

  @AfterAll
  static void close() {
    sink.close();
  }

  static Path dir(String name) {
    return base.resolve("sink").resolve("audit").resolve(name);
  }

  @Test
  void aFullExportVerifies() {
    var result =
        exporter.export(new ExportRequest("full", 1, 200, null, ExportFormat.JSONL), chain);
    assertThat(result.checkedAtExport().ok()).isTrue();
    assertThat(result.blobNames())
        .containsExactly(
            "full/events.jsonl", "full/digests.jsonl", "full/public-key.pem", "full/manifest.json");
    assertThat(result.manifest().lastHash()).isEqualTo(chain.events.get(199).hash());

    var report = AuditVerifier.verify(dir("full"), signer.keyId());
    assertThat(report.ok()).as(report.toText()).isTrue();
    assertThat(report.eventsChecked()).isEqualTo(200);
    assertThat(report.digestsChecked()).isEqualTo(4);
    assertThat(report.notes()).isEmpty();
    assertThat(AuditVerifier.verify(dir("full")).notes())
        .anySatisfy(n -> assertThat(n).contains(signer.keyId()));
  }

  @Test
  void aFilteredExportKeepsStubsAndStillVerifies() {
    var filter = new ExportFilter(null, Set.of("nlp"), Set.of("job.*"), null, null, null);
    var result =
        exporter.export(new ExportRequest("nlp", 30, 170, filter, ExportFormat.JSONL), chain);
    var manifest = result.manifest();
    assertThat(manifest.records()).isEqualTo(141);
    assertThat(manifest.matched()).isBetween(40L, 50L);
    assertThat(manifest.digests()).extracting(AuditDigest::toSeq).containsExactly(50L, 100L, 150L);
    assertThat(manifest.previousHash()).isEqualTo(chain.hashAt(29));

    var events = lines(dir("nlp").resolve("events.jsonl"));
    assertThat(events).hasSize(141);
    var stub = events.stream().filter(l -> !l.contains("\"team\"")).findFirst().orElseThrow();
    assertThat(stub)
        .matches("\\{\"eventHash\":\"[0-9a-f]{64}\",\"hash\":\"[0-9a-f]{64}\",\"seq\":\\d+}");
    assertThat(events).filteredOn(l -> l.contains("\"team\"")).allMatch(l -> l.contains("\"nlp\""));

    var report = AuditVerifier.verify(dir("nlp"), signer.keyId());
    assertThat(report.ok()).as(report.toText()).isTrue();
    assertThat(report.eventsChecked()).isEqualTo(manifest.matched());
    assertThat(report.stubsChecked()).isEqualTo(141 - manifest.matched());
  }

  @Test
  void aCsvExportIsForPeopleAndSaysItCannotBeVerified() throws Exception {
    var filter = new ExportFilter(Set.of("alice1"), null, null, null, null, null);
    exporter.export(new ExportRequest("people", 1, 200, filter, ExportFormat.CSV), chain);
    var csv = lines(dir("people").resolve("events.csv"));
    assertThat(csv.get(0)).startsWith("seq,time,action,outcome,resource,team,backend,subject");
    assertThat(csv).hasSize(1 + 40);
    assertThat(csv.get(1)).contains("alice1", "\"{\"\"costUsd\"\":\"\"12.40\"\"");

    var report = AuditVerifier.verify(dir("people"), signer.keyId());
    assertThat(report.ok()).isFalse();
    assertThat(report.findings())
        .singleElement()
        .satisfies(f -> assertThat(f.problem()).contains("CSV"));
  }

  @Test
  void csvCellsCannotRunAsFormulas() {
    assertThat(CsvEventWriter.cell("=HYPERLINK(\"x\")")).isEqualTo("\"'=HYPERLINK(\"\"x\"\")\"");
    assertThat(CsvEventWriter.cell("@SUM(A1)")).isEqualTo("'@SUM(A1)");
    assertThat(CsvEventWriter.cell("plain")).isEqualTo("plain");
    assertThat(CsvEventWriter.cell(null)).isEmpty();
  }

  @Test
  void anExportCanBeVerifiedInPlaceInTheSink() {
    exporter.export(new ExportRequest("inplace", 1, 120, null, ExportFormat.JSONL), chain);
    var report = AuditVerifier.verify(sink, "inplace", signer.keyId());
    assertThat(report.ok()).as(report.toText()).isTrue();
    assertThat(report.digestsChecked()).isEqualTo(2);
    assertThat(sink.list("inplace/")).hasSize(4);
  }

  @Test
  void theCommandExitsZeroOnlyWhenAllHolds() throws Exception {
    exporter.export(new ExportRequest("cli", 1, 200, null, ExportFormat.JSONL), chain);
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    String[] args = {dir("cli").toString(), "--key-id", signer.keyId()};
    assertThat(VerifyCommand.run(args, print(out), print(err))).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8))
        .startsWith("OK\n")
        .contains("events checked: 200");

    var bad = ExportFixture.copy(dir("cli"), base.resolve("cli-bad"));
    var events = lines(bad.resolve("events.jsonl"));
    events.set(9, events.get(9).replace("\"outcome\":\"success\"", "\"outcome\":\"denied\""));
    ExportFixture.write(bad.resolve("events.jsonl"), events);
    out.reset();
    assertThat(VerifyCommand.run(new String[] {bad.toString()}, print(out), print(err)))
        .isEqualTo(1);
    assertThat(out.toString(StandardCharsets.UTF_8))
        .startsWith("FAILED\n")
        .contains("first bad seq: 10");

    var pub = base.resolve("trusted.pem");
    Files.writeString(pub, ExportFixture.newSigner().publicKeyPem());
    assertThat(
            VerifyCommand.run(
                new String[] {dir("cli").toString(), "--public-key", pub.toString()},
                print(out),
                print(err)))
        .isEqualTo(1);
    assertThat(VerifyCommand.run(new String[] {}, print(out), print(err))).isEqualTo(2);
    assertThat(
            VerifyCommand.run(
                new String[] {base.resolve("nope").toString()}, print(out), print(err)))
        .isEqualTo(2);
  }

  @Test
  void refusesRangesItCannotServe() {
    assertThatThrownBy(() -> new ExportRequest("x", 10, 5, null, ExportFormat.JSONL))
        .isInstanceOf(AuditException.class);
    assertThatThrownBy(() -> new ExportRequest("../up", 1, 5, null, ExportFormat.JSONL))
        .isInstanceOf(AuditException.class);
    assertThatThrownBy(
            () ->
                exporter.export(
                    new ExportRequest("short", 190, 210, null, ExportFormat.JSONL), chain))
        .isInstanceOfSatisfying(
            AuditException.class,
            e -> assertThat(e.code()).isEqualTo(AuditErrorCode.SOURCE_INCONSISTENT));
  }

  @Test
  void aDirectoryWithoutAManifestIsNotAnExport() throws Exception {
    Files.createDirectories(base.resolve("empty"));
    var report = AuditVerifier.verify(base.resolve("empty"));
    assertThat(report.ok()).isFalse();
    assertThat(report.firstProblem().orElseThrow().problem()).contains("manifest.json is missing");
  }

  private static PrintStream print(ByteArrayOutputStream out) {
    return new PrintStream(out, true, StandardCharsets.UTF_8);
  }
}
