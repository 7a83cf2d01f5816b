package io.trainyard.gateway.resources;

import io.trainyard.auth.DevIssuer;
import jakarta.annotation.security.PermitAll;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/**
 * The dev issuer's public face, served like an IdP's: discovery and JWKS. Registered only in dev
 * mode.
 */
@Path("/dev-idp")
@Produces(MediaType.APPLICATION_JSON)
public final class DevIssuerResource {
  private final DevIssuer issuer;

  public DevIssuerResource(DevIssuer issuer) {
    this.issuer = issuer;
  }

  @GET
  @Path("jwks.json")
  @PermitAll
  public Map<String, Object> jwks() {
    return issuer.publicJwks();
  }

  @GET
  @Path(".well-known/openid-configuration")
  @PermitAll
  public Map<String, Object> discovery() {
    return Map.of(
        "issuer", issuer.issuer(),
        "jwks_uri", issuer.issuer() + "/jwks.json",
        "id_token_signing_alg_values_supported", java.util.List.of("ES256"));
  }
}
