package io.trainyard.audit;

import java.security.GeneralSecurityException;
import java.security.PublicKey;
import java.security.Signature;
import java.util.Objects;
import java.util.Optional;

/**
 * Checks digests (and manifests) against one trusted Ed25519 public key; {@link DigestKeyRing}
 * holds several, for a range that spans a key rotation. Thread-safe.
 *
 * <p>Trust comes from where the key came from: the gateway's own key, or for an export the key id
 * an auditor obtained separately. A digest naming another key id is refused before its signature is
 * even looked at, so a digest re-signed with a forger's key never passes.
 */
public final class DigestVerifier {
  private final PublicKey publicKey;
  private final String keyId;

  public DigestVerifier(PublicKey publicKey) {
    this.publicKey = Objects.requireNonNull(publicKey, "publicKey");
    this.keyId = Ed25519Keys.keyId(publicKey);
  }

  /** From the text of an X.509 {@code PUBLIC KEY} PEM. */
  public static DigestVerifier fromPem(String publicKeyPem) {
    return new DigestVerifier(Ed25519Keys.publicFromPem(publicKeyPem));
  }

  public String keyId() {
    return keyId;
  }

  public PublicKey publicKey() {
    return publicKey;
  }

  /** The key as an X.509 {@code PUBLIC KEY} PEM. */
  public String publicKeyPem() {
    return Ed25519Keys.publicPem(publicKey);
  }

  public boolean verify(AuditDigest digest) {
    return problem(digest).isEmpty();
  }

  /** What is wrong with {@code digest} on its own, if anything. */
  public Optional<String> problem(AuditDigest digest) {
    if (!keyId.equals(digest.keyId())) {
      return Optional.of(
          "signed with another key (key id " + digest.keyId() + ", trusted " + keyId + ")");
    }
    if (!verifyHex(CanonicalJson.bytes(digest.signedTree()), digest.signature())) {
      return Optional.of("signature does not verify: the digest was altered or forged");
    }
    return Optional.empty();
  }

  /** What is wrong with {@code next} following {@code previous}, if anything. */
  public static Optional<String> linkProblem(AuditDigest previous, AuditDigest next) {
    if (next.fromSeq() != previous.toSeq() + 1) {
      return Optional.of(
          "does not follow the previous digest (which ends at seq " + previous.toSeq() + ")");
    }
    if (!previous.signature().equals(next.previousDigestSignature())) {
      return Optional.of("names another previous digest signature than the one before it");
    }
    return Optional.empty();
  }

  boolean verifyHex(byte[] data, String signatureHex) {
    if (!Hex.isHex(signatureHex, 64)) {
      return false;
    }
    try {
      var signature = Signature.getInstance("Ed25519");
      signature.initVerify(publicKey);
      signature.update(data);
      return signature.verify(Hex.decode(signatureHex));
    } catch (GeneralSecurityException e) {
      return false; // a malformed signature is a signature that does not verify
    }
  }
}
