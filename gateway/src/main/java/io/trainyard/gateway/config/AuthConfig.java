package io.trainyard.gateway.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.dropwizard.util.Duration;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;

/**
 * How callers are authenticated. {@code dev}: the gateway is its own token issuer (loopback only,
 * never with PostgreSQL). {@code oidc}: tokens from the company IdP, verified against its JWKS,
 * which is found through OIDC discovery, fetched at the first request (the gateway starts while the
 * IdP is down), cached, and fetched again on an unknown {@code kid} or when older than {@code
 * keyCacheLifetime} — but never more often than once per {@code keyRefreshMinInterval}, so forged
 * tokens cannot make the gateway hammer the IdP.
 */
public class AuthConfig {
  public enum Mode {
    @JsonProperty("dev")
    DEV,
    @JsonProperty("oidc")
    OIDC
  }

  /** The dev issuer's {@code iss}, also where its JWKS is served. */
  public static final String DEV_ISSUER = "http://127.0.0.1:8080/dev-idp";

  private Mode mode = Mode.OIDC;
  private String issuer;
  private String audience = "trainyard";
  private String teamsClaim = "groups";
  private String jwksUri;
  @NotNull private Duration keyRefreshMinInterval = Duration.seconds(30);
  @NotNull private Duration keyCacheLifetime = Duration.minutes(10);
  @NotNull private Duration clockSkew = Duration.seconds(30);
  @Valid private KeycloakAdmin keycloakAdmin;

  public Mode getMode() {
    return mode;
  }

  public void setMode(Mode mode) {
    this.mode = mode;
  }

  public String getIssuer() {
    return issuer;
  }

  public void setIssuer(String issuer) {
    this.issuer = issuer;
  }

  public String getAudience() {
    return audience;
  }

  public void setAudience(String audience) {
    this.audience = audience;
  }

  public String getTeamsClaim() {
    return teamsClaim;
  }

  public void setTeamsClaim(String teamsClaim) {
    this.teamsClaim = teamsClaim;
  }

  /** Where the issuer's keys are; defaults to OIDC discovery from the issuer. */
  public String getJwksUri() {
    return jwksUri;
  }

  public void setJwksUri(String jwksUri) {
    this.jwksUri = jwksUri;
  }

  /** At most one fetch of the issuer's keys per this interval, whatever the tokens say. */
  public Duration getKeyRefreshMinInterval() {
    return keyRefreshMinInterval;
  }

  public void setKeyRefreshMinInterval(Duration keyRefreshMinInterval) {
    this.keyRefreshMinInterval = keyRefreshMinInterval;
  }

  /** Cached keys older than this are fetched again at the next request. */
  public Duration getKeyCacheLifetime() {
    return keyCacheLifetime;
  }

  public void setKeyCacheLifetime(Duration keyCacheLifetime) {
    this.keyCacheLifetime = keyCacheLifetime;
  }

  /** Tolerated clock difference with the IdP for a token's {@code exp} and {@code nbf}. */
  public Duration getClockSkew() {
    return clockSkew;
  }

  public void setClockSkew(Duration clockSkew) {
    this.clockSkew = clockSkew;
  }

  /**
   * How to read Keycloak group attributes that override the {@code teams:} config; null (the
   * default) reads none.
   */
  public KeycloakAdmin getKeycloakAdmin() {
    return keycloakAdmin;
  }

  public void setKeycloakAdmin(KeycloakAdmin keycloakAdmin) {
    this.keycloakAdmin = keycloakAdmin;
  }

  /** The issuer in force: the configured one, or the dev issuer's in dev mode. */
  public String effectiveIssuer() {
    return mode == Mode.DEV && (issuer == null || issuer.isBlank()) ? DEV_ISSUER : issuer;
  }

  /**
   * A confidential client whose service account may read the realm's groups (Keycloak's {@code
   * realm-management} roles {@code query-groups} and {@code view-users}); {@code bootstrap-idp}
   * grants them to the gateway's client. URL and realm default to the issuer's.
   */
  public static class KeycloakAdmin {
    private String url;
    private String realm;
    private String clientId;
    @NotNull private String clientSecret;
    @NotNull private Duration refreshInterval = Duration.minutes(5);

    /** Keycloak's base URL, e.g. {@code https://sso.example.com}; default: the issuer's. */
    public String getUrl() {
      return url;
    }

    public void setUrl(String url) {
      this.url = url;
    }

    /** Default: the issuer's realm. */
    public String getRealm() {
      return realm;
    }

    public void setRealm(String realm) {
      this.realm = realm;
    }

    /** Default: the audience, which {@code bootstrap-idp} makes the gateway's client id. */
    public String getClientId() {
      return clientId;
    }

    public void setClientId(String clientId) {
      this.clientId = clientId;
    }

    /** Put it in the YAML as {@code ${ENV_VAR}}, never literally. */
    public String getClientSecret() {
      return clientSecret;
    }

    public void setClientSecret(String clientSecret) {
      this.clientSecret = clientSecret;
    }

    /** How often the group attributes are read again. */
    public Duration getRefreshInterval() {
      return refreshInterval;
    }

    public void setRefreshInterval(Duration refreshInterval) {
      this.refreshInterval = refreshInterval;
    }

    @Override
    public String toString() {
      // The secret stays out of any dump of the configuration.
      return "KeycloakAdmin{url=" + url + ", realm=" + realm + ", clientId=" + clientId + "}";
    }
  }
}
