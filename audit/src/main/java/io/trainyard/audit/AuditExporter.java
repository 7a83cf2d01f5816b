package io.trainyard.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestOutputStream;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Writes a range of the chain to a {@link BlobSink} as an export an auditor can verify offline with
 * {@link AuditVerifier}:
 *
 * <pre>
 *   NAME/events.jsonl   one RFC 8785 event per line; {"eventHash","hash","seq"} stubs for the rest
 *     or events.csv     the matching events only, for people
 *   NAME/digests.jsonl  the signed digests ending in the range (or just before it)
 *   NAME/public-key.pem the Ed25519 public key of the manifest (and of the digests it signed)
 *   NAME/digest-keys.pem the public keys of all the digests, only if the signing key was rotated
 *                       within the range so that some digest names another key
 *   NAME/manifest.json  range, counts, first/last hash, file hashes, digests; signed; written last
 * </pre>
 *
 * <p>The events are written to a local temporary file first, so that memory stays flat for any
 * range and the upload knows its length. Thread-safe if the sink is.
 */
public final class AuditExporter {
  public static final String DIGESTS_FILE = "digests.jsonl";
  public static final String PUBLIC_KEY_FILE = "public-key.pem";

  /**
   * The public keys of the digests, when some digest was signed with another key than the one
   * signing the export (the signing key was rotated within the range); absent otherwise.
   */
  public static final String DIGEST_KEYS_FILE = "digest-keys.pem";

  private static final ObjectMapper PRETTY =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

  private final BlobSink sink;
  private final DigestSigner signer;
  private final DigestKeyRing digestKeys;
  private final Clock clock;
  private final Path tempDir;

  public AuditExporter(BlobSink sink, DigestSigner signer) {
    this(sink, signer, Clock.systemUTC(), Path.of(System.getProperty("java.io.tmpdir")));
  }

  public AuditExporter(BlobSink sink, DigestSigner signer, Clock clock, Path tempDir) {
    this(sink, signer, null, clock, tempDir);
  }

  /**
   * An exporter after a rotation of the signing key: digests signed with the {@code previousKeys}
   * are checked with them and exported together with them.
   *
   * @param previousKeys the public keys that signed digests before {@code signer}'s; null or empty
   *     if there was no rotation
   */
  public AuditExporter(
      BlobSink sink, DigestSigner signer, DigestKeyRing previousKeys, Clock clock, Path tempDir) {
    this.sink = Objects.requireNonNull(sink, "sink");
    this.signer = Objects.requireNonNull(signer, "signer");
    var own = DigestKeyRing.of(signer.verifier());
    this.digestKeys = previousKeys == null ? own : previousKeys.and(own);
    this.clock = Objects.requireNonNull(clock, "clock");
    this.tempDir = Objects.requireNonNull(tempDir, "tempDir");
  }

  /**
   * @throws AuditException {@link AuditErrorCode#SOURCE_INCONSISTENT} if the source skips or
   *     repeats events, {@link AuditErrorCode#SINK_UNAVAILABLE} if the sink refuses
   */
  public ExportResult export(ExportRequest request, AuditSource source) {
    var previousHash = source.hashAt(request.fromSeq() - 1);
    var digests = source.digestsEndingBetween(request.fromSeq() - 1, request.toSeq());
    var verifier = new AuditChainVerifier(request.fromSeq(), previousHash);
    verifier.checkDigests(digests, digestKeys);
    Path file = null;
    try {
      Files.createDirectories(tempDir);
      file = Files.createTempFile(tempDir, "audit-export-", "." + request.format().wireName());
      var written = writeEvents(request, source, verifier, file);
      var report = verifier.finish(request.toSeq(), null);
      return upload(request, previousHash, digests, written, file, report);
    } catch (IOException e) {
      throw new AuditException(AuditErrorCode.IO_FAILED, "cannot write the export locally", e);
    } finally {
      deleteQuietly(file);
    }
  }

  /** What writing the events file found out. */
  private record Written(
      long records, long matched, String firstHash, String lastHash, String sha256) {}

