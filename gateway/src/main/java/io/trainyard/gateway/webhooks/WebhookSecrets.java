package io.trainyard.gateway.webhooks;

import io.trainyard.gateway.config.WebhooksConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Objects;
import javax.crypto.Cipher;
import javax.crypto.SecretKey;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The teams' webhook signing secrets at rest: AES-256-GCM under the gateway's key, with the
 * webhook's team and id as associated data, so a database dump alone reveals none of them and a
 * ciphertext copied onto another webhook does not decrypt. Secrets are generated here too. A secret
 * is never logged and never answered after the request that set it. Thread-safe.
 */
public final class WebhookSecrets {
  /** Generated secrets start with this, so they are recognisable when leaked (secret scanners). */
  public static final String GENERATED_PREFIX = "whsec_";

  private static final String FORMAT = "v1:";
  private static final int IV_BYTES = 12;
  private static final int TAG_BITS = 128;

  private final SecretKey key;
  private final SecureRandom random = new SecureRandom();

  public WebhookSecrets(byte[] key) {
    if (Objects.requireNonNull(key, "key").length != 32) {
      throw new IllegalArgumentException("webhooks.secretKey must be 32 bytes, base64-encoded");
    }
    this.key = new SecretKeySpec(key.clone(), "AES");
  }

  /** From {@code webhooks.secretKey} or {@code secretKeyFile}, else generated into the dataDir. */
  public static WebhookSecrets load(WebhooksConfig config, Path dataDir) {
    if (config.getSecretKey() != null && !config.getSecretKey().isBlank()) {
      return fromBase64(config.getSecretKey());
    }
    try {
      if (config.getSecretKeyFile() != null) {
        return fromBase64(Files.readString(Path.of(config.getSecretKeyFile())));
      }
      var dir = dataDir.resolve("webhooks");
      var file = dir.resolve("secret.key");
      if (!Files.exists(file)) {
        Files.createDirectories(dir);
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        var fresh = new byte[32];
        new SecureRandom().nextBytes(fresh);
        var tmp = dir.resolve("secret.key.tmp");
        Files.writeString(tmp, Base64.getEncoder().encodeToString(fresh));
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
        Files.move(tmp, file);
      }
      return fromBase64(Files.readString(file));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read or create the webhook secret key", e);
    }
  }

  static WebhookSecrets fromBase64(String key) {
    try {
      return new WebhookSecrets(Base64.getDecoder().decode(key.strip()));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "webhooks.secretKey must be base64 of 32 random bytes (openssl rand -base64 32)");
    }
  }

  /** A new secret: {@value #GENERATED_PREFIX} and 32 random bytes, base64url. */
  public String generate() {
    var bytes = new byte[32];
    random.nextBytes(bytes);
    return GENERATED_PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  public String encrypt(String team, String webhookId, String secret) {
    try {
      var iv = new byte[IV_BYTES];
      random.nextBytes(iv);
      var cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, iv));
      cipher.updateAAD(aad(team, webhookId));
      var sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
      var out = ByteBuffer.allocate(iv.length + sealed.length).put(iv).put(sealed).array();
      return FORMAT + Base64.getEncoder().encodeToString(out);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("AES-GCM is not available", e);
    }
  }

  /**
   * @throws IllegalStateException when the stored value was not encrypted with this key for this
   *     webhook (another replica's key, or a row copied between webhooks)
   */
  public String decrypt(String team, String webhookId, String stored) {
    if (stored == null || !stored.startsWith(FORMAT)) {
      throw new IllegalStateException("the stored webhook secret is not in a known format");
    }
    try {
      var all = Base64.getDecoder().decode(stored.substring(FORMAT.length()));
      var cipher = Cipher.getInstance("AES/GCM/NoPadding");
      cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, all, 0, IV_BYTES));
      cipher.updateAAD(aad(team, webhookId));
      var plain = cipher.doFinal(all, IV_BYTES, all.length - IV_BYTES);
      return new String(plain, StandardCharsets.UTF_8);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IllegalStateException(
          "the webhook secret cannot be decrypted: webhooks.secretKey differs from the key it was"
              + " stored with");
    }
  }

  private static byte[] aad(String team, String webhookId) {
    return (team + "/" + webhookId).getBytes(StandardCharsets.UTF_8);
  }
}
