package io.trainyard.auth;

import static io.trainyard.auth.TestTokens.goodClaims;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Rough numbers until a JMH benchmark lands in {@code bench/}: the cost of one verification with a
 * warm key cache (RS256 and ES256), and how many key-set fetches a flood of tokens with random
 * {@code kid}s causes in real time. Prints a small report; not a test.
 *
 * <p>Run: {@code mvn -B -pl auth test-compile dependency:build-classpath
 * -Dmdep.outputFile=target/cp.txt -Dmdep.includeScope=test} then {@code java -cp
 * auth/target/test-classes:auth/target/classes:$(cat auth/target/cp.txt)
 * io.trainyard.auth.VerificationCostMain [floodSeconds] [threads]}
 */
public final class VerificationCostMain {
  private VerificationCostMain() {}

  public static void main(String[] args) throws Exception {
    int floodSeconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    int threads = args.length > 1 ? Integer.parseInt(args[1]) : 4;
    var tokens = new TestTokens();
    try (var idp = new FakeIssuer(tokens.publicKeys())) {
      var keys =
          OidcKeySource.builder(idp.issuer()).minRefreshInterval(Duration.ofSeconds(1)).build();
      var verifier =
          TokenVerifier.builder(keys, idp.issuer(), TestTokens.AUDIENCE, Set.of("demo"))
              .clock(Clock.fixed(TestTokens.NOW, ZoneOffset.UTC))
              .build();
      String rs256 = tokens.rs256(goodClaims().issuer(idp.issuer()));
      String es256 = tokens.es256(goodClaims().issuer(idp.issuer()));
      verifier.verify(rs256); // warms the key cache
      System.out.printf("warm cache, one thread:%n");
      System.out.printf("  RS256  %8.1f µs/verify%n", perVerifyMicros(verifier, rs256));
      System.out.printf("  ES256  %8.1f µs/verify%n", perVerifyMicros(verifier, es256));
      flood(verifier, keys, idp, floodSeconds, threads);
    }
  }

  /** The best of five one-second rounds, after a one-second warm-up. */
  private static double perVerifyMicros(TokenVerifier verifier, String token) {
    double best = Double.MAX_VALUE;
    for (int round = 0; round < 6; round++) {
      long start = System.nanoTime();
      long deadline = start + 1_000_000_000L;
      int n = 0;
      do {
        verifier.verify(token);
        n++;
      } while (System.nanoTime() < deadline);
      if (round > 0) {
        best = Math.min(best, (System.nanoTime() - start) / 1000.0 / n);
      }
    }
    return best;
  }

  private static void flood(
      TokenVerifier verifier, OidcKeySource keys, FakeIssuer idp, int seconds, int threads)
      throws Exception {
    long fetchesBefore = idp.jwksHits();
    var refused = new AtomicLong();
    Instant end = Instant.now().plusSeconds(seconds);
    Callable<Void> attacker =
        () -> {
          while (Instant.now().isBefore(end)) {
            String forged =
                TestTokens.rawHeader(
                    "{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\"" + UUID.randomUUID() + "\"}");
            try {
              verifier.verify(forged);
            } catch (TokenRejectedException e) {
              refused.incrementAndGet();
            }
          }
          return null;
        };
    var pool = Executors.newFixedThreadPool(threads);
    List<Callable<Void>> attackers = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      attackers.add(attacker);
    }
    long start = System.nanoTime();
    for (var f : pool.invokeAll(attackers)) {
      f.get();
    }
    pool.shutdown();
    double elapsed = (System.nanoTime() - start) / 1e9;
    System.out.printf(
        "flood of random kids, %d threads, %.1f s, min refresh interval 1 s:%n"
            + "  %d tokens refused (%.0f/s), %d key-set fetches (bound: %d)%n",
        threads,
        elapsed,
        refused.get(),
        refused.get() / elapsed,
        idp.jwksHits() - fetchesBefore,
        (long) Math.ceil(elapsed) + 1);
    if (keys.jwksFetches() != idp.jwksHits()) {
      throw new IllegalStateException("fetch counts disagree");
    }
  }
}
