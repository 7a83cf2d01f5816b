package io.trainyard.audit;

import static io.trainyard.audit.ExportFixture.indexOf;
import static io.trainyard.audit.ExportFixture.lines;
import static io.trainyard.audit.ExportFixture.tree;
import static io.trainyard.audit.ExportFixture.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every kind of tampering with an export is found, at the sequence number where it happened. The
 * chain has 200 events with digests ending at 50, 100, 150 and 200.
 */
class TamperingTest {
  @TempDir static Path base;
  static DigestSigner signer;
  static TestChain chain;
  static JcloudsBlobSink sink;
  static Path full;
  static Path filtered;

  @BeforeAll
  static void export() {
    signer = ExportFixture.newSigner();
    chain = new TestChain(signer, 200, 50);
    sink = JcloudsBlobSink.open(BlobSinkConfig.filesystem(base.resolve("sink").toString()));
    var exporter = new AuditExporter(sink, signer);
    exporter.export(new ExportRequest("full", 1, 200, null, ExportFormat.JSONL), chain);
    var nlp = new ExportFilter(null, Set.of("nlp"), null, null, null, null);
    exporter.export(new ExportRequest("filtered", 1, 200, nlp, ExportFormat.JSONL), chain);
    full = base.resolve("sink/audit/full");
    filtered = base.resolve("sink/audit/filtered");
  }

  @AfterAll
  static void close() {
    sink.close();
  }

  private static int copies;

  private static Path copyOf(Path export) {
    return ExportFixture.copy(export, base.resolve("copy-" + ++copies));
  }

  private static VerificationReport verify(Path dir) {
    return AuditVerifier.verify(dir, signer.keyId());
  }

  @Test
  void theUntouchedExportsVerify() {
    assertThat(verify(full).ok()).isTrue();
    assertThat(verify(filtered).ok()).isTrue();
  }

  @Test
  void anEditedFieldIsFoundAtItsEvent() {
    var dir = copyOf(full);
    var events = lines(dir.resolve("events.jsonl"));
    int i = indexOf(events, 37);
    events.set(i, events.get(i).replace("\"costUsd\":\"12.40\"", "\"costUsd\":\"1.24\""));
    write(dir.resolve("events.jsonl"), events);

    var report = verify(dir);
    assertThat(report.firstBadSeq()).hasValue(37);
    assertThat(report.firstProblem().orElseThrow().problem()).contains("was edited");
  }

  @Test
  void aLineRewrittenInAnotherSpellingOfTheSameEventVerifiesWithANote() {
    var dir = copyOf(full);
    var events = lines(dir.resolve("events.jsonl"));
    int i = indexOf(events, 42);
    // Jackson's own member order and spelling: not canonical, but the same event.
    events.set(i, ExportFixture.MAPPER.valueToTree(tree(events.get(i))).toPrettyString());
    events.set(i, events.get(i).replace("\n", ""));
    write(dir.resolve("events.jsonl"), events);

    var report = AuditVerifier.verify(dir, signer.keyId());
    assertThat(report.findings())
        .singleElement()
        .satisfies(f -> assertThat(f.problem()).contains("events.jsonl is not the file"));
    assertThat(report.notes())
        .anySatisfy(n -> assertThat(n).contains("1 record(s)", "first at seq 42", "canonical"));
  }

  @Test
  void aDeletedEventIsFoundAtItsSeq() {
    var dir = copyOf(full);
    var events = lines(dir.resolve("events.jsonl"));
    events.remove(indexOf(events, 80));
    write(dir.resolve("events.jsonl"), events);

    var report = verify(dir);
    assertThat(report.firstBadSeq()).hasValue(80);
    assertThat(report.firstProblem().orElseThrow().problem()).contains("seq 80 missing");
  }

  @Test
  void twoSwappedEventsAreFoundAtTheFirst() {
    var dir = copyOf(full);
    var events = lines(dir.resolve("events.jsonl"));
    Collections.swap(events, indexOf(events, 120), indexOf(events, 121));
    write(dir.resolve("events.jsonl"), events);

    var report = verify(dir);
    assertThat(report.firstBadSeq()).hasValue(120);
    assertThat(report.firstProblem().orElseThrow().problem()).contains("found seq 121");
  }

  @Test
  void aTruncatedTailIsFoundWhereItWasCut() {
    var dir = copyOf(full);
    var events = lines(dir.resolve("events.jsonl"));
    write(dir.resolve("events.jsonl"), events.subList(0, 180));

    var report = verify(dir);
    assertThat(report.firstBadSeq()).hasValue(181);
    assertThat(report.firstProblem().orElseThrow().problem()).contains("truncated");
  }

