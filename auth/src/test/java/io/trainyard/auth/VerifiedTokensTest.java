package io.trainyard.auth;

import static io.trainyard.auth.TestTokens.NOW;
import static io.trainyard.auth.TestTokens.goodClaims;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jose.util.Base64URL;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A token verified once is remembered until it expires, so a repeat skips the signature check — and
 * nothing else: the clock, the claims, the teams the gateway knows and whether the issuer still
 * publishes the signing key are checked on every request, as without the cache.
 */
class VerifiedTokensTest {
  private static final TestTokens TOKENS = new TestTokens();

  private final AtomicReference<Instant> now = new AtomicReference<>(NOW);
  private final AtomicReference<JWKSet> published = new AtomicReference<>(TOKENS.publicKeys());
  private final AtomicReference<Set<String>> teams = new AtomicReference<>(Set.of("nlp"));
  private final JWKSource<SecurityContext> keys =
      (selector, context) -> selector.select(published.get());

  private final Clock clock =
      new Clock() {
        @Override
        public ZoneId getZone() {
          return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
          return this;
        }

        @Override
        public Instant instant() {
          return now.get();
        }
      };

  private TokenVerifier verifier(int remembered) {
    return TokenVerifier.builder(
            keys, TestTokens.ISSUER, TestTokens.AUDIENCE, team -> teams.get().contains(team))
        .clock(clock)
        .verifiedTokens(remembered)
        .build();
  }

  private static String token(long expiresInSeconds) {
    return TOKENS.rs256(
        goodClaims()
            .expirationTime(Date.from(NOW.plusSeconds(expiresInSeconds)))
            .claim("groups", List.of("/nlp")));
  }

  @Test
  void aRepeatedTokenIsRememberedOnceAndARefusedOneNever() {
    var verifier = verifier(100);
    var token = token(300);
    verifier.verify(token);
    verifier.verify(token);
    verifier.verify(" " + token + " ");
    assertThat(verifier.rememberedTokens()).isEqualTo(1);

    catchThrowableOfType(TokenRejectedException.class, () -> verifier.verify(forged(token)));
    assertThat(verifier.rememberedTokens()).isEqualTo(1);
    assertThat(verifier(0).rememberedTokens()).isZero();
  }

  @Test
  void aRememberedTokenStillExpires() {
    var verifier = verifier(100);
    var token = token(60);
    assertThat(verifier.verify(token).subject()).isNotBlank();

    now.set(NOW.plus(Duration.ofSeconds(60)).plus(TokenVerifier.DEFAULT_CLOCK_SKEW));
    var rejected = catchThrowableOfType(TokenRejectedException.class, () -> verifier.verify(token));
    assertThat(rejected.code()).isEqualTo(AuthErrorCode.TOKEN_EXPIRED);
    assertThat(verifier.rememberedTokens()).isZero();
  }

  @Test
  void aKeyTheIssuerNoLongerPublishesNoLongerVouchesForItsTokens() {
    var verifier = verifier(100);
    var token = token(300);
    verifier.verify(token);

    // The issuer rotates: the RSA key is gone, only the EC key is published.
    published.set(new JWKSet(TOKENS.publicKeys().getKeyByKeyId("ec-1")));
    var rejected = catchThrowableOfType(TokenRejectedException.class, () -> verifier.verify(token));
    assertThat(rejected.code()).isEqualTo(AuthErrorCode.TOKEN_KEY_UNKNOWN);
    assertThat(verifier.rememberedTokens()).isZero();

    // Published again (a rollback): the token verifies as before.
    published.set(TOKENS.publicKeys());
    assertThat(verifier.verify(token).subject()).isNotBlank();
  }

  @Test
  void teamsAreMappedOnEveryRequest() {
    var verifier = verifier(100);
    var token = token(300);
    assertThat(verifier.verify(token).teams()).containsExactly("nlp");

    teams.set(Set.of("vision")); // the team was removed from the configuration
    assertThat(verifier.verify(token).teams()).isEmpty();
  }

  @Test
  void aForgedCopyOfARememberedTokenIsRefused() {
    var verifier = verifier(100);
    var token = token(300);
    verifier.verify(token);

    var rejected =
        catchThrowableOfType(TokenRejectedException.class, () -> verifier.verify(forged(token)));
    assertThat(rejected.code()).isEqualTo(AuthErrorCode.TOKEN_SIGNATURE_INVALID);
  }

  @Test
  void rememberedTokensAreBoundedAndExpiredOnesMakeRoom() {
    var verifier = verifier(2);
    verifier.verify(token(30));
    verifier.verify(token(300));
    verifier.verify(token(301)); // full: not remembered, still verified
    assertThat(verifier.rememberedTokens()).isEqualTo(2);

    now.set(NOW.plusSeconds(30).plus(TokenVerifier.DEFAULT_CLOCK_SKEW));
    verifier.verify(token(302)); // the first has expired: it makes room
    assertThat(verifier.rememberedTokens()).isEqualTo(2);
  }

  /** The same header and signature over a payload granting more. */
  private static String forged(String token) {
    var parts = token.split("\\.");
    var payload =
        goodClaims()
            .expirationTime(Date.from(NOW.plusSeconds(300)))
            .claim("realm_access", Map.of("roles", List.of("platform-admin")))
            .build()
            .toString();
    return parts[0] + "." + Base64URL.encode(payload) + "." + parts[2];
  }
}
