package io.trainyard.cli;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/** Proof Key for Code Exchange (RFC 7636), method S256: a one-time secret and its hash. */
final class Pkce {
  private static final SecureRandom RANDOM = new SecureRandom();

  private Pkce() {}

  /** A fresh verifier: 32 random bytes, base64url, 43 characters. */
  static String verifier() {
    var bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** BASE64URL(SHA-256(verifier)), as sent in the first request. */
  static String challenge(String verifier) {
    try {
      var digest =
          MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK always has SHA-256", e);
    }
  }
}
