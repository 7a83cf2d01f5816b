package io.trainyard.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * Verifies an export offline, trusting nothing in it but the public keys (and those only when the
 * caller gives no key ids to pin): the manifest's signature, every file against the hash the
 * manifest signed, every digest's key, signature and link to the one before, every event's hash,
 * the chain from the manifest's {@code previousHash} to its {@code lastHash}, and the chain against
 * each digest where it ends. See {@link AuditChainVerifier} for what each event check means.
 *
 * <p>Keys: {@code public-key.pem} is the key of the manifest (the signing key when the export was
 * written). An export whose digests were signed with other keys too, because the signing key was
 * rotated within its range, carries those in {@code digest-keys.pem}; each digest is checked with
 * the key its {@code keyId} names. Given trusted key ids, the manifest's key must be one of them
 * and a digest naming any other key is refused at its first seq.
 *
 * <p>Lines already in canonical form (as the exporter writes them) are checked and hashed as bytes;
 * others are parsed and canonicalised, and reported in a note. Lines are hashed in parallel chunks
 * (the content hash is the costly part) and chained in order, while another thread checks the
 * digests' signatures. Thread-safe: no state.
 */
public final class AuditVerifier {
  private AuditVerifier() {}

  /** Verifies the export in {@code dir}, trusting the public keys it carries. */
  public static VerificationReport verify(Path dir) {
    return verify(ExportFiles.of(dir), List.of());
  }

  /**
   * Verifies the export in {@code dir} signed by the key with {@code trustedKeyId} (hex SHA-256 of
   * its X.509 DER, as {@link DigestSigner#keyId()} gives it), or by the keys it carries if null.
   */
  public static VerificationReport verify(Path dir, String trustedKeyId) {
    return verify(ExportFiles.of(dir), listOf(trustedKeyId));
  }

  /**
   * Verifies the export in {@code dir} whose manifest and digests are signed by keys with the
   * {@code trustedKeyIds} (for example the key before a rotation and the one after), or by the keys
   * it carries if there is none.
   */
  public static VerificationReport verify(Path dir, Collection<String> trustedKeyIds) {
    return verify(ExportFiles.of(dir), trustedKeyIds);
  }

  /** Verifies the export {@code exportName} in {@code sink}, reading it in place. */
  public static VerificationReport verify(BlobSink sink, String exportName, String trustedKeyId) {
    return verify(ExportFiles.of(sink, exportName), listOf(trustedKeyId));
  }

  /** Verifies the export {@code exportName} in {@code sink} against several trusted keys. */
  public static VerificationReport verify(
      BlobSink sink, String exportName, Collection<String> trustedKeyIds) {
    return verify(ExportFiles.of(sink, exportName), trustedKeyIds);
  }

  private static List<String> listOf(String keyId) {
    return keyId == null ? List.of() : List.of(keyId);
  }

  static VerificationReport verify(ExportFiles files, Collection<String> trustedKeyIds) {
    var trusted = Set.copyOf(trustedKeyIds);
    var findings = new ArrayList<Finding>();
    var notes = new ArrayList<String>();
    try {
      var manifestTree = readJson(files, ExportManifest.FILE_NAME);
      var manifest = ExportManifest.fromTree(manifestTree);
      var manifestKey = manifestKey(files, manifest, trusted, findings, notes);
      if (manifestKey == null) {
        return failed(findings, notes);
      }
      checkManifestSignature(manifestTree, manifest, manifestKey, findings);
      var digestKeys = digestKeys(files, manifest, manifestKey, trusted, findings, notes);
      var digests = readDigests(files, manifest, findings);
      if (manifest.format() == ExportFormat.CSV) {
        checkFile(files, manifest, ExportFormat.CSV.fileName(), findings);
        findings.add(
            new Finding(
                0,
                "a CSV export is for people and cannot be verified event by"
                    + " event; only its files were checked (export as jsonl to verify the chain)"));
        return new VerificationReport(0, 0, 0, manifestKey.keyId(), findings, 0, notes);
      }
      var report = checkEvents(files, manifest, digests, digestKeys, trusted, findings, notes);
      return report.with(findings, notes).withKeyId(manifestKey.keyId());
    } catch (MissingFile e) {
      findings.add(new Finding(0, e.getMessage()));
    } catch (IllegalArgumentException e) {
      findings.add(new Finding(0, "the manifest cannot be read: " + e.getMessage()));
    } catch (IOException | AuditException e) {
      findings.add(new Finding(0, "cannot read " + files.describe() + ": " + e.getMessage()));
    }
    return failed(findings, notes);
  }

