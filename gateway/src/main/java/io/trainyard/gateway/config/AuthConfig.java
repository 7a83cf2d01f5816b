package io.trainyard.gateway.config;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * How callers are authenticated. {@code dev}: the gateway is its own token issuer (loopback only,
 * never with PostgreSQL). {@code oidc}: tokens from the company IdP, verified against its JWKS.
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

  /** The issuer in force: the configured one, or the dev issuer's in dev mode. */
  public String effectiveIssuer() {
    return mode == Mode.DEV && (issuer == null || issuer.isBlank()) ? DEV_ISSUER : issuer;
  }
}
