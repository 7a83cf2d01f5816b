package io.trainyard.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.KeySourceException;
import com.nimbusds.jose.crypto.factories.DefaultJWSVerifierFactory;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKMatcher;
import com.nimbusds.jose.jwk.JWKSelector;
import com.nimbusds.jose.jwk.KeyConverter;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.JWSVerificationKeySelector;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWT;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.JWTParser;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import java.security.Key;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;

/**
 * Verifies OIDC bearer access tokens locally against the issuer's keys and turns them into a {@link
 * Principal}.
 *
 * <p>Checks, in order: a signed JWT with an allow-listed asymmetric algorithm (RS256, ES256 — never
 * {@code none}, never HMAC, so a public key can never be used as a shared secret); a key from the
 * {@link JWKSource} with the token's {@code kid} that verifies the signature; {@code iss} equal to
 * the configured issuer; {@code aud} containing the configured audience (no {@code azp} fallback: a
 * token minted for another client must not open this API); {@code exp} (required) and {@code nbf}
 * within the clock skew; {@code sub} present.
 *
 * <p>A token verified once is remembered by its hash until it expires ({@link VerifiedTokens}): a
 * repeat skips parsing and the signature check, never the claim checks above nor the question
 * whether the issuer still publishes the key that signed it.
 *
 * <p>Thread-safe; one instance serves all requests. Caching and refreshing keys on an unknown
 * {@code kid} is the {@link JWKSource}'s job ({@link OidcKeySource} does both, rate limited).
 * Nothing here logs: failures are thrown as {@link TokenRejectedException}, whose message is for
 * the caller's log and never contains the token.
 */
public final class TokenVerifier {
  public static final Duration DEFAULT_CLOCK_SKEW = Duration.ofSeconds(30);
  public static final String DEFAULT_GROUPS_CLAIM = "groups";
  public static final int DEFAULT_VERIFIED_TOKENS = 10_000;

  private static final Set<JWSAlgorithm> ALLOWED_ALGORITHMS =
      Set.of(JWSAlgorithm.RS256, JWSAlgorithm.ES256);
  // RFC 9068 names access tokens "at+jwt"; Keycloak and most IdPs say "JWT" or nothing.
  private static final Set<String> ALLOWED_HEADER_TYPES =
      Set.of("jwt", "at+jwt", "application/jwt", "application/at+jwt");

  /** Converted keys kept for at most this many published keys (a few per rotation). */
  private static final int MAX_CONVERTED_KEYS = 64;

  private final JWKSource<SecurityContext> keys;
  private final JWSVerificationKeySelector<SecurityContext> keySelector;

  /**
   * The issuer's published keys as Java keys: converting them again on every request was most of
   * what a remembered token's checks cost.
   */
  private final Map<JWK, List<Key>> javaKeys = new ConcurrentHashMap<>();

  private final DefaultJWSVerifierFactory verifierFactory = new DefaultJWSVerifierFactory();
  private final String issuer;
  private final String audience;
  private final Predicate<String> isKnownTeam;
  private final String groupsClaim;
  private final Duration clockSkew;
  private final Clock clock;
  private final VerifiedTokens verified;

  private TokenVerifier(Builder builder) {
    this.keys = builder.keys;
    this.keySelector = new JWSVerificationKeySelector<>(ALLOWED_ALGORITHMS, builder.keys);
    this.issuer = builder.issuer;
    this.audience = builder.audience;
    this.isKnownTeam = builder.isKnownTeam;
    this.groupsClaim = builder.groupsClaim;
    this.clockSkew = builder.clockSkew;
    this.clock = builder.clock;
    this.verified = new VerifiedTokens(builder.verifiedTokens);
  }

  /**
   * @param keys the issuer's public keys (its JWKS)
   * @param issuer the exact {@code iss} a token must carry; must not be blank
   * @param audience the value {@code aud} must contain; must not be blank
   * @param knownTeams the team names the gateway knows; other groups in a token are ignored
   */
  public static Builder builder(
      JWKSource<SecurityContext> keys, String issuer, String audience, Set<String> knownTeams) {
    return new Builder(keys, issuer, audience, Set.copyOf(knownTeams)::contains);
  }

