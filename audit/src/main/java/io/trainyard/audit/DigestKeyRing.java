package io.trainyard.audit;

import java.security.PublicKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The Ed25519 public keys digests may be signed with, by key id (hex SHA-256 of the key's X.509
 * DER, as {@link DigestSigner#keyId()} gives it). Operators rotate the signing key, so a chain's
 * digests can carry several key ids: each digest is checked with the key its {@code keyId} names,
 * and a digest naming a key that is not in the ring is refused before its signature is looked at.
 *
 * <p>What a ring trusts is up to whoever builds it: the gateway's current and previous keys, or for
 * an export the keys it carries narrowed to the key ids an auditor obtained separately ({@link
 * #onlyTrusted}). Key ids are computed from the keys themselves, never read from a file, so a ring
 * cannot be made to file a key under another key's id. Immutable and thread-safe.
 */
public final class DigestKeyRing {
  private final Map<String, DigestVerifier> byId;

  private DigestKeyRing(Map<String, DigestVerifier> byId) {
    this.byId = byId;
  }

  /** A ring of {@code keys}; the same key twice counts once. */
  public static DigestKeyRing of(Collection<PublicKey> keys) {
    var byId = new TreeMap<String, DigestVerifier>();
    for (var key : keys) {
      var verifier = new DigestVerifier(key);
      byId.put(verifier.keyId(), verifier);
    }
    return new DigestKeyRing(byId);
  }

  /** A ring of one key. */
  public static DigestKeyRing of(DigestVerifier key) {
    return of(List.of(key.publicKey()));
  }

  /**
   * From the text of one or more X.509 {@code PUBLIC KEY} PEM blocks, one after the other (as
   * {@code cat old.pub.pem new.pub.pem} gives them).
   *
   * @throws IllegalArgumentException if a block is not an Ed25519 key, or there is none
   */
  public static DigestKeyRing fromPem(String pem) {
    var keys = Ed25519Keys.publicKeysFromPem(pem);
    if (keys.isEmpty()) {
      throw new IllegalArgumentException("no PUBLIC KEY PEM block");
    }
    return of(keys);
  }

  /** This ring and {@code other}'s keys together. */
  public DigestKeyRing and(DigestKeyRing other) {
    var byId = new TreeMap<>(this.byId);
    byId.putAll(other.byId);
    return new DigestKeyRing(byId);
  }

  /** The keys of this ring whose id is in {@code keyIds}. */
  public DigestKeyRing onlyTrusted(Collection<String> keyIds) {
    var byId = new TreeMap<>(this.byId);
    byId.keySet().retainAll(Set.copyOf(keyIds));
    return new DigestKeyRing(byId);
  }

  /** The key ids, sorted. */
  public List<String> keyIds() {
    return List.copyOf(byId.keySet());
  }

  public boolean contains(String keyId) {
    return byId.containsKey(keyId);
  }

  public Optional<DigestVerifier> key(String keyId) {
    return Optional.ofNullable(byId.get(keyId));
  }

  /** Every key as PEM, in key id order: what an export carries for its digests. */
  public String publicKeysPem() {
    var out = new StringBuilder();
    byId.values().forEach(k -> out.append(k.publicKeyPem()));
    return out.toString();
  }

  /**
   * What is wrong with {@code digest} on its own, if anything: a key id this ring does not hold, or
   * a signature that does not verify with the key it names.
   */
  public Optional<String> problem(AuditDigest digest) {
    var key = byId.get(digest.keyId());
    if (key == null) {
      return Optional.of(
          "signed with another key (key id "
              + digest.keyId()
              + "), which is not a trusted key (trusted: "
              + String.join(", ", byId.keySet())
              + ")");
    }
    return key.problem(digest);
  }

  /** The problems of {@code digests} in order, as {@link #problem} gives them. */
  List<Optional<String>> problems(List<AuditDigest> digests) {
    var problems = new ArrayList<Optional<String>>(digests.size());
    digests.forEach(d -> problems.add(problem(d)));
    return problems;
  }

  @Override
  public String toString() {
    return "DigestKeyRing" + byId.keySet();
  }
}
