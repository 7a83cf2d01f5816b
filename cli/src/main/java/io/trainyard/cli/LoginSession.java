package io.trainyard.cli;

import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * The bearer token of the cached login ({@code trainyard login}), refreshed first when it has
 * expired or is about to. Used only when neither {@code --token} nor {@code TRAINYARD_TOKEN} gives
 * one: an explicit token always wins.
 */
final class LoginSession {
  private final Map<String, String> env;
  private final IdpClient idp;
  private final Clock clock;

  LoginSession(Map<String, String> env, IdpClient idp, Clock clock) {
    this.env = env;
    this.idp = idp;
    this.clock = clock;
  }

  /**
   * The token to send, or null when nobody has logged in.
   *
   * @throws CliException when the login has expired and cannot be refreshed
   */
  String bearerToken() {
    var cache = TokenCache.of(env);
    if (cache.isEmpty()) {
      return null;
    }
    var stored = cache.get().load();
    if (stored.isEmpty()) {
      return null;
    }
    var login = stored.get();
    var now = clock.instant();
    if (login.accessTokenUsableAt(now)) {
      return login.accessToken();
    }
    if (!login.refreshable(now)) {
      throw expired(login);
    }
    var answer =
        idp.token(
            login.tokenEndpoint(),
            Map.of(
                "grant_type", "refresh_token",
                "client_id", login.clientId(),
                "refresh_token", login.refreshToken()));
    if (!answer.ok()) {
      if ("invalid_grant".equals(answer.error())) {
        // The IdP ended the session (idle timeout, logout, revoked): only a new login helps.
        throw expired(login);
      }
      throw CliException.of(
          ExitStatus.AUTH,
          "the IdP refused to refresh the login: " + IdpClient.describe(answer.body()),
          List.of(ErrorReport.LOGIN_ADVICE));
    }
    var refreshed =
        IdpClient.login(answer, login.issuer(), login.clientId(), login.tokenEndpoint(), now);
    if (refreshed.refreshToken() == null) {
      // Not every IdP sends a new refresh token; the old one stays good.
      refreshed =
          new StoredLogin(
              refreshed.issuer(),
              refreshed.clientId(),
              refreshed.tokenEndpoint(),
              refreshed.username(),
              refreshed.accessToken(),
              refreshed.accessTokenExpiresAt(),
              login.refreshToken(),
              login.refreshTokenExpiresAt());
    }
    cache.get().save(refreshed);
    return refreshed.accessToken();
  }

  private static CliException expired(StoredLogin login) {
    return CliException.of(
        ExitStatus.AUTH,
        "your login to " + login.issuer() + " has expired; run `trainyard login` again",
        List.of());
  }
}
