package io.trainyard.gateway.resources;

import io.trainyard.cost.RoutingDecision;
import io.trainyard.gateway.auth.Caller;
import io.trainyard.gateway.jobs.JobService;
import io.trainyard.gateway.jobs.StoredJson;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

/**
 * {@code GET /v1/jobs/{id}/decision}: the routing decision the job's current attempt runs on, every
 * candidate with its price or the reason it was rejected — what {@code POST /v1/jobs} answered,
 * kept (and replaced when the queue re-quotes the job). The dashboard draws it.
 */
@Path("/v1/jobs/{id}/decision")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({"trainer", "team-admin", "platform-admin"})
public final class JobDecisionResource {
  private final JobService jobs;
  private final StoredJson json;

  public JobDecisionResource(JobService jobs, StoredJson json) {
    this.jobs = jobs;
    this.json = json;
  }

  @GET
  public RoutingDecision decision(@PathParam("id") String id, @Context SecurityContext security) {
    var job = jobs.get(Caller.of(security), id);
    return json.read(job.decisionJson(), RoutingDecision.class);
  }
}
