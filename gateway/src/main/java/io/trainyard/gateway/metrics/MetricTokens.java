package io.trainyard.gateway.metrics;

import io.trainyard.gateway.db.MetricStore;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Jobs' metrics tokens: {@value #PREFIX} and 256 random bits, base64url. Only the SHA-256 of a
 * token is stored, beside its job; a token says which job it may post metrics for and nothing else
 * (the job's state decides whether it is still good). Thread-safe.
 */
public final class MetricTokens {
  /** Marks the token's kind, so that a leaked one is recognised (and scrubbed) as such. */
  public static final String PREFIX = "tym_";

  private static final int BYTES = 32;
  private final SecureRandom random = new SecureRandom();
  private final MetricStore store;
  private final Clock clock;

  public MetricTokens(MetricStore store, Clock clock) {
    this.store = store;
    this.clock = clock;
  }

  /** A new token for {@code jobId}'s attempt, stored hashed before it is returned. */
  public String mint(String jobId, int attempt) {
    var bytes = new byte[BYTES];
    random.nextBytes(bytes);
    var token = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    store.addToken(hash(token), jobId, attempt, clock.instant());
    return token;
  }

  /** The job {@code token} was minted for; empty for anything else. */
  public Optional<String> jobOf(String token) {
    if (token == null || !token.startsWith(PREFIX) || token.length() > 128) {
      return Optional.empty();
    }
    return store.jobOfToken(hash(token));
  }

  static String hash(String token) {
    try {
      var digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }
}
