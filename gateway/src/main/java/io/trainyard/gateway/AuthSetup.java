package io.trainyard.gateway;

import com.codahale.metrics.Gauge;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.lifecycle.Managed;
import io.trainyard.auth.DevIssuer;
import io.trainyard.auth.OidcKeySource;
import io.trainyard.auth.TokenVerifier;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.config.TeamConfig;
import io.trainyard.gateway.idp.KeycloakAdminConnection;
import io.trainyard.gateway.idp.KeycloakTeamSource;
import io.trainyard.gateway.idp.RealmAddress;
import io.trainyard.gateway.jobs.TeamDirectory;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Optional;

/**
 * Builds the token verifier for the configured mode. Dev and OIDC tokens go through the very same
 * {@link TokenVerifier}; only where the keys come from differs: the dev issuer's key in memory, or
 * the IdP's, found by OIDC discovery and cached by {@link OidcKeySource}.
 *
 * <p>Managed: with {@code auth.keycloakAdmin} set, it keeps the team directory in step with the
 * realm's group attributes from start to stop.
 */
final class AuthSetup implements Managed {
  private final TokenVerifier verifier;
  private final DevIssuer devIssuer;
  private final OidcKeySource oidcKeys;
  private final KeycloakTeamSource teamSource;

  AuthSetup(
      AuthConfig auth,
      Map<String, TeamConfig> configuredTeams,
      Path dataDir,
      TeamDirectory teams,
      OidcKeySource.FetchListener keyFetches,
      Clock clock) {
    var issuer = auth.effectiveIssuer();
    TokenVerifier.Builder builder;
    if (auth.getMode() == AuthConfig.Mode.DEV) {
      devIssuer = DevIssuer.loadOrCreate(dataDir, issuer);
      oidcKeys = null;
      builder =
          TokenVerifier.builder(devIssuer.jwkSource(), issuer, auth.getAudience(), teams::knows);
    } else {
      devIssuer = null;
      oidcKeys =
          OidcKeySource.builder(issuer)
              .jwksUri(jwksUri(auth))
              .minRefreshInterval(auth.getKeyRefreshMinInterval().toJavaDuration())
              .cacheLifetime(auth.getKeyCacheLifetime().toJavaDuration())
              .clock(clock)
              .listener(keyFetches)
              .build();
      builder = TokenVerifier.builder(oidcKeys, issuer, auth.getAudience(), teams::knows);
    }
    verifier =
        builder
            .groupsClaim(auth.getTeamsClaim())
            .clockSkew(auth.getClockSkew().toJavaDuration())
            .clock(clock)
            .build();
    teamSource = teamSource(auth, configuredTeams, teams);
  }

  private static URI jwksUri(AuthConfig auth) {
    var uri = auth.getJwksUri();
    if (uri == null || uri.isBlank()) {
      return null; // discovered from the issuer
    }
    try {
      return URI.create(uri);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException("auth.jwksUri is not a URL: " + uri, e);
    }
  }

  private static KeycloakTeamSource teamSource(
      AuthConfig auth, Map<String, TeamConfig> configuredTeams, TeamDirectory teams) {
    var admin = auth.getKeycloakAdmin();
    if (admin == null || auth.getMode() != AuthConfig.Mode.OIDC) {
      return null;
    }
    var fromIssuer = RealmAddress.fromIssuer(auth.getIssuer());
    var url =
        admin.getUrl() != null
            ? admin.getUrl()
            : fromIssuer.map(RealmAddress::serverUrl).orElse(null);
    var realm =
        admin.getRealm() != null
            ? admin.getRealm()
            : fromIssuer.map(RealmAddress::realm).orElse(null);
    if (url == null || realm == null) {
      throw new IllegalStateException(
          "auth.keycloakAdmin: set url and realm; auth.issuer is not shaped like a Keycloak"
              + " issuer (https://host/realms/NAME)");
    }
    var address = new RealmAddress(url, realm);
    var clientId = admin.getClientId() != null ? admin.getClientId() : auth.getAudience();
    return new KeycloakTeamSource(
        KeycloakAdminConnection.asClient(address, clientId, admin.getClientSecret()),
        address.realm(),
        configuredTeams,
        teams::replaceTeams,
        admin.getRefreshInterval().toJavaDuration());
  }

  /**
   * Ties this to the application's life and publishes the key fetch counts as gauges ({@code
   * auth.jwks.fetches}, {@code auth.discovery.fetches} on the admin port's {@code /metrics}).
   */
  void registerWith(Environment environment) {
    environment.lifecycle().manage(this);
    if (oidcKeys != null) {
      environment.metrics().register("auth.jwks.fetches", (Gauge<Long>) oidcKeys::jwksFetches);
      environment
          .metrics()
          .register("auth.discovery.fetches", (Gauge<Long>) oidcKeys::discoveryFetches);
    }
  }

  @Override
  public void start() {
    if (teamSource != null) {
      teamSource.start();
    }
  }

  @Override
  public void stop() {
    if (teamSource != null) {
      teamSource.close();
    }
  }

  TokenVerifier verifier() {
    return verifier;
  }

  Optional<DevIssuer> devIssuer() {
    return Optional.ofNullable(devIssuer);
  }
}
