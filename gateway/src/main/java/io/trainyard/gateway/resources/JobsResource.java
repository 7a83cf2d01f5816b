package io.trainyard.gateway.resources;

import io.trainyard.audit.AuditActions;
import io.trainyard.gateway.algorithms.AlgorithmExpander;
import io.trainyard.gateway.api.EventList;
import io.trainyard.gateway.api.JobList;
import io.trainyard.gateway.api.JobView;
import io.trainyard.gateway.api.QuoteResponse;
import io.trainyard.gateway.api.SubmitResponse;
import io.trainyard.gateway.audit.AuditActors;
import io.trainyard.gateway.audit.AuditEntry;
import io.trainyard.gateway.audit.AuditLog;
import io.trainyard.gateway.auth.AccessFeature;
import io.trainyard.gateway.auth.Caller;
import io.trainyard.gateway.db.JobFilter;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.db.JobSearch;
import io.trainyard.gateway.db.JobStore;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import io.trainyard.gateway.jobs.JobService;
import io.trainyard.gateway.jobs.SpecReader;
import io.trainyard.gateway.reconcile.JobLogs;
import io.trainyard.spi.LogQuery;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.StreamingOutput;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.function.Consumer;

/** The jobs API: submit, list, show, cancel, logs, events. */
@Path("/v1/jobs")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({"trainer", "team-admin", "platform-admin"})
public final class JobsResource {
  private static final int MAX_LIST = 500;
  private static final com.fasterxml.jackson.databind.ObjectMapper SPECS =
      new com.fasterxml.jackson.databind.ObjectMapper();

  private final JobService jobs;
  private final JobStore store;
  private final SpecReader reader;
  private final JobLogs logs;
  private final Consumer<JobRow> stepSoon;
  private final AuditLog audit;
  private final FollowLimits follows;
  private final AccessFeature.FailureListener denials;
  private final Clock clock;
  private final AlgorithmExpander algorithms;
  private final JobSearch search;

  /**
   * @param stepSoon told of each job submitted or cancelled, to step it at once (the reconciler)
   * @param audit where reading a job's logs is audited
   * @param follows how many log follows callers may hold on this replica, and for how long
   * @param denials hears of a cancel the caller may not make, to audit it like any refusal
   * @param algorithms expands jobs that name a registered algorithm
   * @param search the filtered, paged list
   */
  public JobsResource(
      JobService jobs,
      JobStore store,
      SpecReader reader,
      JobLogs logs,
      Consumer<JobRow> stepSoon,
      AuditLog audit,
      FollowLimits follows,
      AccessFeature.FailureListener denials,
      Clock clock,
      AlgorithmExpander algorithms,
      JobSearch search) {
    this.algorithms = algorithms;
    this.search = search;
    this.follows = follows;
    this.denials = denials;
    this.jobs = jobs;
    this.store = store;
    this.reader = reader;
    this.logs = logs;
    this.stepSoon = stepSoon;
    this.audit = audit;
    this.clock = clock;
  }

  @POST
  public Response submit(
      InputStream body,
      @HeaderParam("Idempotency-Key") String idempotencyKey,
      @QueryParam("dryRun") @DefaultValue("false") boolean dryRun,
      @Context SecurityContext security) {
    var caller = Caller.of(security);
    // Checked for a dry run too: "validate and quote" validates the whole request.
    JobService.checkIdempotencyKey(idempotencyKey);
    var job = reader.read(reader.readBody(body), algorithms.forCaller(caller));
    if (dryRun) {
      var quote = jobs.quote(caller, job);
      return Response.ok(new QuoteResponse(true, quote.team(), quote.decision(), quote.warnings()))
          .build();
    }
    var submitted = jobs.submit(caller, job, idempotencyKey);
    if (!submitted.replayed()) {
      stepSoon.accept(submitted.job());
    }
    var answer =
        new SubmitResponse(
            JobView.of(submitted.job(), clock.instant()),
            submitted.quote().warnings(),
            submitted.quote().decision());
    return Response.status(submitted.replayed() ? 200 : 201)
        .header("Location", "/v1/jobs/" + submitted.job().id())
        .entity(answer)
        .build();
  }

  /**
   * The caller's visible jobs, newest first, filtered ({@link JobListQuery}), a page at a time:
   * {@code next} continues with the same filters. Auditors read every team's list (never act).
   */
  @GET
  @RolesAllowed({"trainer", "team-admin", "platform-admin", "auditor"})
  public JobList list(
      @QueryParam("state") List<String> states,
      @QueryParam("limit") @DefaultValue("100") int limit,
      @QueryParam("team") String team,
      @QueryParam("backend") String backend,
      @QueryParam("algorithm") String algorithm,
      @QueryParam("owner") String owner,
      @QueryParam("since") String since,
      @QueryParam("until") String until,
      @QueryParam("cursor") String cursor,
      @Context SecurityContext security) {
    if (limit < 1 || limit > MAX_LIST) {
      throw ApiException.field(ErrorCode.MALFORMED, "limit", "must be between 1 and " + MAX_LIST);
    }
    var asked = JobListQuery.parse(states, team, backend, algorithm, owner, since, until);
    var after = JobListQuery.position(cursor, asked);
    var rows = search.page(JobListQuery.visibleTo(Caller.of(security), asked), after, limit);
    var now = clock.instant();
    String next = null;
    if (rows.size() == limit) {
      var last = rows.get(rows.size() - 1);
      next = JobListQuery.cursor(asked, new JobFilter.Position(last.createdAt(), last.id()));
    }
    return new JobList(rows.stream().map(j -> JobView.of(j, now)).toList(), next);
  }

