package io.trainyard.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Verifies an export offline, trusting nothing in it but the public key (and that only when the
 * caller gives no key id to pin): the manifest's signature, every file against the hash the
 * manifest signed, every digest's key, signature and link to the one before, every event's hash,
 * the chain from the manifest's {@code previousHash} to its {@code lastHash}, and the chain against
 * each digest where it ends. See {@link AuditChainVerifier} for what each event check means.
 *
 * <p>Lines already in canonical form (as the exporter writes them) are checked and hashed as bytes;
 * others are parsed and canonicalised, and reported in a note. Lines are hashed in parallel chunks
 * (the content hash is the costly part) and chained in order. Thread-safe: no state.
 */
public final class AuditVerifier {
  private AuditVerifier() {}

  /** Verifies the export in {@code dir}, trusting the public key it carries. */
  public static VerificationReport verify(Path dir) {
    return verify(ExportFiles.of(dir), null);
  }

  /**
   * Verifies the export in {@code dir} signed by the key with {@code trustedKeyId} (hex SHA-256 of
   * its X.509 DER, as {@link DigestSigner#keyId()} gives it), or by the key it carries if null.
   */
  public static VerificationReport verify(Path dir, String trustedKeyId) {
    return verify(ExportFiles.of(dir), trustedKeyId);
  }

  /** Verifies the export {@code exportName} in {@code sink}, reading it in place. */
  public static VerificationReport verify(BlobSink sink, String exportName, String trustedKeyId) {
    return verify(ExportFiles.of(sink, exportName), trustedKeyId);
  }

  static VerificationReport verify(ExportFiles files, String trustedKeyId) {
    var findings = new ArrayList<Finding>();
    var notes = new ArrayList<String>();
    try {
      var manifestTree = readJson(files, ExportManifest.FILE_NAME);
      var manifest = ExportManifest.fromTree(manifestTree);
      var keys = trustedKeys(files, manifest, trustedKeyId, findings, notes);
      if (keys == null) {
        return failed(findings, notes);
      }
      checkManifestSignature(manifestTree, manifest, keys, findings);
      var digests = readDigests(files, manifest, findings);
      if (manifest.format() == ExportFormat.CSV) {
        checkFile(files, manifest, ExportFormat.CSV.fileName(), findings);
        findings.add(
            new Finding(
                0,
                "a CSV export is for people and cannot be verified event by"
                    + " event; only its files were checked (export as jsonl to verify the chain)"));
        return new VerificationReport(0, 0, 0, keys.keyId(), findings, 0, notes);
      }
      var report = checkEvents(files, manifest, digests, keys, findings, notes);
      return report.with(findings, notes);
    } catch (MissingFile e) {
      findings.add(new Finding(0, e.getMessage()));
    } catch (IllegalArgumentException e) {
      findings.add(new Finding(0, "the manifest cannot be read: " + e.getMessage()));
    } catch (IOException | AuditException e) {
      findings.add(new Finding(0, "cannot read " + files.describe() + ": " + e.getMessage()));
    }
    return failed(findings, notes);
  }

  private static DigestVerifier trustedKeys(
      ExportFiles files,
      ExportManifest manifest,
      String trustedKeyId,
      List<Finding> findings,
      List<String> notes)
      throws IOException {
    var pem = new String(readFile(files, AuditExporter.PUBLIC_KEY_FILE), StandardCharsets.US_ASCII);
    DigestVerifier keys;
    try {
      keys = DigestVerifier.fromPem(pem);
    } catch (IllegalArgumentException e) {
      findings.add(new Finding(0, AuditExporter.PUBLIC_KEY_FILE + " is not an Ed25519 public key"));
      return null;
    }
    if (trustedKeyId != null && !trustedKeyId.equals(keys.keyId())) {
      findings.add(
          new Finding(
              0,
              "the export's public key (key id "
                  + keys.keyId()
                  + ") is not the trusted key "
                  + trustedKeyId
                  + ": nothing in it can be trusted"));
      return null;
    }
    if (trustedKeyId == null) {
      notes.add(
          "the public key was taken from the export itself (key id "
              + keys.keyId()
              + "); compare that id with the one the operator published");
    }
    if (!keys.keyId().equals(manifest.keyId())) {
      findings.add(
          new Finding(
              0,
              "the manifest names key id "
                  + manifest.keyId()
                  + ", not the key in "
                  + AuditExporter.PUBLIC_KEY_FILE));
    }
    return keys;
  }

  private static void checkManifestSignature(
      JsonNode manifestTree, ExportManifest manifest, DigestVerifier keys, List<Finding> findings) {
    // The signature is checked over the file's own content, not over what this version of the
    // code reads from it, so that a member this reader does not know about is covered too.
    var signed = (ObjectNode) manifestTree.deepCopy();
    signed.remove("signature");
    if (!keys.verifyHex(CanonicalJson.bytes(signed), manifest.signature())) {
      findings.add(
          new Finding(
              0,
              "the manifest's signature does not verify: the manifest was" + " altered or forged"));
    }
  }

