package io.trainyard.auth;

import static io.trainyard.auth.TestTokens.NOW;
import static io.trainyard.auth.TestTokens.goodClaims;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class TokenVerifierTest {
  private static final TestTokens TOKENS = new TestTokens();
  private static final Set<String> KNOWN_TEAMS = Set.of("demo", "nlp");

  private final TokenVerifier verifier = verifier(TokenVerifier.DEFAULT_GROUPS_CLAIM);

  private static TokenVerifier verifier(String groupsClaim) {
    return TokenVerifier.builder(
            new ImmutableJWKSet<>(TOKENS.publicKeys()),
            TestTokens.ISSUER,
            TestTokens.AUDIENCE,
            KNOWN_TEAMS)
        .groupsClaim(groupsClaim)
        .clock(Clock.fixed(NOW, ZoneOffset.UTC))
        .build();
  }

  private static Arguments accepted(String name, Function<TestTokens, String> token) {
    return Arguments.of(name, token, null);
  }

  private static Arguments refused(
      String name, Function<TestTokens, String> token, AuthErrorCode code) {
    return Arguments.of(name, token, code);
  }

  private static Date at(long secondsFromNow) {
    return Date.from(NOW.plusSeconds(secondsFromNow));
  }

  static Stream<Arguments> tokens() {
    return Stream.of(
        accepted("good RS256 token", t -> t.rs256(goodClaims())),
        accepted("good ES256 token", t -> t.es256(goodClaims())),
        accepted("audience as a single string", t -> t.rs256(goodClaims().audience("trainyard"))),
        accepted("header typ at+jwt", t -> t.signedBy(t.rsa, typed("at+jwt"), goodClaims())),
        accepted("no payload typ", t -> t.rs256(goodClaims().claim("typ", null))),
        accepted("no nbf", t -> t.rs256(goodClaims().notBeforeTime(null))),
        refused(
            "wrong issuer",
            t -> t.rs256(goodClaims().issuer("https://sso.example.com/realms/other")),
            AuthErrorCode.TOKEN_ISSUER_MISMATCH),
        refused(
            "issuer with a trailing slash",
            t -> t.rs256(goodClaims().issuer(TestTokens.ISSUER + "/")),
            AuthErrorCode.TOKEN_ISSUER_MISMATCH),
        refused(
            "no issuer",
            t -> t.rs256(goodClaims().issuer(null)),
            AuthErrorCode.TOKEN_ISSUER_MISMATCH),
        refused(
            "audience missing",
            t -> t.rs256(goodClaims().audience((String) null)),
            AuthErrorCode.TOKEN_AUDIENCE_MISMATCH),
        refused(
            "audience different",
            t -> t.rs256(goodClaims().audience(List.of("account", "billing"))),
            AuthErrorCode.TOKEN_AUDIENCE_MISMATCH),
        refused(
            "audience only in azp",
            t -> t.rs256(goodClaims().audience("account").claim("azp", "trainyard")),
            AuthErrorCode.TOKEN_AUDIENCE_MISMATCH),
        refused(
            "expired",
            t -> t.rs256(goodClaims().issueTime(at(-3600)).expirationTime(at(-600))),
            AuthErrorCode.TOKEN_EXPIRED),
        accepted(
            "expired 20 s ago, within the 30 s skew",
            t -> t.rs256(goodClaims().expirationTime(at(-20)))),
        refused(
            "expired exactly at the edge of the skew",
            t -> t.rs256(goodClaims().expirationTime(at(-30))),
            AuthErrorCode.TOKEN_EXPIRED),
        refused(
            "expired 31 s ago, beyond the skew",
            t -> t.rs256(goodClaims().expirationTime(at(-31))),
            AuthErrorCode.TOKEN_EXPIRED),
        refused(
            "no exp",
            t -> t.rs256(goodClaims().expirationTime(null)),
            AuthErrorCode.TOKEN_CLAIM_MISSING),
        refused(
            "not yet valid",
            t -> t.rs256(goodClaims().notBeforeTime(at(600))),
            AuthErrorCode.TOKEN_NOT_YET_VALID),
        accepted(
            "valid in 20 s, within the skew", t -> t.rs256(goodClaims().notBeforeTime(at(20)))),
        refused(
            "valid in 31 s, beyond the skew",
            t -> t.rs256(goodClaims().notBeforeTime(at(31))),
            AuthErrorCode.TOKEN_NOT_YET_VALID),
        refused(
            "alg none",
            t -> TestTokens.unsecured(goodClaims()),
            AuthErrorCode.TOKEN_ALGORITHM_REFUSED),
        refused(
            "alg NONE in capitals",
            t -> TestTokens.rawHeader("{\"alg\":\"NONE\",\"kid\":\"rsa-1\"}"),
            AuthErrorCode.TOKEN_ALGORITHM_REFUSED),
        refused(
            "HS256 signed with the public key bytes",
            t -> t.hs256WithPublicKeyBytes(goodClaims()),
            AuthErrorCode.TOKEN_ALGORITHM_REFUSED),
        refused(
            "PS256 with the issuer's own key (not allow-listed)",
            t -> t.signedBy(t.rsa, TestTokens.header(JWSAlgorithm.PS256, "rsa-1"), goodClaims()),
            AuthErrorCode.TOKEN_ALGORITHM_REFUSED),
        refused(
            "signed by another key with the same kid",
            t ->
                t.signedBy(
                    t.impostor, TestTokens.header(JWSAlgorithm.RS256, "rsa-1"), goodClaims()),
            AuthErrorCode.TOKEN_SIGNATURE_INVALID),
        refused(
            "unknown kid",
            t ->
                t.signedBy(
                    t.impostor, TestTokens.header(JWSAlgorithm.RS256, "rsa-9"), goodClaims()),
            AuthErrorCode.TOKEN_KEY_UNKNOWN),
        refused(
            "RS256 naming the EC key's kid",
            t -> t.signedBy(t.rsa, TestTokens.header(JWSAlgorithm.RS256, "ec-1"), goodClaims()),
            AuthErrorCode.TOKEN_KEY_UNKNOWN),
        refused(
            "claims altered after signing",
            t -> tamper(t.rs256(goodClaims())),
            AuthErrorCode.TOKEN_SIGNATURE_INVALID),
        refused(
            "missing sub",
            t -> t.rs256(goodClaims().subject(null)),
            AuthErrorCode.TOKEN_CLAIM_MISSING),
        refused(
            "blank sub",
            t -> t.rs256(goodClaims().subject(" ")),
            AuthErrorCode.TOKEN_CLAIM_MISSING),
        refused(
            "an ID token (payload typ ID)",
            t -> t.rs256(goodClaims().claim("typ", "ID")),
            AuthErrorCode.TOKEN_TYPE_REFUSED),
        refused(
            "header typ dpop+jwt",
            t -> t.signedBy(t.rsa, typed("dpop+jwt"), goodClaims()),
            AuthErrorCode.TOKEN_TYPE_REFUSED),
        refused(
            "exp as a string",
            t -> t.rs256(goodClaims().claim("exp", "tomorrow")),
            AuthErrorCode.TOKEN_MALFORMED),
        refused("not a JWT", t -> "not-a-token", AuthErrorCode.TOKEN_MALFORMED),
        refused("empty", t -> "", AuthErrorCode.TOKEN_MALFORMED));
  }

  private static JWSHeader typed(String type) {
    return new JWSHeader.Builder(JWSAlgorithm.RS256)
        .keyID("rsa-1")
        .type(new JOSEObjectType(type))
        .build();
  }

  /** Swaps the payload for one granting more, keeping the original signature. */
  private static String tamper(String token) {
    String[] parts = token.split("\\.");
    String forged =
        com.nimbusds.jose.util.Base64URL.encode(
                goodClaims()
                    .claim("realm_access", Map.of("roles", List.of("platform-admin")))
                    .build()
                    .toString())
            .toString();
    return parts[0] + "." + forged + "." + parts[2];
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("tokens")
  void acceptsOrRefuses(String name, Function<TestTokens, String> make, AuthErrorCode expected) {
    String token = make.apply(TOKENS);
    if (expected == null) {
      assertThat(verifier.verify(token).subject()).isNotBlank();
      return;
    }
    var rejected = catchThrowableOfType(TokenRejectedException.class, () -> verifier.verify(token));
    assertThat(rejected).as("refused").isNotNull();
    assertThat(rejected.code()).isEqualTo(expected);
    // The message goes to the log; the token is a credential and must never be in it.
    if (!token.isEmpty()) {
      assertThat(rejected).hasMessageNotContaining(token);
    }
  }

  @Test
  void mapsClaimsToThePrincipal() {
    var principal = verifier.verify(TOKENS.rs256(goodClaims()));

    assertThat(principal)
        .isEqualTo(
            new Principal(
                "6f1c2a4e-0000-4000-8000-000000000001",
                "ada",
                "ada@example.com",
                Set.of("demo"),
                Set.of(Role.TRAINER),
                "trainyard-cli"));
  }

  @Test
  void keepsOnlyKnownTeamsAndStripsKeycloakSlash() {
    var claims =
        goodClaims().claim("groups", List.of("/demo", "nlp", "/other", "/org/nlp", "", "/"));

    assertThat(verifier.verify(TOKENS.rs256(claims)).teams()).containsExactly("demo", "nlp");
  }

  @Test
  void readsGroupsFromAConfiguredClaim() {
    var claims = goodClaims().claim("groups", List.of("/demo")).claim("teams", List.of("/nlp"));

    assertThat(verifier("teams").verify(TOKENS.rs256(claims)).teams()).containsExactly("nlp");
  }

  @Test
  void knownTeamsMayBeAPredicate() {
    Predicate<String> startsWithN = team -> team.startsWith("n");
    var verifier =
        TokenVerifier.builder(
                new ImmutableJWKSet<>(TOKENS.publicKeys()),
                TestTokens.ISSUER,
                TestTokens.AUDIENCE,
                startsWithN)
            .clock(Clock.fixed(NOW, ZoneOffset.UTC))
            .build();
    var claims = goodClaims().claim("groups", List.of("/demo", "/nlp", "/ner"));

    assertThat(verifier.verify(TOKENS.rs256(claims)).teams()).containsExactly("ner", "nlp");
  }

  @Test
  void acceptsASingleGroupAsAString() {
    var claims = goodClaims().claim("groups", "/nlp");

    assertThat(verifier.verify(TOKENS.rs256(claims)).teams()).containsExactly("nlp");
  }

  @Test
  void noGroupsMeansNoTeams() {
    assertThat(verifier.verify(TOKENS.rs256(goodClaims().claim("groups", null))).teams()).isEmpty();
  }

  @Test
  void ignoresUnknownRoles() {
    var roles = List.of("offline_access", "trainer", "uma_authorization", "auditor", "Trainer");
    var claims = goodClaims().claim("realm_access", Map.of("roles", roles));

    var principal = verifier.verify(TOKENS.rs256(claims));

    assertThat(principal.roles()).containsExactlyInAnyOrder(Role.TRAINER, Role.AUDITOR);
    assertThat(principal.isPlatformAdmin()).isFalse();
  }

  @Test
  void noRealmAccessMeansNoRoles() {
    var claims = goodClaims().claim("realm_access", null);

    assertThat(verifier.verify(TOKENS.rs256(claims)).roles()).isEmpty();
  }

  @Test
  void aClientCredentialsTokenIsAServiceAccountWithItsRealmRolesAndGroups() {
    var claims =
        goodClaims()
            .claim("azp", "ci-pipeline")
            .claim("client_id", "ci-pipeline")
            .claim("preferred_username", "service-account-ci-pipeline")
            .claim("email", null);

    var principal = verifier.verify(TOKENS.rs256(claims));

    assertThat(principal.serviceAccount()).isTrue();
    assertThat(principal.client()).isEqualTo("ci-pipeline");
    assertThat(principal.username()).isEqualTo("service-account-ci-pipeline");
    assertThat(principal.roles()).containsExactly(Role.TRAINER);
    assertThat(principal.teams()).containsExactly("demo");
    assertThat(verifier.verify(TOKENS.rs256(goodClaims())).serviceAccount()).isFalse();
  }

  @Test
  void usernameFallsBackToSubject() {
    var claims = goodClaims().claim("preferred_username", null).claim("email", null);

    var principal = verifier.verify(TOKENS.rs256(claims));

    assertThat(principal.username()).isEqualTo(principal.subject());
    assertThat(principal.email()).isNull();
  }

  @Test
  void unreachableKeysAreNotTheCallersFault() {
    JWKSource<SecurityContext> down =
        (selector, context) -> {
          throw new KeySourceException("Couldn't retrieve JWKS: connection refused");
        };
    var verifier =
        TokenVerifier.builder(down, TestTokens.ISSUER, TestTokens.AUDIENCE, KNOWN_TEAMS)
            .clock(Clock.fixed(NOW, ZoneOffset.UTC))
            .build();

    assertThatThrownBy(() -> verifier.verify(TOKENS.rs256(goodClaims())))
        .isInstanceOfSatisfying(
            TokenRejectedException.class,
            e -> {
              assertThat(e.code()).isEqualTo(AuthErrorCode.KEY_SOURCE_UNAVAILABLE);
              assertThat(e.code().category()).isEqualTo(AuthErrorCode.Category.EXTERNAL);
            });
  }

  @Test
  void skewIsConfigurable() {
    var strict =
        TokenVerifier.builder(
                new ImmutableJWKSet<>(TOKENS.publicKeys()),
                TestTokens.ISSUER,
                TestTokens.AUDIENCE,
                KNOWN_TEAMS)
            .clock(Clock.fixed(NOW, ZoneOffset.UTC))
            .clockSkew(Duration.ZERO)
            .build();
    String expiredSecondsAgo = TOKENS.rs256(goodClaims().expirationTime(at(-1)));

    assertThat(verifier.verify(expiredSecondsAgo).subject()).isNotBlank();
    assertThatThrownBy(() -> strict.verify(expiredSecondsAgo))
        .isInstanceOf(TokenRejectedException.class);
  }

  @Test
  void refusesBlankConfiguration() {
    var keys = new ImmutableJWKSet<SecurityContext>(TOKENS.publicKeys());

    assertThatThrownBy(() -> TokenVerifier.builder(keys, " ", "trainyard", KNOWN_TEAMS))
        .hasMessageContaining("issuer");
    assertThatThrownBy(() -> TokenVerifier.builder(keys, TestTokens.ISSUER, "", KNOWN_TEAMS))
        .hasMessageContaining("audience");
  }

  @Test
  void principalCopiesItsSets() {
    var teams = new HashSet<>(Set.of("demo"));
    var roles = new HashSet<>(Set.of(Role.PLATFORM_ADMIN));
    var principal = new Principal("s", "u", null, teams, roles, null);

    teams.add("nlp");
    roles.clear();

    assertThat(principal.teams()).containsExactly("demo");
    assertThat(principal.has(Role.PLATFORM_ADMIN)).isTrue();
    assertThat(principal.isPlatformAdmin()).isTrue();
  }

  @Test
  void rolesByRealmRoleName() {
    assertThat(Role.fromName("team-admin")).contains(Role.TEAM_ADMIN);
    assertThat(Role.fromName("platform-admin")).contains(Role.PLATFORM_ADMIN);
    assertThat(Role.fromName("offline_access")).isEmpty();
    assertThat(Role.fromName(null)).isEmpty();
  }
}