  /** The key of {@code public-key.pem}, which signed the manifest; null if it cannot be trusted. */
  private static DigestVerifier manifestKey(
      ExportFiles files,
      ExportManifest manifest,
      Set<String> trusted,
      List<Finding> findings,
      List<String> notes)
      throws IOException {
    var pem = new String(readFile(files, AuditExporter.PUBLIC_KEY_FILE), StandardCharsets.US_ASCII);
    DigestVerifier key;
    try {
      key = DigestVerifier.fromPem(pem);
    } catch (IllegalArgumentException e) {
      findings.add(new Finding(0, AuditExporter.PUBLIC_KEY_FILE + " is not an Ed25519 public key"));
      return null;
    }
    if (!trusted.isEmpty() && !trusted.contains(key.keyId())) {
      findings.add(
          new Finding(
              0,
              "the export's public key (key id "
                  + key.keyId()
                  + ") is "
                  + (trusted.size() == 1
                      ? "not the trusted key " + trusted.iterator().next()
                      : "not one of the trusted keys " + new TreeSet<>(trusted))
                  + ": nothing in it can be trusted"));
      return null;
    }
    if (trusted.isEmpty()) {
      notes.add(
          "the public key was taken from the export itself (key id "
              + key.keyId()
              + "); compare that id with the one the operator published");
    }
    if (!key.keyId().equals(manifest.keyId())) {
      findings.add(
          new Finding(
              0,
              "the manifest names key id "
                  + manifest.keyId()
                  + ", not the key in "
                  + AuditExporter.PUBLIC_KEY_FILE));
    }
    return key;
  }

  /**
   * The keys digests may be checked with: the manifest's and those of {@code digest-keys.pem} (an
   * export spanning a key rotation), narrowed to the trusted ones if the caller named any.
   */
  private static DigestKeyRing digestKeys(
      ExportFiles files,
      ExportManifest manifest,
      DigestVerifier manifestKey,
      Set<String> trusted,
      List<Finding> findings,
      List<String> notes)
      throws IOException {
    var ring = DigestKeyRing.of(manifestKey);
    var name = AuditExporter.DIGEST_KEYS_FILE;
    if (files.exists(name) || manifest.files().containsKey(name)) {
      byte[] bytes = readFile(files, name);
      checkHash(manifest, name, AuditExporter.sha256Hex(bytes), findings);
      try {
        ring = ring.and(DigestKeyRing.fromPem(new String(bytes, StandardCharsets.US_ASCII)));
      } catch (IllegalArgumentException e) {
        findings.add(new Finding(0, name + " is not a list of Ed25519 public keys"));
      }
    }
    if (!trusted.isEmpty()) {
      return ring.onlyTrusted(trusted);
    }
    if (ring.keyIds().size() > 1) {
      notes.add(
          "the digests' public keys were taken from the export itself (key ids "
              + String.join(", ", ring.keyIds())
              + "); compare those ids with the ones the operator published");
    }
    return ring;
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
      DigestKeyRing keys,
      Set<String> trusted,
      List<Finding> findings,
      List<String> notes)
      throws IOException {
    var fileName = ExportFormat.JSONL.fileName();
    if (manifest.fromSeq() == 1 && !AuditChain.GENESIS_HASH.equals(manifest.previousHash())) {
      findings.add(new Finding(1, "an export from seq 1 must start from the genesis hash"));
    }
    var verifier = new AuditChainVerifier(manifest.fromSeq(), manifest.previousHash());
    verifier.watch(digests);
    // An Ed25519 check costs milliseconds: with a digest every 1,000 events that is seconds for a
    // million, so the signatures are checked on a thread of their own while the lines are hashed.
    var signatures = new FutureTask<>(() -> signatureProblems(digests, keys, trusted));
    var signatureThread = new Thread(signatures, "audit-verify-signatures");
    signatureThread.setDaemon(true);
    signatureThread.start();
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
    // Should reading fail, the signature thread (a daemon) just finishes its list unasked.
    verifier.trust(digests, join(signatures));
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

  private static List<Optional<String>> signatureProblems(
      List<AuditDigest> digests, DigestKeyRing keys, Set<String> trusted) {
    var problems = new ArrayList<Optional<String>>(digests.size());
    for (var digest : digests) {
      if (trusted.contains(digest.keyId()) && !keys.contains(digest.keyId())) {
        problems.add(
            Optional.of(
                "names the trusted key id "
                    + digest.keyId()
                    + ", but the export does not carry that public key ("
                    + AuditExporter.DIGEST_KEYS_FILE
                    + ")"));
      } else {
        problems.add(keys.problem(digest));
      }
    }
    return problems;
  }

  private static <T> T join(FutureTask<T> task) {
    try {
      return task.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while verifying", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("checking the digests' signatures failed", e.getCause());
    }
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
