package io.trainyard.auth;

import static io.trainyard.auth.TestTokens.NOW;
import static io.trainyard.auth.TestTokens.goodClaims;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link OidcKeySource} against an IdP that speaks discovery and JWKS over loopback HTTP. */
class OidcKeySourceTest {
  private static final TestTokens TOKENS = new TestTokens();
  private static final Duration INTERVAL = Duration.ofSeconds(30);

  private final FakeIssuer idp = new FakeIssuer(TOKENS.publicKeys());
  private final SteppingClock clock = new SteppingClock(NOW);

  @AfterEach
  void stop() {
    idp.close();
  }

  private OidcKeySource.Builder keysOf(String issuer) {
    return OidcKeySource.builder(issuer)
        .minRefreshInterval(INTERVAL)
        .cacheLifetime(Duration.ofMinutes(10))
        .clock(clock);
  }

  private static TokenVerifier verifier(OidcKeySource keys) {
    return TokenVerifier.builder(keys, keys.issuer(), TestTokens.AUDIENCE, Set.of("demo"))
        .clock(Clock.fixed(NOW, ZoneOffset.UTC))
        .build();
  }

  private String token() {
    return TOKENS.rs256(goodClaims().issuer(idp.issuer()));
  }

  @Test
  void fetchesNothingUntilTheFirstTokenAndThenOnce() {
    var keys = keysOf(idp.issuer()).build();
    assertThat(idp.discoveryHits() + idp.jwksHits()).isZero();

    var verifier = verifier(keys);
    for (int i = 0; i < 20; i++) {
      assertThat(verifier.verify(token()).username()).isEqualTo("ada");
    }
    assertThat(verifier.verify(TOKENS.es256(goodClaims().issuer(idp.issuer()))).username())
        .isEqualTo("ada");

    assertThat(idp.discoveryHits()).isEqualTo(1);
    assertThat(idp.jwksHits()).isEqualTo(1);
    assertThat(keys.jwksFetches()).isEqualTo(1);
  }

  @Test
  void aGatewayStartedWhileTheIdpIsDownRecoversWithoutHammeringIt() {
    idp.down(true);
    var verifier = verifier(keysOf(idp.issuer()).build());

    for (int i = 0; i < 50; i++) {
      assertRejected(verifier, token(), AuthErrorCode.KEY_SOURCE_UNAVAILABLE);
    }
    assertThat(idp.discoveryHits()).as("one attempt per interval").isEqualTo(1);

    idp.down(false);
    assertRejected(verifier, token(), AuthErrorCode.KEY_SOURCE_UNAVAILABLE);
    clock.advance(INTERVAL);
    assertThat(verifier.verify(token()).username()).isEqualTo("ada");
    assertThat(idp.discoveryHits()).isEqualTo(2);
  }

  @Test
  void anUnreachableIdpIsTheIdpsFaultNotTheCallers() throws IOException {
    int closedPort;
    try (var socket = new ServerSocket(0)) {
      closedPort = socket.getLocalPort();
    }
    var issuer = "http://127.0.0.1:" + closedPort + "/realms/test";
    var verifier = verifier(keysOf(issuer).build());

    assertRejected(
        verifier, TOKENS.rs256(goodClaims().issuer(issuer)), AuthErrorCode.KEY_SOURCE_UNAVAILABLE);
  }

  @Test
  void aRotatedKeyIsFoundByRefreshingOnItsUnknownKid() throws JOSEException {
    var keys = keysOf(idp.issuer()).build();
    var verifier = verifier(keys);
    verifier.verify(token());

    RSAKey next = new RSAKeyGenerator(2048).keyID("rsa-2").generate();
    idp.publish(new JWKSet(List.of(next.toPublicJWK(), TOKENS.rsa.toPublicJWK())));
    clock.advance(INTERVAL);
    var rotated = TOKENS.signedBy(next, TestTokens.header(JWSAlgorithm.RS256, "rsa-2"), claims());

    assertThat(verifier.verify(rotated).username()).isEqualTo("ada");
    assertThat(verifier.verify(token()).username()).isEqualTo("ada");
    assertThat(idp.jwksHits()).isEqualTo(2);
    assertThat(idp.discoveryHits()).as("discovery is remembered").isEqualTo(1);
  }

  @Test
  void aNewKeyRightAfterARefreshWaitsForTheNextInterval() throws JOSEException {
    var verifier = verifier(keysOf(idp.issuer()).build());
    verifier.verify(token());
    RSAKey next = new RSAKeyGenerator(2048).keyID("rsa-2").generate();
    idp.publish(new JWKSet(next.toPublicJWK()));
    var rotated = TOKENS.signedBy(next, TestTokens.header(JWSAlgorithm.RS256, "rsa-2"), claims());

    assertRejected(verifier, rotated, AuthErrorCode.TOKEN_KEY_UNKNOWN);
    clock.advance(INTERVAL.minusSeconds(1));
    assertRejected(verifier, rotated, AuthErrorCode.TOKEN_KEY_UNKNOWN);
    clock.advance(Duration.ofSeconds(1));
    assertThat(verifier.verify(rotated).username()).isEqualTo("ada");
  }

