package io.trainyard.audit;

import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks a run of chain records, in the order given, against the chain's rules and against signed
 * digests, and says where the first problem is. Feed it records with {@link #accept}, then call
 * {@link #finish}. Not thread-safe.
 *
 * <p>For each record: its seq must be the next one (else events are missing, repeated or out of
 * order); a full event's content must hash to its {@code eventHash} (else it was edited); its
 * {@code hash} must equal SHA-256(previous hash ‖ eventHash) (else it, or the record before it, was
 * altered with its hashes recomputed); and where a trusted digest ends, the hash must be the
 * digest's {@code lastHash} (else some event in the digest's range was altered and the rest of the
 * chain recomputed — only a signature made before the tampering can show that).
 *
 * <p>After a problem the check goes on from the record's own claimed {@code hash}, so one edit is
 * reported once, at its own seq, and later independent edits are still found. If no problem is
 * found, every claimed hash equals the one computed from the anchor, by induction.
 */
public final class AuditChainVerifier {
  static final int MAX_FINDINGS = 100;

  private final long firstSeq;
  private final MessageDigest sha256 = AuditChain.newSha256();
  private final Map<Long, AuditDigest> trustedDigestsByEnd = new HashMap<>();
  private final Set<String> digestKeyIds = new TreeSet<>();
  private long[] watchedEnds = new long[0]; // where digests end, sorted
  private final Map<Long, byte[]> hashAtWatchedEnd = new HashMap<>();
  private final byte[] anchor;
  private String keyId; // the one key digests were checked against, if there was one
  private final List<Finding> findings = new ArrayList<>();
  private long findingsLeftOut;
  private long expected;
  private byte[] running; // null when the previous record could not be chained
  private long events;
  private long stubs;
  private int digestsChecked;

  /**
   * @param firstSeq the seq of the first record that will be fed
   * @param previousHash hex {@code hash} of the event before it ({@link AuditChain#GENESIS_HASH}
   *     for seq 1)
   */
  public AuditChainVerifier(long firstSeq, String previousHash) {
    if (firstSeq < 1) {
      throw new IllegalArgumentException("firstSeq starts at 1");
    }
    if (!Hex.isHex(previousHash, 32)) {
      throw new IllegalArgumentException("previousHash must be 64 lower-case hex digits");
    }
    this.firstSeq = firstSeq;
    this.expected = firstSeq;
    this.running = Hex.decode(previousHash);
    this.anchor = running;
  }

  /** Verifies a whole chain from seq 1 with its digests. */
  public static VerificationReport verify(
      Iterable<ChainedEvent> events, List<AuditDigest> digests, DigestVerifier keys) {
    var verifier = new AuditChainVerifier(1, AuditChain.GENESIS_HASH);
    verifier.checkDigests(digests, keys);
    events.forEach(verifier::accept);
    return verifier.finish(-1, null);
  }

  /**
   * Checks each digest's key and signature and that each follows the one before it; the good ones
   * are then compared with the chain where they end. Digests must be given in order, and before the
   * first record.
   */
  public void checkDigests(List<AuditDigest> digests, DigestVerifier keys) {
    checkDigests(digests, DigestKeyRing.of(keys));
  }

  /**
   * As {@link #checkDigests(List, DigestVerifier)}, each digest with the key of the ring its key id
   * names: for a range that spans a rotation of the signing key.
   */
  public void checkDigests(List<AuditDigest> digests, DigestKeyRing keys) {
    var ids = keys.keyIds();
    keyId = ids.size() == 1 ? ids.get(0) : null;
    watch(digests);
    trust(digests, keys.problems(digests));
  }

  /**
   * Notes where {@code digests} end, so that the chain's hash there is kept for {@link #trust},
   * which may then come after the records (signatures are slow to check, so a caller can check them
   * while the records are being hashed). Call before the first record.
   */
  void watch(List<AuditDigest> digests) {
    watchedEnds = digests.stream().mapToLong(AuditDigest::toSeq).sorted().distinct().toArray();
  }

  /**
   * Takes the digests whose signature is good ({@code signatureProblems} empty at their index) and
   * that follow the one before them as trusted, and reports the others.
   */
  void trust(List<AuditDigest> digests, List<Optional<String>> signatureProblems) {
    AuditDigest previous = null;
    for (int i = 0; i < digests.size(); i++) {
      var digest = digests.get(i);
      long seq = Math.max(digest.fromSeq(), firstSeq);
      var problem = signatureProblems.get(i);
      if (problem.isEmpty() && previous != null) {
        problem = DigestVerifier.linkProblem(previous, digest);
      }
      if (problem.isPresent()) {
        add(seq, "digest of seq " + range(digest) + " " + problem.get());
      } else {
        trustedDigestsByEnd.put(digest.toSeq(), digest);
        digestKeyIds.add(digest.keyId());
        digestsChecked++;
        if (digest.toSeq() == firstSeq - 1
            && !Arrays.equals(anchor, Hex.decode(digest.lastHash()))) {
          add(
              firstSeq,
              "the hash the export starts from is not the one the digest of seq "
                  + range(digest)
                  + " signed");
        }
      }
      previous = digest;
    }
  }

  /** Whether no record has been fed yet. */
  boolean isAtStart() {
    return events == 0 && stubs == 0 && expected == firstSeq;
  }

  /** Checks the next stored event. */
  public void accept(ChainedEvent event) {
    sha256.reset();
    byte[] contentHash = sha256.digest(CanonicalJson.bytes(event.event().toTree()));
    accept(
        ChainLine.full(
            event.seq(), Hex.decode(event.eventHash()), Hex.decode(event.hash()), contentHash));
  }

  void accept(ChainLine line) {
    if (line.unreadable() != null) {
      add(expected, "record after seq " + (expected - 1) + " cannot be read: " + line.unreadable());
      expected++;
      running = null;
      return;
    }
    long seq = line.seq();
    if (seq != expected) {
      add(expected, sequenceProblem(seq));
      running = null;
    }
    expected = seq + 1;
    if (line.stub()) {
      stubs++;
    } else {
      events++;
      if (!Arrays.equals(line.contentHash(), line.eventHash())) {
        add(seq, "the event's content does not match its eventHash: the event was edited");
      }
    }
    if (running != null
        && !Arrays.equals(AuditChain.link(sha256, running, line.eventHash()), line.hash())) {
      add(seq, line.stub() ? "the stub's hashes do not chain: the stub lies" : brokenLink(seq));
    }
    running = line.hash();
    if (Arrays.binarySearch(watchedEnds, seq) >= 0) {
      hashAtWatchedEnd.put(seq, running);
    }
  }

  /**
   * Ends the check.
   *
   * @param lastSeq the seq the records should end at, or -1 if not known
   * @param lastHash the hash they should end in, or null if not known
   */
  public VerificationReport finish(long lastSeq, String lastHash) {
    long seen = expected - 1;
    if (lastSeq >= 0 && seen < lastSeq) {
      add(
          expected,
          "the events end at seq "
              + seen
              + " but should go on to seq "
              + lastSeq
              + ": seq "
              + expected
              + ".."
              + lastSeq
              + " are missing (truncated)");
    } else if (lastSeq >= 0 && seen > lastSeq) {
      add(lastSeq + 1, "there are events after seq " + lastSeq + ", where they should end");
    } else if (lastHash != null && (running == null || !Hex.encode(running).equals(lastHash))) {
      add(Math.max(seen, firstSeq), "the chain does not end in the expected last hash");
    }
    for (var digest : trustedDigestsByEnd.values()) {
      if (digest.toSeq() < firstSeq) {
        continue; // vouches for the anchor, checked in trust()
      }
      if (digest.toSeq() > seen) {
        add(
            Math.max(seen + 1, firstSeq),
            "the digest of seq "
                + range(digest)
                + " could not be checked: the events end at seq "
                + seen);
        continue;
      }
      var hash = hashAtWatchedEnd.get(digest.toSeq());
      if (hash != null && !Arrays.equals(hash, Hex.decode(digest.lastHash()))) {
        add(
            Math.max(digest.fromSeq(), firstSeq),
            "the events of seq "
                + range(digest)
                + " do not end in the hash their signed digest names: an event in that range was"
                + " altered or removed and the chain recomputed after the digest was signed");
      }
    }
    return new VerificationReport(
        events,
        stubs,
        digestsChecked,
        keyId != null || digestKeyIds.size() != 1 ? keyId : digestKeyIds.iterator().next(),
        List.copyOf(digestKeyIds),
        findings,
        findingsLeftOut,
        List.of());
  }

  private String sequenceProblem(long found) {
    if (found > expected) {
      return "seq "
          + expected
          + (found - 1 > expected ? ".." + (found - 1) : "")
          + " missing: found seq "
          + found
          + " where seq "
          + expected
          + " belongs"
          + " (deleted, or out of order)";
    }
    return "found seq "
        + found
        + " where seq "
        + expected
        + " belongs: events repeated or out of order";
  }

  private static String brokenLink(long seq) {
    return "the hash does not follow from the previous hash and this eventHash: seq "
        + seq
        + " or the record before it was altered, with its hashes recomputed";
  }

  private static String range(AuditDigest digest) {
    return digest.fromSeq() + ".." + digest.toSeq();
  }

  private void add(long seq, String problem) {
    if (findings.size() < MAX_FINDINGS) {
      findings.add(new Finding(seq, problem));
    } else {
      findingsLeftOut++;
    }
  }
}
