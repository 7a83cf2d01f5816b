package io.trainyard.audit;

import static io.trainyard.audit.ExportFixture.lines;
import static io.trainyard.audit.ExportFixture.tree;
import static io.trainyard.audit.ExportFixture.write;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An export whose range spans a rotation of the digest signing key: 200 events, digests ending at
 * 50 and 100 signed with the old key, at 150 and 200 with the new one, which also signs the
 * manifest.
 */
class KeyRotationTest {
  @TempDir static Path base;
  static DigestSigner oldKey;
  static DigestSigner newKey;
  static TestChain chain;
  static JcloudsBlobSink sink;
  static ExportResult exported;
  static Path rotated;

  @BeforeAll
  static void export() {
    oldKey = ExportFixture.newSigner();
    newKey = ExportFixture.newSigner();
    chain = new TestChain(oldKey, 200, 1_000); // events only; digests signed below
    for (long end = 50; end <= 200; end += 50) {
      chain.sign(end, end <= 100 ? oldKey : newKey);
    }
    sink = JcloudsBlobSink.open(BlobSinkConfig.filesystem(base.resolve("sink").toString()));
    var previous = DigestKeyRing.of(oldKey.verifier());
    exported =
        new AuditExporter(sink, newKey, previous, Clock.systemUTC(), base.resolve("tmp"))
            .export(new ExportRequest("rotated", 1, 200, null, ExportFormat.JSONL), chain);
    rotated = base.resolve("sink/audit/rotated");
  }

  @AfterAll
  static void close() {
    sink.close();
  }

  private static int copies;

  private static Path copyOf(Path export) {
    return ExportFixture.copy(export, base.resolve("copy-" + ++copies));
  }

  @Test
  void theExportCarriesEveryKeyItsDigestsNeedAndVerifiesWithBothTrusted() throws Exception {
    assertThat(exported.checkedAtExport().ok()).as(exported.checkedAtExport().toText()).isTrue();
    assertThat(exported.blobNames()).contains("rotated/" + AuditExporter.DIGEST_KEYS_FILE);
    assertThat(exported.manifest().files()).containsKey(AuditExporter.DIGEST_KEYS_FILE);
    var carried =
        DigestKeyRing.fromPem(Files.readString(rotated.resolve(AuditExporter.DIGEST_KEYS_FILE)));
    assertThat(carried.keyIds()).containsExactlyInAnyOrder(oldKey.keyId(), newKey.keyId());

    var report = AuditVerifier.verify(rotated, List.of(oldKey.keyId(), newKey.keyId()));
    assertThat(report.ok()).as(report.toText()).isTrue();
    assertThat(report.digestsChecked()).isEqualTo(4);
    assertThat(report.keyId()).isEqualTo(newKey.keyId());
    assertThat(report.digestKeyIds()).containsExactlyInAnyOrder(oldKey.keyId(), newKey.keyId());
    assertThat(report.toText()).contains("digest key ids: ");
    assertThat(report.notes()).isEmpty();
  }

  @Test
  void withOnlyTheNewKeyTrustedTheOldDigestsAreRefusedAtTheirSeq() {
    var report = AuditVerifier.verify(rotated, newKey.keyId());
    assertThat(report.ok()).isFalse();
    assertThat(report.firstBadSeq()).hasValue(1);
    assertThat(report.firstProblem().orElseThrow().problem())
        .contains("digest of seq 1..50", oldKey.keyId(), "not a trusted key");
    assertThat(report.findings())
        .extracting(Finding::seq)
        .containsExactly(1L, 51L); // the two old-key digests, nothing else
  }

  @Test
  void withOnlyTheOldKeyTrustedNothingCanBeTrusted() {
    var report = AuditVerifier.verify(rotated, oldKey.keyId());
    assertThat(report.ok()).isFalse();
    assertThat(report.firstProblem().orElseThrow().problem()).contains("not the trusted key");
  }

  @Test
  void unpinnedItVerifiesAndSaysWhichKeysItTookFromTheExport() {
    var report = AuditVerifier.verify(rotated);
    assertThat(report.ok()).as(report.toText()).isTrue();
    assertThat(report.notes())
        .anySatisfy(n -> assertThat(n).contains(oldKey.keyId(), newKey.keyId()));
  }