  @Test
  void aFloodOfUnknownKidsCostsTheIdpOneFetchPerInterval() throws Exception {
    var keys = keysOf(idp.issuer()).build();
    var verifier = verifier(keys);
    verifier.verify(token());
    var refused = new AtomicInteger();
    Callable<Void> forgedRequest =
        () -> {
          // An attacker need not sign at all: the kid is looked up before any signature check.
          var forged =
              TestTokens.rawHeader(
                  "{\"alg\":\"RS256\",\"typ\":\"JWT\",\"kid\":\"" + UUID.randomUUID() + "\"}");
          try {
            verifier.verify(forged);
          } catch (TokenRejectedException e) {
            if (e.code() == AuthErrorCode.TOKEN_KEY_UNKNOWN) {
              refused.incrementAndGet();
            }
          }
          return null;
        };
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      // 10 simulated minutes: 20 intervals of 30 s, 100 forged tokens from 8 threads in each.
      for (int step = 0; step < 20; step++) {
        pool.invokeAll(Collections.nCopies(100, forgedRequest));
        clock.advance(INTERVAL);
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(refused.get()).isEqualTo(2000);
    assertThat(idp.jwksHits()).as("the first fetch and one per interval").isLessThanOrEqualTo(21);
    assertThat(keys.jwksFetches()).isEqualTo(idp.jwksHits());
  }

  @Test
  void staleKeysAreRefreshedAndKeptWhileTheIdpIsDown() {
    var verifier = verifier(keysOf(idp.issuer()).build());
    verifier.verify(token());

    idp.down(true);
    clock.advance(Duration.ofMinutes(11));
    assertThat(verifier.verify(token()).username()).isEqualTo("ada");
    assertThat(idp.jwksHits()).isEqualTo(2);

    idp.down(false);
    clock.advance(Duration.ofMinutes(1));
    verifier.verify(token());
    assertThat(idp.jwksHits()).isEqualTo(3);
  }

  @Test
  void theListenerIsToldOfEveryFetchWithItsOutcome() {
    var told = Collections.synchronizedList(new java.util.ArrayList<String>());
    var keys =
        keysOf(idp.issuer())
            .listener(
                (document, ok, took) -> {
                  assertThat(took.isNegative()).isFalse();
                  told.add(document + (ok ? " ok" : " error"));
                })
            .build();
    var verifier = verifier(keys);
    verifier.verify(token());
    verifier.verify(token()); // cached: no fetch
    idp.down(true);
    clock.advance(Duration.ofMinutes(11));
    verifier.verify(token()); // stale: fetched, failed, old keys kept

    assertThat(told).containsExactly("DISCOVERY ok", "JWKS ok", "JWKS error");
  }

  @Test
  void anUnknownKidWhileTheIdpIsDownIsTheIdpsFault() {
    var verifier = verifier(keysOf(idp.issuer()).build());
    verifier.verify(token());
    idp.down(true);
    clock.advance(INTERVAL);
    var unknown =
        TOKENS.signedBy(
            TOKENS.impostor, TestTokens.header(JWSAlgorithm.RS256, "rsa-new"), claims());

    assertRejected(verifier, unknown, AuthErrorCode.KEY_SOURCE_UNAVAILABLE);
    assertThat(verifier.verify(token()).username()).as("known keys still work").isEqualTo("ada");
  }

  @Test
  void discoveryMustNameTheSameIssuer() {
    idp.nameIssuer("https://evil.example.com/realms/test");
    var verifier = verifier(keysOf(idp.issuer()).build());

    assertRejected(verifier, token(), AuthErrorCode.KEY_SOURCE_UNAVAILABLE);
    assertThat(idp.jwksHits()).isZero();
  }

  @Test
  void aConfiguredJwksUriSkipsDiscovery() {
    var keys = keysOf(idp.issuer()).jwksUri(URI.create(idp.jwksUri())).build();

    assertThat(verifier(keys).verify(token()).username()).isEqualTo("ada");
    assertThat(idp.discoveryHits()).isZero();
    assertThat(keys.discoveryFetches()).isZero();
  }

  @Test
  void encryptionKeysInTheSetCannotVerifyTokens() throws JOSEException {
    RSAKey enc = new RSAKeyGenerator(2048).keyID("enc-1").keyUse(KeyUse.ENCRYPTION).generate();
    idp.publish(new JWKSet(List.of(enc.toPublicJWK(), TOKENS.rsa.toPublicJWK())));
    var verifier = verifier(keysOf(idp.issuer()).build());
    var signedWithEnc =
        TOKENS.signedBy(enc, TestTokens.header(JWSAlgorithm.RS256, "enc-1"), claims());

    assertRejected(verifier, signedWithEnc, AuthErrorCode.TOKEN_KEY_UNKNOWN);
    assertThat(verifier.verify(token()).username()).isEqualTo("ada");
  }

  @Test
  void refusesAnIssuerThatIsNotAnHttpUrl() {
    assertThatThrownBy(() -> OidcKeySource.builder("sso.example.com/realms/x"))
        .hasMessageContaining("http(s) URL");
    assertThatThrownBy(() -> OidcKeySource.builder("").build()).hasMessageContaining("issuer");
  }

  private com.nimbusds.jwt.JWTClaimsSet.Builder claims() {
    return goodClaims().issuer(idp.issuer());
  }

  private static void assertRejected(TokenVerifier verifier, String token, AuthErrorCode code) {
    assertThatThrownBy(() -> verifier.verify(token))
        .isInstanceOfSatisfying(
            TokenRejectedException.class, e -> assertThat(e.code()).isEqualTo(code));
  }

  /** A clock that only moves when told to. */
  static final class SteppingClock extends Clock {
    private final AtomicReference<Instant> now;

    SteppingClock(Instant start) {
      this.now = new AtomicReference<>(start);
    }

    void advance(Duration by) {
      now.updateAndGet(t -> t.plus(by));
    }

    @Override
    public Instant instant() {
      return now.get();
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }
}