  @GET
  @Path("{id}")
  public JobView get(@PathParam("id") String id, @Context SecurityContext security) {
    return JobView.of(jobs.get(Caller.of(security), id), clock.instant());
  }

  @DELETE
  @Path("{id}")
  public Response cancel(@PathParam("id") String id, @Context SecurityContext security) {
    var caller = Caller.of(security);
    JobRow job;
    try {
      job = jobs.cancel(caller, id);
    } catch (ApiException e) {
      if (e.code() == ErrorCode.FORBIDDEN) {
        denials.denied(caller, "DELETE /v1/jobs/" + id, "the job's submitter or its team-admin");
      }
      throw e;
    }
    stepSoon.accept(job);
    return Response.status(job.state().isTerminal() ? 200 : 202)
        .entity(JobView.of(job, clock.instant()))
        .build();
  }

  @GET
  @Path("{id}/events")
  public EventList events(@PathParam("id") String id, @Context SecurityContext security) {
    var job = jobs.get(Caller.of(security), id);
    return new EventList(store.events(job.id()).stream().map(EventList.Event::of).toList());
  }

  /**
   * The job's logs as text, one line per log line prefixed with its replica. With {@code
   * follow=true} the answer streams until the job ends.
   */
  @GET
  @Path("{id}/logs")
  @Produces(MediaType.TEXT_PLAIN + ";charset=utf-8")
  public StreamingOutput logs(
      @PathParam("id") String id,
      @QueryParam("follow") @DefaultValue("false") boolean follow,
      @QueryParam("replica") String replica,
      @QueryParam("since") String since,
      @Context SecurityContext security) {
    var caller = Caller.of(security);
    var job = jobs.get(caller, id);
    checkReplica(job, replica);
    var query = new LogQuery(replica, parseSince(since), follow);
    // Taken before anything is written, given back when the stream ends however it ends.
    var permit = follow ? follows.acquire(caller.principal().subject()) : null;
    try {
      // Logs can hold anything a job printed: who read them is evidence, written before a byte.
      var details = new LinkedHashMap<String, Object>();
      details.put("follow", follow);
      details.put("replica", replica);
      details.put("since", since);
      details.put("attempt", job.attempt());
      audit.record(
          AuditEntry.builder(
                  clock.instant(), AuditActors.of(caller), AuditActions.JOB_LOGS, "job/" + job.id())
              .team(job.team())
              .backend(job.backendId())
              .details(details)
              .build());
    } catch (RuntimeException e) {
      if (permit != null) {
        permit.close();
      }
      throw e;
    }
    return out -> {
      try {
        if (follow) {
          out.flush(); // the answer's head now: a quiet job's follower sees it is connected
        }
        var writer = new OutputStreamWriter(out, StandardCharsets.UTF_8);
        logs.stream(
            job,
            query,
            line -> {
              writer.write(line);
              writer.write('\n');
              writer.flush();
            },
            follows.settings().maxDuration(),
            follows.settings().heartbeat());
        writer.flush();
      } finally {
        if (permit != null) {
          permit.close();
        }
      }
    };
  }

  /**
   * Refuses a replica the job cannot have: one named {@code <role>-<index>} for a role of its spec
   * and an index below the role's replicas (an elastic job's most), as every backend names them.
   */
  static void checkReplica(JobRow job, String replica) {
    if (replica == null) {
      return;
    }
    com.fasterxml.jackson.databind.JsonNode spec;
    try {
      spec = SPECS.readTree(job.specJson()).path("spec");
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      return; // a stored spec is always JSON; nothing to hold the name to if not
    }
    var grows = spec.path("elastic").path("maxReplicas").asInt(0);
    var names = new java.util.ArrayList<String>();
    spec.path("replicas")
        .properties()
        .forEach(
            role -> {
              int count = Math.max(role.getValue().asInt(0), grows);
              for (int i = 0; i < count; i++) {
                names.add(role.getKey() + "-" + i);
              }
            });
    if (!names.contains(replica)) {
      var listed = names.size() <= 8 ? names : names.subList(0, 8);
      throw ApiException.field(
          ErrorCode.NOT_FOUND,
          "replica",
          "names no replica of job "
              + job.id()
              + "; its replicas are "
              + String.join(", ", listed)
              + (listed.size() < names.size() ? " and " + (names.size() - 8) + " more" : ""));
    }
  }

  private static Instant parseSince(String since) {
    if (since == null || since.isBlank()) {
      return null;
    }
    try {
      return Instant.parse(since);
    } catch (DateTimeParseException e) {
      throw ApiException.field(
          ErrorCode.MALFORMED, "since", "must be an instant such as 2026-11-30T10:00:00Z");
    }
  }
}