  private static List<AuditDigest> readDigests(
      ExportFiles files, ExportManifest manifest, List<Finding> findings) throws IOException {
    byte[] bytes = readFile(files, AuditExporter.DIGESTS_FILE);
    checkHash(manifest, AuditExporter.DIGESTS_FILE, AuditExporter.sha256Hex(bytes), findings);
    var digests = new ArrayList<AuditDigest>();
    var lines = new String(bytes, StandardCharsets.UTF_8).split("\n");
    for (var line : lines) {
      if (line.isEmpty()) {
        continue;
      }
      try {
        digests.add(AuditDigest.fromTree(ExportLineParser.STRICT.readTree(line)));
      } catch (IOException | IllegalArgumentException e) {
        findings.add(
            new Finding(
                0,
                "a line of " + AuditExporter.DIGESTS_FILE + " is not a digest: " + e.getMessage()));
      }
    }
    if (!digests.equals(manifest.digests())) {
      findings.add(
          new Finding(
              0, AuditExporter.DIGESTS_FILE + " differs from the digests the manifest lists"));
    }
    return digests;
  }

  private static VerificationReport checkEvents(
      ExportFiles files,
      ExportManifest manifest,
      List<AuditDigest> digests,
      DigestVerifier keys,
      List<Finding> findings,
      List<String> notes)
      throws IOException {
    var fileName = ExportFormat.JSONL.fileName();
    if (manifest.fromSeq() == 1 && !AuditChain.GENESIS_HASH.equals(manifest.previousHash())) {
      findings.add(new Finding(1, "an export from seq 1 must start from the genesis hash"));
    }
    var verifier = new AuditChainVerifier(manifest.fromSeq(), manifest.previousHash());
    verifier.checkDigests(digests, keys);
    var sha256 = AuditChain.newSha256();
    var reformatted = new NotCanonical();
    long records;
    try (var in = open(files, fileName);
        var hashing = new ParallelLineHashing()) {
      records =
          hashing.run(
              in,
              sha256,
              lines -> {
                feed(lines, verifier, manifest, findings);
                reformatted.count(lines);
              });
    }
    reformatted.note(notes);
    checkHash(manifest, fileName, Hex.encode(sha256.digest()), findings);
    if (records != manifest.records()) {
      findings.add(
          new Finding(
              0,
              fileName + " has " + records + " records, the manifest says " + manifest.records()));
    }
    return verifier.finish(manifest.toSeq(), manifest.lastHash());
  }

  /** Chains a batch of parsed lines in order; the first batch is checked against firstHash. */
  private static void feed(
      List<ChainLine> lines,
      AuditChainVerifier verifier,
      ExportManifest manifest,
      List<Finding> findings) {
    if (verifier.isAtStart()
        && !lines.isEmpty()
        && lines.get(0).hash() != null
        && !Hex.encode(lines.get(0).hash()).equals(manifest.firstHash())) {
      findings.add(
          new Finding(
              manifest.fromSeq(), "the first event's hash is not the manifest's firstHash"));
    }
    lines.forEach(verifier::accept);
  }

  private static void checkFile(
      ExportFiles files, ExportManifest manifest, String name, List<Finding> findings)
      throws IOException {
    checkHash(manifest, name, AuditExporter.sha256Hex(readFile(files, name)), findings);
  }

  private static void checkHash(
      ExportManifest manifest, String name, String actual, List<Finding> findings) {
    var expected = manifest.files().get(name);
    if (expected == null) {
      findings.add(new Finding(0, "the manifest does not list " + name));
    } else if (!expected.equals(actual)) {
      findings.add(new Finding(0, name + " is not the file the manifest signed (SHA-256 differs)"));
    }
  }

  private static JsonNode readJson(ExportFiles files, String name) throws IOException {
    return ExportLineParser.STRICT.readTree(readFile(files, name));
  }

  private static byte[] readFile(ExportFiles files, String name) throws IOException {
    try (var in = open(files, name)) {
      return in.readAllBytes();
    }
  }

  private static InputStream open(ExportFiles files, String name) throws IOException {
    if (!files.exists(name)) {
      throw new MissingFile(name + " is missing from " + files.describe());
    }
    return files.open(name);
  }

  private static VerificationReport failed(List<Finding> findings, List<String> notes) {
    return new VerificationReport(0, 0, 0, null, findings, 0, notes);
  }

  /**
   * Counts readable lines that were not in canonical form. They verify when their content hashes to
   * their eventHash once canonicalised, but the exporter never writes them: someone rewrote the
   * file, which an auditor should hear about although nothing in it changed.
   */
  private static final class NotCanonical {
    private long count;
    private long firstSeq;

    void count(List<ChainLine> lines) {
      for (var line : lines) {
        if (!line.canonical() && line.unreadable() == null) {
          firstSeq = count++ == 0 ? line.seq() : firstSeq;
        }
      }
    }

    void note(List<String> notes) {
      if (count > 0) {
        notes.add(
            count
                + " record(s) of the events file were not in RFC 8785 canonical form, as the"
                + " exporter writes them (the first at seq "
                + firstSeq
                + "): they were canonicalised to be checked, so the file was re-written after"
                + " export");
      }
    }
  }

  /** A file of the export is not there: the export is incomplete, or not an export. */
  private static final class MissingFile extends IOException {
    private static final long serialVersionUID = 1L;

    MissingFile(String message) {
      super(message);
    }
  }
}
