package io.trainyard.gateway.resources;

import io.trainyard.gateway.api.BackendList;
import io.trainyard.gateway.backends.BackendRegistry;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** {@code GET /v1/backends}: the configured backends and whether each can take work now. */
@Path("/v1/backends")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({"trainer", "team-admin", "platform-admin"})
public final class BackendsResource {
  private final BackendRegistry backends;

  public BackendsResource(BackendRegistry backends) {
    this.backends = backends;
  }

  @GET
  public BackendList list() {
    return new BackendList(
        backends.all().stream()
            .map(
                e -> {
                  // The cache: a trainer's call never probes a backend.
                  var health = backends.health(e.config().id());
                  return new BackendList.Backend(
                      e.config().id(),
                      e.backend().kind(),
                      e.config().region(),
                      e.config().hipaaEligible(),
                      health.healthy(),
                      health.message());
                })
            .toList());
  }
}