  /**
   * Like {@link #builder(JWKSource, String, String, Set)}, for a set of teams that can change while
   * the gateway runs.
   *
   * @param isKnownTeam whether a group name (without Keycloak's leading {@code /}) is a team the
   *     gateway knows; called on request threads, so it must be thread-safe
   */
  public static Builder builder(
      JWKSource<SecurityContext> keys,
      String issuer,
      String audience,
      Predicate<String> isKnownTeam) {
    return new Builder(keys, issuer, audience, isKnownTeam);
  }

  /**
   * Verifies a bearer token (without the {@code Bearer } prefix).
   *
   * @throws TokenRejectedException if the token is not acceptable, or the keys cannot be fetched
   *     ({@link AuthErrorCode#KEY_SOURCE_UNAVAILABLE})
   */
  public Principal verify(String token) {
    var now = clock.instant();
    var known = token == null ? null : verified.find(token.strip(), now);
    if (known != null) {
      if (stillPublished(known)) {
        checkClaims(known.claims());
        return principal(known.claims());
      }
      verified.forget(token.strip()); // and verify it afresh: the answer says why it fails now
    }
    SignedJWT jwt = parseSigned(token);
    Key key = checkSignature(jwt);
    JWTClaimsSet claims;
    try {
      claims = jwt.getJWTClaimsSet();
    } catch (ParseException e) {
      throw new TokenRejectedException(
          AuthErrorCode.TOKEN_MALFORMED, "claims are not valid JWT claims: " + e.getMessage());
    }
    checkClaims(claims);
    var expires = claims.getExpirationTime().toInstant().plus(clockSkew);
    verified.remember(
        token.strip(), new VerifiedTokens.Entry(jwt.getHeader(), key, claims, expires), now);
    return principal(claims);
  }

  /** How many verified tokens are remembered now (for tests and metrics). */
  int rememberedTokens() {
    return verified.size();
  }

  /** Whether the issuer still publishes the key that verified a remembered token. */
  private boolean stillPublished(VerifiedTokens.Entry entry) {
    try {
      // The keys the selector would pick for the token's header (its kid and algorithm), compared
      // as Java keys converted once per published key.
      var matcher = JWKMatcher.forJWSHeader(entry.header());
      if (matcher == null) {
        return false;
      }
      var published = keys.get(new JWKSelector(matcher), null);
      for (var jwk : published) {
        if (javaKeysOf(jwk).contains(entry.key())) {
          return true;
        }
      }
      return false;
    } catch (KeySourceException e) {
      throw new TokenRejectedException(
          AuthErrorCode.KEY_SOURCE_UNAVAILABLE,
          "cannot get the issuer's keys: " + e.getMessage(),
          e);
    }
  }

  private List<Key> javaKeysOf(JWK jwk) {
    var known = javaKeys.get(jwk);
    if (known != null) {
      return known;
    }
    if (javaKeys.size() >= MAX_CONVERTED_KEYS) {
      javaKeys.clear(); // keys rotated many times over: keep only those in use from now on
    }
    var converted = List.copyOf(KeyConverter.toJavaKeys(List.of(jwk)));
    javaKeys.put(jwk, converted);
    return converted;
  }

  private static SignedJWT parseSigned(String token) {
    if (token == null || token.isBlank()) {
      throw new TokenRejectedException(AuthErrorCode.TOKEN_MALFORMED, "empty token");
    }
    JWT jwt;
    try {
      jwt = JWTParser.parse(token.strip());
    } catch (ParseException e) {
      throw new TokenRejectedException(
          AuthErrorCode.TOKEN_MALFORMED, "not a JWT: " + e.getMessage());
    }
    if (jwt instanceof PlainJWT) {
      throw new TokenRejectedException(
          AuthErrorCode.TOKEN_ALGORITHM_REFUSED, "unsecured token (alg none)");
    }
    if (!(jwt instanceof SignedJWT signed)) {
      throw new TokenRejectedException(
          AuthErrorCode.TOKEN_MALFORMED, "encrypted token; a signed access token is expected");
    }
    return signed;
  }

