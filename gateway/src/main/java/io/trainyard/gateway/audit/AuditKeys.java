package io.trainyard.gateway.audit;

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
 * The audit trail's two keys: the Ed25519 key that signs digests and exports, and the HMAC key of
 * secret evidence. A deployment configures both; dev mode generates them once into {@code
 * <dataDir>/audit/} (owner-only files), so that a restarted dev gateway keeps its chain verifiable.
 */
public record AuditKeys(DigestSigner signer, SecretHmac hmac) {
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
    return new AuditKeys(signer, hmac);
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the audit HMAC key " + file, e);
    }
  }
}
