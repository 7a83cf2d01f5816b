package io.trainyard.audit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.PublicKey;
import java.security.Signature;
import java.time.Instant;
import java.util.Objects;

/**
 * Signs digests (and export manifests) with the gateway's Ed25519 key. Thread-safe.
 *
 * <p>A deployment configures a PKCS#8 PEM private key ({@code openssl genpkey -algorithm ed25519
 * -out audit-signing-key.pem}); dev generates one into its data directory. The public key is handed
 * to auditors as PEM together with its {@link #keyId()}, which they should compare with a copy
 * obtained out of band: an export carries its public key, and a forger could replace it.
 */
public final class DigestSigner {
  /** File names used by {@link #loadOrGenerate(Path)}. */
  public static final String PRIVATE_KEY_FILE = "audit-signing-key.pem";

  public static final String PUBLIC_KEY_FILE = "audit-signing-key.pub.pem";

  private final KeyPair keys;
  private final String keyId;

  private DigestSigner(KeyPair keys) {
    this.keys = keys;
    this.keyId = Ed25519Keys.keyId(keys.getPublic());
  }

  /** From the text of a PKCS#8 {@code PRIVATE KEY} PEM. */
  public static DigestSigner fromPem(String privateKeyPem) {
    return new DigestSigner(Ed25519Keys.fromPrivatePem(privateKeyPem));
  }

  public static DigestSigner fromPemFile(Path privateKeyPem) {
    try {
      return fromPem(Files.readString(privateKeyPem, StandardCharsets.US_ASCII));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the audit signing key " + privateKeyPem, e);
    }
  }

  /**
   * For dev: the key in {@code dir/audit-signing-key.pem}, generated first if absent (mode 0600),
   * with its public key written beside it as {@code audit-signing-key.pub.pem}.
   */
  public static DigestSigner loadOrGenerate(Path dir) {
    var privateFile = dir.resolve(PRIVATE_KEY_FILE);
    try {
      if (!Files.exists(privateFile)) {
        var generated = new DigestSigner(Ed25519Keys.generate());
        OwnerOnlyFiles.write(
            privateFile,
            Ed25519Keys.privatePem(generated.keys.getPrivate())
                .getBytes(StandardCharsets.US_ASCII));
        Files.writeString(dir.resolve(PUBLIC_KEY_FILE), generated.publicKeyPem());
        return generated;
      }
      return fromPemFile(privateFile);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create the audit signing key in " + dir, e);
    }
  }

  /** Hex SHA-256 of the public key (X.509 DER). */
  public String keyId() {
    return keyId;
  }

  public PublicKey publicKey() {
    return keys.getPublic();
  }

  /** The public key as an X.509 {@code PUBLIC KEY} PEM, for auditors. */
  public String publicKeyPem() {
    return Ed25519Keys.publicPem(keys.getPublic());
  }

  /** A verifier for this signer's own key. */
  public DigestVerifier verifier() {
    return new DigestVerifier(keys.getPublic());
  }

  /**
   * Signs that events {@code fromSeq..toSeq} end in {@code lastHash}.
   *
   * @param previousDigestSignature the signature of the digest ending at {@code fromSeq - 1}, or
   *     null if this is the first
   */
  public AuditDigest sign(
      long fromSeq, long toSeq, String lastHash, String previousDigestSignature, Instant time) {
    var unsigned =
        new AuditDigest(fromSeq, toSeq, lastHash, previousDigestSignature, time, keyId, "");
    var signature = Hex.encode(sign(CanonicalJson.bytes(unsigned.signedTree())));
    return new AuditDigest(
        fromSeq, toSeq, lastHash, previousDigestSignature, unsigned.time(), keyId, signature);
  }

  /**
   * The digest after {@code previous} (null: the first) up to the chain's head. The caller has
   * checked with {@link DigestPolicy} that one is due and that the head moved on.
   */
  public AuditDigest next(AuditDigest previous, long headSeq, String headHash, Instant time) {
    long from = previous == null ? 1 : previous.toSeq() + 1;
    Objects.requireNonNull(headHash, "headHash");
    return sign(from, headSeq, headHash, previous == null ? null : previous.signature(), time);
  }

  byte[] sign(byte[] data) {
    try {
      var signature = Signature.getInstance("Ed25519");
      signature.initSign(keys.getPrivate());
      signature.update(data);
      return signature.sign();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("Ed25519 signing failed", e);
    }
  }
}