  @Test
  void aDigestForgedWithAnUntrustedKeyIsCaughtEvenWhenTheExportCarriesThatKey() throws Exception {
    var dir = copyOf(rotated);
    var forger = ExportFixture.newSigner();
    var digests = lines(dir.resolve("digests.jsonl"));
    var original = AuditDigest.fromTree(tree(digests.get(2)));
    var forged =
        forger.sign(
            original.fromSeq(),
            original.toSeq(),
            "ee".repeat(32),
            original.previousDigestSignature(),
            original.time());
    digests.set(2, CanonicalJson.text(forged.toTree()));
    write(dir.resolve("digests.jsonl"), digests);
    var keys = dir.resolve(AuditExporter.DIGEST_KEYS_FILE);
    Files.writeString(keys, Files.readString(keys) + forger.publicKeyPem());

    var report = AuditVerifier.verify(dir, List.of(oldKey.keyId(), newKey.keyId()));
    assertThat(report.firstBadSeq()).as(report.toText()).hasValue(101);
    assertThat(report.firstProblem().orElseThrow().problem())
        .contains("digest of seq 101..150", forger.keyId(), "not a trusted key");
  }

  @Test
  void aDigestReSignedWithTheOtherTrustedKeyStillHasToVerify() {
    var dir = copyOf(rotated);
    var digests = lines(dir.resolve("digests.jsonl"));
    // The old key's id on a digest the new key signed: the signature is checked with the old key.
    var claimed = tree(digests.get(2)).put("keyId", oldKey.keyId());
    digests.set(2, CanonicalJson.text(claimed));
    write(dir.resolve("digests.jsonl"), digests);

    var report = AuditVerifier.verify(dir, List.of(oldKey.keyId(), newKey.keyId()));
    assertThat(report.firstBadSeq()).hasValue(101);
    assertThat(report.firstProblem().orElseThrow().problem()).contains("signature does not verify");
  }

  @Test
  void anExporterThatDoesNotKnowThePreviousKeySaysSoAndSoDoesTheVerifier() {
    var result =
        new AuditExporter(sink, newKey)
            .export(new ExportRequest("unknown-old", 1, 200, null, ExportFormat.JSONL), chain);
    assertThat(result.checkedAtExport().firstBadSeq()).hasValue(1);

    var report =
        AuditVerifier.verify(
            base.resolve("sink/audit/unknown-old"), List.of(oldKey.keyId(), newKey.keyId()));
    assertThat(report.firstBadSeq()).hasValue(1);
    assertThat(report.firstProblem().orElseThrow().problem())
        .contains("does not carry that public key");
  }

  @Test
  void aChainCanBeCheckedAgainstARingDirectly() {
    var verifier = new AuditChainVerifier(1, AuditChain.GENESIS_HASH);
    verifier.checkDigests(
        chain.digests,
        DigestKeyRing.of(oldKey.verifier()).and(DigestKeyRing.of(newKey.verifier())));
    chain.events.forEach(verifier::accept);
    assertThat(verifier.finish(200, chain.hashAt(200)).ok()).isTrue();

    var newOnly = AuditChainVerifier.verify(chain.events, chain.digests, newKey.verifier());
    assertThat(newOnly.firstBadSeq()).hasValue(1);
  }

  @Test
  void theCommandTakesSeveralKeyIdsOrAKeyRingFile() throws Exception {
    var out = new ByteArrayOutputStream();
    var err = new ByteArrayOutputStream();
    String[] both = {rotated.toString(), "--key-id", oldKey.keyId(), "--key-id", newKey.keyId()};
    assertThat(VerifyCommand.run(both, print(out), print(err))).as(out.toString()).isZero();
    String[] commaSeparated = {
      rotated.toString(), "--key-id", oldKey.keyId() + "," + newKey.keyId()
    };
    assertThat(VerifyCommand.run(commaSeparated, print(out), print(err))).isZero();

    var ring = base.resolve("ring.pem");
    Files.writeString(ring, oldKey.publicKeyPem() + newKey.publicKeyPem());
    String[] ringFile = {rotated.toString(), "--public-key", ring.toString()};
    assertThat(VerifyCommand.run(ringFile, print(out), print(err))).isZero();

    out.reset();
    String[] newOnly = {rotated.toString(), "--key-id", newKey.keyId()};
    assertThat(VerifyCommand.run(newOnly, print(out), print(err))).isEqualTo(1);
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("first bad seq: 1");

    String[] badId = {rotated.toString(), "--key-id", "nothex"};
    assertThat(VerifyCommand.run(badId, print(out), print(err))).isEqualTo(2);
    String[] dangling = {rotated.toString(), "--key-id"};
    assertThat(VerifyCommand.run(dangling, print(out), print(err))).isEqualTo(2);
  }

  private static PrintStream print(ByteArrayOutputStream out) {
    return new PrintStream(out, true, StandardCharsets.UTF_8);
  }
}
