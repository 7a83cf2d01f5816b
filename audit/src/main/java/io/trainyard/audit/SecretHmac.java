package io.trainyard.audit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Evidence of a secret value without the value: {@code hmac:<hex HMAC-SHA256(key, UTF-8 value)>}.
 * Whoever holds the key can tell whether a candidate value is the one that was used (as Vault's
 * audit devices allow with {@code sys/audit-hash}); nobody can recover it, nor test guesses, from
 * the audit log alone, which a plain hash of a short secret would allow. Thread-safe.
 *
 * <p>The key comes from configuration (base64, at least 32 bytes); in dev it is generated into a
 * file readable by the owner only. Changing the key makes old evidence unverifiable, not invalid.
 */
public final class SecretHmac {
  /** What every evidence value starts with, so that it is recognised and never hashed twice. */
  public static final String PREFIX = "hmac:";

  private static final int MIN_KEY_BYTES = 32;

  private final SecretKeySpec key;

  public SecretHmac(byte[] key) {
    if (key == null || key.length < MIN_KEY_BYTES) {
      throw new IllegalArgumentException("the audit HMAC key needs at least 32 bytes");
    }
    this.key = new SecretKeySpec(key.clone(), "HmacSHA256");
  }

  /** A key as configured: base64 (standard or URL alphabet) of at least 32 bytes. */
  public static SecretHmac fromBase64(String key) {
    var trimmed = key == null ? "" : key.trim();
    var decoder =
        trimmed.contains("-") || trimmed.contains("_")
            ? Base64.getUrlDecoder()
            : Base64.getDecoder();
    return new SecretHmac(decoder.decode(trimmed));
  }

  /**
   * The key in {@code file} (base64), written first with 32 random bytes and mode 0600 if the file
   * does not exist. For dev; a deployment configures the key.
   */
  public static SecretHmac loadOrCreate(Path file) {
    try {
      if (!Files.exists(file)) {
        var key = new byte[MIN_KEY_BYTES];
        new SecureRandom().nextBytes(key);
        OwnerOnlyFiles.write(file, Base64.getEncoder().encodeToString(key).getBytes());
      }
      return fromBase64(Files.readString(file, StandardCharsets.US_ASCII));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read or create the audit HMAC key " + file, e);
    }
  }

  /** {@code hmac:<64 hex digits>} for {@code value}. */
  public String evidence(String value) {
    return PREFIX + Hex.encode(mac(value.getBytes(StandardCharsets.UTF_8)));
  }

  /** Whether {@code evidence} was made from {@code candidate} with this key. */
  public boolean matches(String evidence, String candidate) {
    return java.security.MessageDigest.isEqual(
        evidence.getBytes(StandardCharsets.US_ASCII),
        evidence(candidate).getBytes(StandardCharsets.US_ASCII));
  }

  /** Whether {@code value} already is evidence: the prefix and 64 lower-case hex digits. */
  public static boolean isEvidence(String value) {
    return value != null
        && value.startsWith(PREFIX)
        && Hex.isHex(value.substring(PREFIX.length()), 32);
  }

  private byte[] mac(byte[] data) {
    try {
      var mac = Mac.getInstance("HmacSHA256");
      mac.init(key);
      return mac.doFinal(data);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every Java runtime has HmacSHA256", e);
    }
  }
}