  /** The key that verifies {@code jwt}'s signature. */
  private Key checkSignature(SignedJWT jwt) {
    JWSHeader header = jwt.getHeader();
    // Checked before any key lookup, so a forged header cannot make us fetch or try keys.
    if (!ALLOWED_ALGORITHMS.contains(header.getAlgorithm())) {
      throw new TokenRejectedException(
          AuthErrorCode.TOKEN_ALGORITHM_REFUSED,
          "algorithm " + header.getAlgorithm() + " is not allowed");
    }
    JOSEObjectType type = header.getType();
    if (type != null && !ALLOWED_HEADER_TYPES.contains(type.getType().toLowerCase(Locale.ROOT))) {
      throw new TokenRejectedException(
          AuthErrorCode.TOKEN_TYPE_REFUSED, "header typ " + type + " is not a JWT");
    }
    List<Key> keys;
    try {
      keys = keySelector.selectJWSKeys(header, null);
    } catch (KeySourceException e) {
      throw new TokenRejectedException(
          AuthErrorCode.KEY_SOURCE_UNAVAILABLE,
          "cannot get the issuer's keys: " + e.getMessage(),
          e);
    }
    if (keys.isEmpty()) {
      throw new TokenRejectedException(
          AuthErrorCode.TOKEN_KEY_UNKNOWN,
          "no " + header.getAlgorithm() + " key with kid " + header.getKeyID());
    }
    JOSEException unusable = null;
    for (Key key : keys) {
      try {
        if (jwt.verify(verifierFactory.createJWSVerifier(header, key))) {
          return key;
        }
      } catch (JOSEException e) {
        // A key unfit for the algorithm (say, a short RSA key) cannot vouch for the token.
        unusable = e;
      }
    }
    throw new TokenRejectedException(
        AuthErrorCode.TOKEN_SIGNATURE_INVALID,
        "signature does not verify with key " + header.getKeyID(),
        unusable);
  }

  private void checkClaims(JWTClaimsSet claims) {
    if (!issuer.equals(claims.getIssuer())) {
      throw new TokenRejectedException(
          AuthErrorCode.TOKEN_ISSUER_MISMATCH,
          "issuer " + claims.getIssuer() + " is not " + issuer);
    }
    if (!claims.getAudience().contains(audience)) {
      throw new TokenRejectedException(
          AuthErrorCode.TOKEN_AUDIENCE_MISMATCH,
          "audience " + claims.getAudience() + " does not contain " + audience);
    }
    // Keycloak marks ID and refresh tokens in the payload; only access tokens open the API.
    if (claims.getClaim("typ") instanceof String typ && !typ.equalsIgnoreCase("Bearer")) {
      throw new TokenRejectedException(
          AuthErrorCode.TOKEN_TYPE_REFUSED, "token typ " + typ + " is not an access token");
    }
    checkTime(claims);
    String subject = claims.getSubject();
    if (subject == null || subject.isBlank()) {
      throw new TokenRejectedException(AuthErrorCode.TOKEN_CLAIM_MISSING, "no sub claim");
    }
  }

  private void checkTime(JWTClaimsSet claims) {
    Instant now = clock.instant();
    Date exp = claims.getExpirationTime();
    if (exp == null) {
      throw new TokenRejectedException(AuthErrorCode.TOKEN_CLAIM_MISSING, "no exp claim");
    }
    if (!now.isBefore(exp.toInstant().plus(clockSkew))) {
      throw new TokenRejectedException(
          AuthErrorCode.TOKEN_EXPIRED,
          "expired at " + exp.toInstant() + ", now " + now + ", skew " + clockSkew);
    }
    Date nbf = claims.getNotBeforeTime();
    if (nbf != null && now.isBefore(nbf.toInstant().minus(clockSkew))) {
      throw new TokenRejectedException(
          AuthErrorCode.TOKEN_NOT_YET_VALID,
          "not valid before " + nbf.toInstant() + ", now " + now + ", skew " + clockSkew);
    }
  }

