package io.trainyard.cli;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A login as cached on disk: the tokens, when they run out, and where to refresh them.
 *
 * @param issuer the IdP realm that issued the tokens
 * @param clientId the public client they were issued to, needed to refresh them
 * @param tokenEndpoint where to refresh them
 * @param username who logged in, for messages
 * @param accessToken the bearer token sent to the gateway
 * @param accessTokenExpiresAt when the IdP said it expires
 * @param refreshToken the refresh token, or null if the IdP gave none
 * @param refreshTokenExpiresAt when that runs out, or null if the IdP did not say
 */
record StoredLogin(
    String issuer,
    String clientId,
    String tokenEndpoint,
    String username,
    String accessToken,
    Instant accessTokenExpiresAt,
    String refreshToken,
    Instant refreshTokenExpiresAt) {
  /** A token this close to its end is refreshed first: it could expire on the way. */
  static final Duration EARLY = Duration.ofSeconds(30);

  StoredLogin {
    Objects.requireNonNull(issuer, "issuer");
    Objects.requireNonNull(clientId, "clientId");
    Objects.requireNonNull(tokenEndpoint, "tokenEndpoint");
    Objects.requireNonNull(accessToken, "accessToken");
    Objects.requireNonNull(accessTokenExpiresAt, "accessTokenExpiresAt");
  }

  boolean accessTokenUsableAt(Instant now) {
    return now.isBefore(accessTokenExpiresAt.minus(EARLY));
  }

  boolean refreshable(Instant now) {
    return refreshToken != null
        && (refreshTokenExpiresAt == null || now.isBefore(refreshTokenExpiresAt));
  }

  @Override
  public String toString() {
    // Never the tokens: they are credentials.
    return "StoredLogin{issuer=" + issuer + ", username=" + username + "}";
  }
}
