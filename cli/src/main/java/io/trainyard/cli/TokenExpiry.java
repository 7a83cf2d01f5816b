package io.trainyard.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

/**
 * When a bearer token says it expires ({@code exp} of a JWT's payload), read without checking the
 * signature: only to tell the user why the gateway refused it, never to decide anything. Never
 * prints or keeps the token.
 */
final class TokenExpiry {
  private TokenExpiry() {}

  static Optional<Instant> of(String token, ObjectMapper json) {
    if (token == null) {
      return Optional.empty();
    }
    String[] parts = token.split("\\.", -1);
    if (parts.length != 3) {
      return Optional.empty();
    }
    try {
      byte[] payload = Base64.getUrlDecoder().decode(parts[1]);
      var exp = json.readTree(new String(payload, StandardCharsets.UTF_8)).get("exp");
      return exp != null && exp.isNumber()
          ? Optional.of(Instant.ofEpochSecond(exp.asLong()))
          : Optional.empty();
    } catch (IllegalArgumentException | IOException e) {
      return Optional.empty();
    }
  }
}
