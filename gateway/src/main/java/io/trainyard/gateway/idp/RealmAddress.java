package io.trainyard.gateway.idp;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a Keycloak realm lives: the server's base URL and the realm's name. A Keycloak issuer is
 * {@code <serverUrl>/realms/<realm>}, which is how the defaults of {@code bootstrap-idp} and of
 * {@code auth.keycloakAdmin} are found from {@code auth.issuer}.
 *
 * @param serverUrl e.g. {@code https://sso.example.com}, without a trailing slash
 * @param realm e.g. {@code training}
 */
public record RealmAddress(String serverUrl, String realm) {
  private static final String REALMS = "/realms/";

  public RealmAddress {
    Objects.requireNonNull(serverUrl, "serverUrl");
    Objects.requireNonNull(realm, "realm");
    var uri = URI.create(serverUrl);
    if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
        || uri.getHost() == null) {
      throw new IllegalArgumentException(
          "Keycloak's URL must be http(s)://host[:port]: " + serverUrl);
    }
    if (realm.isBlank() || realm.contains("/")) {
      throw new IllegalArgumentException("not a realm name: '" + realm + "'");
    }
    serverUrl = serverUrl.replaceAll("/+$", "");
  }

  /** The server and realm of a Keycloak issuer URL, or empty if it is not shaped like one. */
  public static Optional<RealmAddress> fromIssuer(String issuer) {
    if (issuer == null) {
      return Optional.empty();
    }
    int at = issuer.lastIndexOf(REALMS);
    if (at <= 0) {
      return Optional.empty();
    }
    String realm = issuer.substring(at + REALMS.length()).replaceAll("/+$", "");
    try {
      return Optional.of(new RealmAddress(issuer.substring(0, at), realm));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** The {@code iss} of this realm's tokens. */
  public String issuer() {
    return serverUrl + REALMS + realm;
  }
}
