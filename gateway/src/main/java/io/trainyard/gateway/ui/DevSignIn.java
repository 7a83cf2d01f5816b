package io.trainyard.gateway.ui;

import io.trainyard.auth.DevIssuer;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The dev issuer's browser sign-in: authorization code + PKCE (S256), as an IdP does it, behind a
 * one-time code the gateway prints in its log (like a notebook server's token). Whoever can read
 * the log may sign in as anyone, as with {@code dev-token}; a process that can only reach the
 * loopback port cannot. Each code works once: a sign-in, or five wrong guesses, replace it with a
 * new one, printed again.
 *
 * <p>Authorization codes live a minute and are single-use; refresh tokens are opaque, rotated on
 * use, and kept in memory only (a restart signs everyone out). Thread-safe.
 */
public final class DevSignIn {
  static final Duration CODE_LIFETIME = Duration.ofSeconds(60);
  static final Duration ACCESS_LIFETIME = Duration.ofMinutes(15);
  static final Duration REFRESH_LIFETIME = Duration.ofHours(12);
  static final int MAX_WRONG_GUESSES = 5;
  private static final Pattern CHALLENGE = Pattern.compile("[A-Za-z0-9_-]{43}");
  private static final Pattern VERIFIER = Pattern.compile("[A-Za-z0-9._~-]{43,128}");
  private static final SecureRandom RANDOM = new SecureRandom();

  /** Who signs in: the claims the dev issuer mints. */
  public record Identity(String user, Set<String> teams, Set<String> roles) {
    public Identity {
      teams = Set.copyOf(teams);
      roles = Set.copyOf(roles);
    }
  }

  /** What an authorization request asked for, checked. */
  public record Request(String clientId, URI redirectUri, String state, String codeChallenge) {}

  private record Grant(Identity identity, Request request, Instant expires) {}

  private record Refresh(Identity identity, String clientId, Instant expires) {}

  private final DevIssuer issuer;
  private final String clientId;
  private final Consumer<String> announce;
  private final Clock clock;
  private final Map<String, Grant> grants = new ConcurrentHashMap<>();
  private final Map<String, Refresh> refreshes = new ConcurrentHashMap<>();
  private String oneTimeCode;
  private int wrongGuesses;

  /**
   * @param clientId the only client the sign-in serves (the dashboard's)
   * @param announce hears each new one-time code, to print it where the operator reads the log
   */
  public DevSignIn(DevIssuer issuer, String clientId, Consumer<String> announce, Clock clock) {
    this.issuer = issuer;
    this.clientId = clientId;
    this.announce = announce;
    this.clock = clock;
    this.oneTimeCode = newOneTimeCode();
  }

  public String clientId() {
    return clientId;
  }

  /** Prints the current one-time code (at start, where the operator looks). */
  public synchronized void announce() {
    announce.accept(oneTimeCode);
  }

  private static String newOneTimeCode() {
    var bytes = new byte[12];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  private static String random() {
    var bytes = new byte[32];
    RANDOM.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /**
   * Checks an authorization request: this client, S256 PKCE, and a redirect back to the dashboard's
   * {@code /callback} on a loopback address of the port the request came in on.
   */
  public Request check(
      String responseType,
      String client,
      String redirectUri,
      String state,
      String challenge,
      String challengeMethod,
      int localPort) {
    if (!"code".equals(responseType)) {
      throw field("response_type", "must be code");
    }
    if (!clientId.equals(client)) {
      throw field("client_id", "must be " + clientId);
    }
    if (!"S256".equals(challengeMethod)) {
      throw field("code_challenge_method", "must be S256");
    }
    if (challenge == null || !CHALLENGE.matcher(challenge).matches()) {
      throw field("code_challenge", "must be a base64url SHA-256 (43 characters)");
    }
    if (state == null || state.isBlank() || state.length() > 512) {
      throw field("state", "is required (at most 512 characters)");
    }
    URI uri;
    try {
      uri = URI.create(redirectUri == null ? "" : redirectUri);
    } catch (IllegalArgumentException e) {
      throw field("redirect_uri", "is not a URL");
    }
    var host = uri.getHost();
    if (!"http".equals(uri.getScheme())
        || !("127.0.0.1".equals(host) || "localhost".equals(host) || "[::1]".equals(host))
        || uri.getPort() != localPort
        || !"/callback".equals(uri.getPath())
        || uri.getRawQuery() != null
        || uri.getRawFragment() != null) {
      throw field(
          "redirect_uri",
          "must be the dashboard's http://127.0.0.1:" + localPort + "/callback on this gateway");
    }
    return new Request(client, uri, state, challenge);
  }

  /**
   * Trades the one-time code for an authorization code; returns where to send the browser.
   *
   * @throws ApiException naming {@code code} when it is wrong (the fifth wrong guess replaces it)
   */
  public URI authorize(Request request, String offeredCode, Identity identity) {
    return authorize(request, offeredCode, identity, () -> {});
  }

  /**
   * As {@link #authorize(Request, String, Identity)}, running {@code before} (the audit record)
   * once the code is accepted and before an authorization code exists; if it throws, no code is
   * given (the one-time code is used up all the same).
   */
  public URI authorize(Request request, String offeredCode, Identity identity, Runnable before) {
    synchronized (this) {
      var offered = offeredCode == null ? "" : offeredCode.strip();
      if (!MessageDigest.isEqual(
          offered.getBytes(StandardCharsets.UTF_8), oneTimeCode.getBytes(StandardCharsets.UTF_8))) {
        if (++wrongGuesses >= MAX_WRONG_GUESSES) {
          rotate();
        }
        throw ApiException.field(
            ErrorCode.UNAUTHENTICATED,
            "one_time_code",
            "is not the code the gateway printed in its log");
      }
      rotate();
    }
    before.run();
    var code = random();
    grants.put(code, new Grant(identity, request, clock.instant().plus(CODE_LIFETIME)));
    var query =
        "code="
            + code
            + "&state="
            + java.net.URLEncoder.encode(request.state(), StandardCharsets.UTF_8);
    return URI.create(request.redirectUri() + "?" + query);
  }

  private void rotate() {
    oneTimeCode = newOneTimeCode();
    wrongGuesses = 0;
    announce.accept(oneTimeCode);
  }

  /** The token endpoint's authorization_code grant: checks the code, the client and PKCE. */
  public Tokens redeem(String code, String client, String redirectUri, String verifier) {
    var grant = code == null ? null : grants.remove(code);
    if (grant == null || grant.expires().isBefore(clock.instant())) {
      throw field("code", "is unknown, used or expired; sign in again");
    }
    if (!grant.request().clientId().equals(client)) {
      throw field("client_id", "is not the client the code was given to");
    }
    if (!grant.request().redirectUri().toString().equals(redirectUri)) {
      throw field("redirect_uri", "differs from the authorization request's");
    }
    if (verifier == null || !VERIFIER.matcher(verifier).matches()) {
      throw field("code_verifier", "must be 43 to 128 unreserved characters");
    }
    if (!s256(verifier).equals(grant.request().codeChallenge())) {
      throw field("code_verifier", "does not match the code_challenge");
    }
    return tokens(grant.identity(), client);
  }

  /** The token endpoint's refresh_token grant: the old refresh token is spent. */
  public Tokens refresh(String refreshToken, String client) {
    var refresh = refreshToken == null ? null : refreshes.remove(refreshToken);
    if (refresh == null || refresh.expires().isBefore(clock.instant())) {
      throw field("refresh_token", "is unknown, used or expired; sign in again");
    }
    if (!refresh.clientId().equals(client)) {
      throw field("client_id", "is not the client the token was given to");
    }
    return tokens(refresh.identity(), client);
  }

  private Tokens tokens(Identity identity, String client) {
    var now = clock.instant();
    refreshes.values().removeIf(r -> r.expires().isBefore(now));
    grants.values().removeIf(g -> g.expires().isBefore(now));
    var refreshToken = random();
    refreshes.put(refreshToken, new Refresh(identity, client, now.plus(REFRESH_LIFETIME)));
    var access = issuer.mint(identity.user(), identity.teams(), identity.roles(), ACCESS_LIFETIME);
    return new Tokens(access, ACCESS_LIFETIME.toSeconds(), refreshToken, identity);
  }

  /** A token endpoint answer (RFC 6749 section 5.1). */
  public record Tokens(String accessToken, long expiresIn, String refreshToken, Identity identity) {
    public Map<String, Object> toJson() {
      var json = new LinkedHashMap<String, Object>();
      json.put("access_token", accessToken);
      json.put("token_type", "Bearer");
      json.put("expires_in", expiresIn);
      json.put("refresh_token", refreshToken);
      json.put("scope", "openid");
      return json;
    }
  }

  static String s256(String verifier) {
    try {
      var digest =
          MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static ApiException field(String name, String message) {
    return ApiException.field(ErrorCode.MALFORMED, name, message);
  }
}
