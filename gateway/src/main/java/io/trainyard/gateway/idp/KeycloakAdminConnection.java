package io.trainyard.gateway.idp;

import java.util.concurrent.TimeUnit;
import org.jboss.resteasy.client.jaxrs.internal.ResteasyClientBuilderImpl;
import org.keycloak.OAuth2Constants;
import org.keycloak.admin.client.JacksonProvider;
import org.keycloak.admin.client.Keycloak;
import org.keycloak.admin.client.KeycloakBuilder;

/**
 * Opens keycloak-admin-client connections. Always on an explicit RESTEasy client: the gateway's
 * classpath also holds Jersey, which would otherwise be picked as the JAX-RS client and fails
 * inside the admin client (../shared/DEPENDENCIES.md). That client must carry the admin client's
 * own {@link JacksonProvider}, as the client it builds by itself does: without it every
 * representation is sent with all its null fields, and Keycloak 26.4 refuses some of them ("unable
 * to read contents from stream", e.g. on creating a realm).
 */
public final class KeycloakAdminConnection {
  private static final int POOL_SIZE = 4;

  private KeycloakAdminConnection() {}

  /**
   * As a person with admin rights (the {@code bootstrap-idp} command), through {@code admin-cli}.
   *
   * @param loginRealm where the admin user lives, usually {@code master}
   */
  public static Keycloak asAdmin(
      String serverUrl, String loginRealm, String username, String password) {
    return KeycloakBuilder.builder()
        .serverUrl(serverUrl)
        .realm(loginRealm)
        .grantType(OAuth2Constants.PASSWORD)
        .clientId("admin-cli")
        .username(username)
        .password(password)
        .resteasyClient(restClient())
        .build();
  }

  /** As a confidential client's service account (the gateway reading group attributes). */
  public static Keycloak asClient(RealmAddress realm, String clientId, String clientSecret) {
    return KeycloakBuilder.builder()
        .serverUrl(realm.serverUrl())
        .realm(realm.realm())
        .grantType(OAuth2Constants.CLIENT_CREDENTIALS)
        .clientId(clientId)
        .clientSecret(clientSecret)
        .resteasyClient(restClient())
        .build();
  }

  private static jakarta.ws.rs.client.Client restClient() {
    return new ResteasyClientBuilderImpl()
        .register(JacksonProvider.class, 100)
        .connectionPoolSize(POOL_SIZE)
        .connectTimeout(5, TimeUnit.SECONDS)
        .readTimeout(20, TimeUnit.SECONDS)
        .build();
  }
}
