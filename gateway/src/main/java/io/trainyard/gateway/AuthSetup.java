package io.trainyard.gateway;

import com.nimbusds.jose.jwk.source.JWKSourceBuilder;
import io.trainyard.auth.DevIssuer;
import io.trainyard.auth.TokenVerifier;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.jobs.TeamDirectory;
import java.net.MalformedURLException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Optional;

/**
 * Builds the token verifier for the configured mode. Dev and OIDC tokens go through the very same
 * {@link TokenVerifier}; only where the keys come from differs.
 */
final class AuthSetup {
  private final TokenVerifier verifier;
  private final DevIssuer devIssuer;

  AuthSetup(AuthConfig auth, Path dataDir, TeamDirectory teams, Clock clock) {
    var issuer = auth.effectiveIssuer();
    if (auth.getMode() == AuthConfig.Mode.DEV) {
      devIssuer = DevIssuer.loadOrCreate(dataDir, issuer);
      verifier =
          TokenVerifier.builder(devIssuer.jwkSource(), issuer, auth.getAudience(), teams::knows)
              .groupsClaim(auth.getTeamsClaim())
              .clock(clock)
              .build();
    } else {
      devIssuer = null;
      var keys = JWKSourceBuilder.create(jwksUrl(auth)).build();
      verifier =
          TokenVerifier.builder(keys, issuer, auth.getAudience(), teams::knows)
              .groupsClaim(auth.getTeamsClaim())
              .clock(clock)
              .build();
    }
  }

  private static java.net.URL jwksUrl(AuthConfig auth) {
    var uri = auth.getJwksUri();
    if (uri == null || uri.isBlank()) {
      // Keycloak's layout; OIDC discovery replaces this guess with the Keycloak issue.
      uri = auth.getIssuer().replaceAll("/+$", "") + "/protocol/openid-connect/certs";
    }
    try {
      return URI.create(uri).toURL();
    } catch (MalformedURLException | IllegalArgumentException e) {
      throw new IllegalStateException("auth.jwksUri is not a URL: " + uri, e);
    }
  }

  TokenVerifier verifier() {
    return verifier;
  }

  Optional<DevIssuer> devIssuer() {
    return Optional.ofNullable(devIssuer);
  }
}
