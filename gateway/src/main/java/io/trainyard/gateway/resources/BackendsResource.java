package io.trainyard.gateway.resources;

import io.trainyard.gateway.api.BackendList;
import io.trainyard.gateway.backends.BackendLoad;
import io.trainyard.gateway.backends.BackendRegistry;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * {@code GET /v1/backends}: the configured backends, whether each can take work now, the jobs on
 * each and what they hold, and the price catalog's age.
 */
@Path("/v1/backends")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({"trainer", "team-admin", "platform-admin"})
public final class BackendsResource {
  private final BackendRegistry backends;
  private final BackendLoad load;

  public BackendsResource(BackendRegistry backends, BackendLoad load) {
    this.backends = backends;
    this.load = load;
  }

  @GET
  public BackendList list() {
    var now = load.read();
    return new BackendList(
        backends.all().stream()
            .map(
                e -> {
                  // The cache: a trainer's call never probes a backend.
                  var id = e.config().id();
                  var health = backends.health(id);
                  return new BackendList.Backend(
                      id,
                      e.backend().kind(),
                      e.config().region(),
                      e.config().hipaaEligible(),
                      health.healthy(),
                      health.message(),
                      now.jobs(id),
                      now.capacity(id),
                      now.catalog(),
                      new BackendList.Health(
                          health.healthy(), health.healthy() ? null : health.message()));
                })
            .toList());
  }
}
