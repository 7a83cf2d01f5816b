package io.trainyard.gateway.auth;

import io.trainyard.auth.Principal;
import io.trainyard.auth.Role;
import jakarta.ws.rs.core.SecurityContext;
import java.util.Objects;

/** The authenticated caller of a request, as Jersey's security context carries it. */
public record Caller(Principal principal, String sourceIp) implements java.security.Principal {
  public Caller {
    Objects.requireNonNull(principal, "principal");
  }

  @Override
  public String getName() {
    return principal.username();
  }

  public boolean has(Role role) {
    return principal.has(role);
  }

  /** The caller of a request that passed {@link AccessFeature}'s checks. */
  public static Caller of(SecurityContext context) {
    return (Caller) context.getUserPrincipal();
  }
}
