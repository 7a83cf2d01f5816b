package io.trainyard.gateway.config;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.validation.constraints.NotBlank;

/**
 * The dashboard at {@code GET /} ({@code dashboard:}).
 *
 * <pre>{@code
 * dashboard:
 *   enabled: true
 *   clientId: trainyard-cli        # the IdP's public client (bootstrap-idp's --cli-client)
 *   scope: openid
 *   # only for an IdP not shaped like Keycloak (issuer/protocol/openid-connect/...):
 *   authorizationEndpoint: https://sso.example.com/authorize
 *   tokenEndpoint: https://sso.example.com/token
 *   endSessionEndpoint: https://sso.example.com/logout
 * }</pre>
 *
 * In dev mode the client is the dev issuer's own ({@code trainyard-ui}) and the endpoints are the
 * gateway's {@code /dev-idp/authorize} and {@code /dev-idp/token}.
 */
public class DashboardConfig {
  private boolean enabled = true;
  @NotBlank private String clientId = "trainyard-cli";
  @NotBlank private String scope = "openid";
  private String authorizationEndpoint;
  private String tokenEndpoint;
  private String endSessionEndpoint;

  @JsonProperty
  public boolean isEnabled() {
    return enabled;
  }

  @JsonProperty
  public void setEnabled(boolean enabled) {
    this.enabled = enabled;
  }

  @JsonProperty
  public String getClientId() {
    return clientId;
  }

  @JsonProperty
  public void setClientId(String clientId) {
    this.clientId = clientId;
  }

  @JsonProperty
  public String getScope() {
    return scope;
  }

  @JsonProperty
  public void setScope(String scope) {
    this.scope = scope;
  }

  @JsonProperty
  public String getAuthorizationEndpoint() {
    return authorizationEndpoint;
  }

  @JsonProperty
  public void setAuthorizationEndpoint(String authorizationEndpoint) {
    this.authorizationEndpoint = authorizationEndpoint;
  }

  @JsonProperty
  public String getTokenEndpoint() {
    return tokenEndpoint;
  }

  @JsonProperty
  public void setTokenEndpoint(String tokenEndpoint) {
    this.tokenEndpoint = tokenEndpoint;
  }

  @JsonProperty
  public String getEndSessionEndpoint() {
    return endSessionEndpoint;
  }

  @JsonProperty
  public void setEndSessionEndpoint(String endSessionEndpoint) {
    this.endSessionEndpoint = endSessionEndpoint;
  }
}
