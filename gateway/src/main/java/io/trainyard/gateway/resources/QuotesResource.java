package io.trainyard.gateway.resources;

import io.trainyard.gateway.algorithms.AlgorithmExpander;
import io.trainyard.gateway.api.QuoteResponse;
import io.trainyard.gateway.auth.Caller;
import io.trainyard.gateway.jobs.JobService;
import io.trainyard.gateway.jobs.SpecReader;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import java.io.InputStream;

/** {@code POST /v1/quotes}: the decision table for a job, submitting nothing. */
@Path("/v1/quotes")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({"trainer", "team-admin", "platform-admin"})
public final class QuotesResource {
  private final JobService jobs;
  private final SpecReader reader;
  private final AlgorithmExpander algorithms;

  public QuotesResource(JobService jobs, SpecReader reader, AlgorithmExpander algorithms) {
    this.jobs = jobs;
    this.reader = reader;
    this.algorithms = algorithms;
  }

  @POST
  public QuoteResponse quote(InputStream body, @Context SecurityContext security) {
    var caller = Caller.of(security);
    var job = reader.read(reader.readBody(body), algorithms.forCaller(caller));
    var quote = jobs.quote(caller, job);
    return new QuoteResponse(null, quote.team(), quote.decision(), quote.warnings());
  }
}