  private Principal principal(JWTClaimsSet claims) {
    String subject = claims.getSubject();
    String username = stringClaim(claims, "preferred_username");
    return new Principal(
        subject,
        username != null ? username : subject,
        stringClaim(claims, "email"),
        teams(claims.getClaim(groupsClaim)),
        realmRoles(claims.getClaim("realm_access")),
        stringClaim(claims, "azp"),
        isServiceAccount(claims));
  }

  /**
   * Keycloak marks client-credentials tokens with the client's id ({@code client_id} since 25,
   * {@code clientId} before); a person's token never carries either.
   */
  private static boolean isServiceAccount(JWTClaimsSet claims) {
    return stringClaim(claims, "client_id") != null || stringClaim(claims, "clientId") != null;
  }

  // Informational claims of the wrong type are dropped rather than failing the request.
  private static String stringClaim(JWTClaimsSet claims, String name) {
    return claims.getClaim(name) instanceof String value && !value.isBlank() ? value : null;
  }

  private Set<String> teams(Object groups) {
    List<?> names =
        groups instanceof List<?> list ? list : groups == null ? List.of() : List.of(groups);
    var teams = new LinkedHashSet<String>();
    for (Object name : names) {
      if (name instanceof String group) {
        // Keycloak's group mapper writes full paths ("/nlp") when "Full group path" is on.
        String team = group.startsWith("/") ? group.substring(1) : group;
        if (isKnownTeam.test(team)) {
          teams.add(team);
        }
      }
    }
    return teams;
  }

  private static Set<Role> realmRoles(Object realmAccess) {
    var roles = EnumSet.noneOf(Role.class);
    if (realmAccess instanceof Map<?, ?> access && access.get("roles") instanceof List<?> names) {
      for (Object name : names) {
        if (name instanceof String roleName) {
          Role.fromName(roleName).ifPresent(roles::add);
        }
      }
    }
    return roles;
  }

  /** Options of a {@link TokenVerifier}; the defaults suit Keycloak. */
  public static final class Builder {
    private final JWKSource<SecurityContext> keys;
    private final String issuer;
    private final String audience;
    private final Predicate<String> isKnownTeam;
    private String groupsClaim = DEFAULT_GROUPS_CLAIM;
    private Duration clockSkew = DEFAULT_CLOCK_SKEW;
    private Clock clock = Clock.systemUTC();
    private int verifiedTokens = DEFAULT_VERIFIED_TOKENS;

    private Builder(
        JWKSource<SecurityContext> keys,
        String issuer,
        String audience,
        Predicate<String> isKnownTeam) {
      this.keys = Objects.requireNonNull(keys, "keys");
      this.issuer = requireText(issuer, "issuer");
      this.audience = requireText(audience, "audience");
      this.isKnownTeam = Objects.requireNonNull(isKnownTeam, "isKnownTeam");
    }

    /** The claim holding the caller's groups; default {@code groups}. */
    public Builder groupsClaim(String groupsClaim) {
      this.groupsClaim = requireText(groupsClaim, "groupsClaim");
      return this;
    }

    /** Tolerated clock difference with the issuer for {@code exp} and {@code nbf}; default 30 s. */
    public Builder clockSkew(Duration clockSkew) {
      if (clockSkew.isNegative()) {
        throw new IllegalArgumentException("clockSkew must not be negative: " + clockSkew);
      }
      this.clockSkew = clockSkew;
      return this;
    }

    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * How many verified tokens are remembered (by hash, until they expire) so a repeat skips the
     * signature check; default {@value TokenVerifier#DEFAULT_VERIFIED_TOKENS}, 0 for none.
     */
    public Builder verifiedTokens(int verifiedTokens) {
      if (verifiedTokens < 0) {
        throw new IllegalArgumentException("verifiedTokens must be 0 or more: " + verifiedTokens);
      }
      this.verifiedTokens = verifiedTokens;
      return this;
    }

    public TokenVerifier build() {
      return new TokenVerifier(this);
    }

    private static String requireText(String value, String name) {
      if (value == null || value.isBlank()) {
        throw new IllegalArgumentException(name + " must not be blank");
      }
      return value;
    }
  }
}