  private Written writeEvents(
      ExportRequest request, AuditSource source, AuditChainVerifier verifier, Path file)
      throws IOException {
    var sha256 = AuditChain.newSha256();
    long records = 0;
    long matched = 0;
    long expected = request.fromSeq();
    String firstHash = null;
    String lastHash = null;
    try (var stream = source.events(request.fromSeq(), request.toSeq());
        Writer out =
            new BufferedWriter(
                new OutputStreamWriter(
                    new DigestOutputStream(Files.newOutputStream(file), sha256),
                    StandardCharsets.UTF_8),
                1 << 16)) {
      var csv = request.format() == ExportFormat.CSV ? new CsvEventWriter(out) : null;
      for (var it = stream.iterator(); it.hasNext(); ) {
        var event = it.next();
        if (event.seq() != expected) {
          throw new AuditException(
              AuditErrorCode.SOURCE_INCONSISTENT,
              "the audit source gave seq " + event.seq() + " where " + expected + " belongs");
        }
        expected++;
        verifier.accept(event);
        firstHash = firstHash == null ? event.hash() : firstHash;
        lastHash = event.hash();
        boolean match = request.filter().matches(event.event());
        matched += match ? 1 : 0;
        if (csv != null) {
          if (match) {
            csv.write(event);
            records++;
          }
        } else {
          out.write(match ? CanonicalJson.text(event.toTree()) : stub(event));
          out.write('\n');
          records++;
        }
      }
    }
    if (expected != request.toSeq() + 1) {
      throw new AuditException(
          AuditErrorCode.SOURCE_INCONSISTENT,
          "the audit source ended at seq " + (expected - 1) + ", before " + request.toSeq());
    }
    return new Written(records, matched, firstHash, lastHash, Hex.encode(sha256.digest()));
  }

  /** Keeps a filtered-out event's place in the chain without its content. */
  static String stub(ChainedEvent event) {
    var node = JsonNodeFactory.instance.objectNode();
    node.put("seq", event.seq());
    node.put("eventHash", event.eventHash());
    node.put("hash", event.hash());
    return CanonicalJson.text(node);
  }

  private ExportResult upload(
      ExportRequest request,
      String previousHash,
      List<AuditDigest> digests,
      Written written,
      Path file,
      VerificationReport report) {
    var prefix = request.name() + "/";
    var digestLines = new StringBuilder();
    digests.forEach(d -> digestLines.append(CanonicalJson.text(d.toTree())).append('\n'));
    byte[] digestBytes = digestLines.toString().getBytes(StandardCharsets.UTF_8);
    byte[] keyBytes = signer.publicKeyPem().getBytes(StandardCharsets.US_ASCII);
    byte[] digestKeyBytes = digestKeysPem(digests);
    Map<String, String> files = new TreeMap<>();
    files.put(request.format().fileName(), written.sha256());
    files.put(DIGESTS_FILE, sha256Hex(digestBytes));
    files.put(PUBLIC_KEY_FILE, sha256Hex(keyBytes));
    if (digestKeyBytes != null) {
      files.put(DIGEST_KEYS_FILE, sha256Hex(digestKeyBytes));
    }

    var names = new ArrayList<String>();
    sink.put(prefix + request.format().fileName(), file);
    names.add(prefix + request.format().fileName());
    sink.put(prefix + DIGESTS_FILE, digestBytes);
    names.add(prefix + DIGESTS_FILE);
    sink.put(prefix + PUBLIC_KEY_FILE, keyBytes);
    names.add(prefix + PUBLIC_KEY_FILE);
    if (digestKeyBytes != null) {
      sink.put(prefix + DIGEST_KEYS_FILE, digestKeyBytes);
      names.add(prefix + DIGEST_KEYS_FILE);
    }

    var unsigned =
        new ExportManifest(
            request.name(),
            request.format(),
            clock.instant(),
            request.fromSeq(),
            request.toSeq(),
            previousHash,
            written.firstHash(),
            written.lastHash(),
            written.records(),
            written.matched(),
            request.filter().toTree(),
            files,
            digests,
            signer.keyId(),
            null);
    var signedTree = unsigned.signedTree();
    var manifest = unsigned.withSignature(Hex.encode(signer.sign(CanonicalJson.bytes(signedTree))));
    try {
      sink.put(prefix + ExportManifest.FILE_NAME, PRETTY.writeValueAsBytes(manifest.toTree()));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree always serializes", e);
    }
    names.add(prefix + ExportManifest.FILE_NAME);
    return new ExportResult(manifest, report, names);
  }

  /**
   * The PEM of every key the digests name, if one of them is not the signer's; null when the signer
   * signed them all (an export without a rotation looks as it always did). A key this exporter does
   * not know is left out: the check at export reports its digests, and so will the auditor's.
   */
  private byte[] digestKeysPem(List<AuditDigest> digests) {
    var ids = new java.util.TreeSet<String>();
    digests.forEach(d -> ids.add(d.keyId()));
    if (ids.isEmpty() || ids.equals(java.util.Set.of(signer.keyId()))) {
      return null;
    }
    return digestKeys.onlyTrusted(ids).publicKeysPem().getBytes(StandardCharsets.US_ASCII);
  }

  static String sha256Hex(byte[] bytes) {
    return Hex.encode(AuditChain.newSha256().digest(bytes));
  }

  private static void deleteQuietly(Path file) {
    if (file == null) {
      return;
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // A leftover temporary file is harmless and the export's outcome matters more.
    }
  }
}
