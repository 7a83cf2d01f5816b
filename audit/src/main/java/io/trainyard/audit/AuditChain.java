package io.trainyard.audit;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;

/**
 * The hash chain of DESIGN.md "Audit":
 *
 * <pre>
 *   eventHash(n) = SHA-256( RFC8785( event n without eventHash and hash ) )
 *   hash(n)      = SHA-256( hash(n-1) ‖ eventHash(n) )      -- the 32 + 32 raw digest bytes
 *   hash(0)      = 32 zero bytes                             -- genesis, before seq 1
 * </pre>
 *
 * <p>An instance is the head of one chain: {@link #append} gives the next event its hashes and
 * moves the head. It is not thread-safe; across gateway replicas the order comes from the database
 * (a locked head row, or one leased sealer), which then calls {@link #seal} or resumes a chain with
 * {@link #resumeAfter}.
 */
public final class AuditChain {
  /** {@code hash(0)}: what the first event's hash is chained to. */
  public static final String GENESIS_HASH = "0".repeat(64);

  private final MessageDigest sha256 = newSha256();
  private long lastSeq;
  private byte[] lastHash;

  /** A new, empty chain: the next event is seq 1, chained to {@link #GENESIS_HASH}. */
  public AuditChain() {
    this(0, new byte[32]);
  }

  private AuditChain(long lastSeq, byte[] lastHash) {
    this.lastSeq = lastSeq;
    this.lastHash = lastHash;
  }

  /** Continues a chain whose last event is {@code seq} with {@code hash} (0 and genesis: empty). */
  public static AuditChain resumeAfter(long seq, String hash) {
    if (seq < 0) {
      throw new IllegalArgumentException("seq < 0");
    }
    if (!Hex.isHex(hash, 32)) {
      throw new IllegalArgumentException("hash must be 64 lower-case hex digits");
    }
    return new AuditChain(seq, Hex.decode(hash));
  }

  public long nextSeq() {
    return lastSeq + 1;
  }

  public long lastSeq() {
    return lastSeq;
  }

  public String lastHash() {
    return Hex.encode(lastHash);
  }

  /**
   * Chains {@code event}, which must carry {@link #nextSeq()}, and makes it the head.
   *
   * @throws IllegalArgumentException if the event's seq is not the next one
   */
  public ChainedEvent append(AuditEvent event) {
    if (event.seq() != nextSeq()) {
      throw new IllegalArgumentException(
          "event seq " + event.seq() + " does not follow the chain's " + lastSeq);
    }
    sha256.reset();
    byte[] eventHash = sha256.digest(CanonicalJson.bytes(event.toTree()));
    byte[] hash = link(sha256, lastHash, eventHash);
    lastSeq = event.seq();
    lastHash = hash;
    return new ChainedEvent(event, Hex.encode(eventHash), Hex.encode(hash));
  }

  /** Chains one event to the previous event's {@code hash}, without keeping any state. */
  public static ChainedEvent seal(AuditEvent event, String previousHash) {
    return resumeAfter(event.seq() - 1, previousHash).append(event);
  }

  /** {@code eventHash} of an event, hex. */
  public static String eventHash(AuditEvent event) {
    return Hex.encode(newSha256().digest(CanonicalJson.bytes(event.toTree())));
  }

  /** {@code hash(n)} from {@code hash(n-1)} and {@code eventHash(n)}, all hex. */
  public static String link(String previousHash, String eventHash) {
    return Hex.encode(link(newSha256(), Hex.decode(previousHash), Hex.decode(eventHash)));
  }

  static byte[] link(MessageDigest sha256, byte[] previousHash, byte[] eventHash) {
    Objects.requireNonNull(previousHash, "previousHash");
    sha256.reset();
    sha256.update(previousHash);
    return sha256.digest(eventHash);
  }

  static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