  @Test
  void anEditWithTheWholeChainRecomputedIsCaughtByTheDigest() {
    var dir = copyOf(full);
    var events = lines(dir.resolve("events.jsonl"));
    int i = indexOf(events, 60);
    var forger = AuditChain.resumeAfter(59, tree(events.get(i - 1)).get("hash").asText());
    var rewritten = new ArrayList<>(events.subList(0, i));
    for (var line : events.subList(i, events.size())) {
      var event =
          ChainedEvent.fromTree(
              tree(
                  line.replace(
                      "\"outcome\":\"success\"",
                      line.contains("\"seq\":60,")
                          ? "\"outcome\":\"denied\""
                          : "\"outcome\":\"success\"")));
      rewritten.add(CanonicalJson.text(forger.append(event.event()).toTree()));
    }
    write(dir.resolve("events.jsonl"), rewritten);

    var report = verify(dir);
    assertThat(report.firstBadSeq()).as(report.toText()).hasValue(51);
    assertThat(report.firstProblem().orElseThrow().problem())
        .contains("seq 51..100", "signed digest");
  }

  @Test
  void aForgedDigestIsFound() {
    var dir = copyOf(full);
    var digests = lines(dir.resolve("digests.jsonl"));
    var forged = tree(digests.get(1)).put("lastHash", "ee".repeat(32));
    digests.set(1, CanonicalJson.text(forged));
    write(dir.resolve("digests.jsonl"), digests);

    var report = verify(dir);
    assertThat(report.firstBadSeq()).hasValue(51);
    assertThat(report.firstProblem().orElseThrow().problem()).contains("signature does not verify");
  }

  @Test
  void aDigestSignedWithAnotherKeyIsFound() {
    var dir = copyOf(full);
    var digests = lines(dir.resolve("digests.jsonl"));
    var original = AuditDigest.fromTree(tree(digests.get(2)));
    var foreign =
        ExportFixture.newSigner()
            .sign(
                original.fromSeq(),
                original.toSeq(),
                original.lastHash(),
                original.previousDigestSignature(),
                original.time());
    digests.set(2, CanonicalJson.text(foreign.toTree()));
    write(dir.resolve("digests.jsonl"), digests);

    var report = verify(dir);
    assertThat(report.firstBadSeq()).hasValue(101);
    assertThat(report.firstProblem().orElseThrow().problem()).contains("another key");
  }

  @Test
  void aStubThatLiesIsFoundAtTheStub() {
    var dir = copyOf(filtered);
    var events = lines(dir.resolve("events.jsonl"));
    int i = 0;
    while (events.get(i).contains("\"team\"")) {
      i++;
    }
    var stub = tree(events.get(i));
    long seq = stub.get("seq").asLong();
    events.set(i, CanonicalJson.text(stub.put("eventHash", "00".repeat(32))));
    write(dir.resolve("events.jsonl"), events);

    var report = verify(dir);
    assertThat(report.firstBadSeq()).hasValue(seq);
    assertThat(report.firstProblem().orElseThrow().problem()).contains("stub lies");
  }

  @Test
  void anEventHiddenBehindAStubIsFoundWhenItsContentWasChanged() {
    var dir = copyOf(filtered);
    var events = lines(dir.resolve("events.jsonl"));
    int i = indexOf(events, 2);
    assertThat(events.get(i)).doesNotContain("\"team\"");
    var real = CanonicalJson.text(chain.events.get(1).toTree());
    events.set(i, real.replace("\"speech\"", "\"nlp\""));
    write(dir.resolve("events.jsonl"), events);

    assertThat(verify(dir).firstBadSeq()).hasValue(2);
  }

  @Test
  void anAlteredManifestIsFound() throws Exception {
    var dir = copyOf(full);
    var manifest = Files.readString(dir.resolve("manifest.json"));
    Files.writeString(
        dir.resolve("manifest.json"), manifest.replace("\"toSeq\" : 200", "\"toSeq\" : 180"));
    write(dir.resolve("events.jsonl"), lines(dir.resolve("events.jsonl")).subList(0, 180));

    var report = verify(dir);
    assertThat(report.ok()).isFalse();
    assertThat(report.findings())
        .anySatisfy(f -> assertThat(f.problem()).contains("manifest's signature does not verify"));
  }

  @Test
  void aWhollyReSignedExportPassesOnlyWithoutAPinnedKey() {
    var forger = ExportFixture.newSigner();
    var forgedChain = new TestChain(forger, 200, 50);
    new AuditExporter(sink, forger)
        .export(new ExportRequest("forged", 1, 200, null, ExportFormat.JSONL), forgedChain);
    var dir = base.resolve("sink/audit/forged");

    var unpinned = AuditVerifier.verify(dir);
    assertThat(unpinned.ok()).isTrue();
    assertThat(unpinned.notes()).anySatisfy(n -> assertThat(n).contains("compare that id"));
    var pinned = verify(dir);
    assertThat(pinned.ok()).isFalse();
    assertThat(pinned.firstProblem().orElseThrow().problem()).contains("not the trusted key");
  }

  @Test
  void aDeletedDigestBreaksTheDigestChain() {
    var dir = copyOf(full);
    var digests = lines(dir.resolve("digests.jsonl"));
    digests.remove(1);
    write(dir.resolve("digests.jsonl"), digests);

    var report = verify(dir);
    assertThat(report.firstBadSeq()).hasValue(101);
    assertThat(report.firstProblem().orElseThrow().problem()).contains("does not follow");
  }
}
