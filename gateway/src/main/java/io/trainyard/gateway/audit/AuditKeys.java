package io.trainyard.gateway.audit;

import io.trainyard.audit.DigestKeyRing;
import io.trainyard.audit.DigestSigner;
import io.trainyard.audit.SecretHmac;
import io.trainyard.gateway.config.AuditConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The audit trail's keys: the Ed25519 key that signs digests and exports, the HMAC key of secret
 * evidence, and the public keys of signing keys rotated out (their digests stay verifiable). A
 * deployment configures the first two; dev mode generates them once into {@code <dataDir>/audit/}
 * (owner-only files), so that a restarted dev gateway keeps its chain verifiable.
 *
 * @param previousKeys public keys of earlier signing keys; null when there were none
 */
public record AuditKeys(DigestSigner signer, SecretHmac hmac, DigestKeyRing previousKeys) {
  public AuditKeys {
    Objects.requireNonNull(signer, "signer");
    Objects.requireNonNull(hmac, "hmac");
  }

  /**
   * @param dev whether missing keys may be generated
   * @throws IllegalStateException naming the setting when a key is missing outside dev mode
   */
  public static AuditKeys load(AuditConfig config, Path dataDir, boolean dev) {
    var dir = dataDir.resolve("audit");
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + dir, e);
    }
    DigestSigner signer;
    if (config.getSigningKeyFile() != null) {
      signer = DigestSigner.fromPemFile(Path.of(config.getSigningKeyFile()));
    } else if (dev) {
      signer = DigestSigner.loadOrGenerate(dir);
    } else {
      throw new IllegalStateException(
          "audit.signingKeyFile is required outside dev mode: an Ed25519 PKCS#8 PEM key"
              + " (openssl genpkey -algorithm ed25519 -out audit-signing-key.pem)");
    }
    SecretHmac hmac;
    if (config.getHmacKey() != null && !config.getHmacKey().isBlank()) {
      hmac = SecretHmac.fromBase64(config.getHmacKey());
    } else if (config.getHmacKeyFile() != null) {
      hmac = SecretHmac.fromBase64(read(Path.of(config.getHmacKeyFile())));
    } else if (dev) {
      hmac = SecretHmac.loadOrCreate(dir.resolve("hmac.key"));
    } else {
      throw new IllegalStateException(
          "audit.hmacKey or audit.hmacKeyFile is required outside dev mode: base64 of 32 random"
              + " bytes (openssl rand -base64 32)");
    }
    return new AuditKeys(signer, hmac, previousKeys(config));
  }

  private static DigestKeyRing previousKeys(AuditConfig config) {
    DigestKeyRing ring = null;
    for (var file : config.getPreviousSigningPublicKeyFiles()) {
      String pem;
      try {
        pem = Files.readString(Path.of(file), StandardCharsets.US_ASCII);
      } catch (IOException e) {
        throw new UncheckedIOException(
            "cannot read audit.previousSigningPublicKeyFiles entry " + file, e);
      }
      DigestKeyRing keys;
      try {
        keys = DigestKeyRing.fromPem(pem);
      } catch (RuntimeException e) {
        throw new IllegalStateException(
            "audit.previousSigningPublicKeyFiles: "
                + file
                + " is not a PEM Ed25519 public key: "
                + e.getMessage(),
            e);
      }
      ring = ring == null ? keys : ring.and(keys);
    }
    return ring;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the audit HMAC key " + file, e);
    }
  }
}
