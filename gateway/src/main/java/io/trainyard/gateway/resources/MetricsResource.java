package io.trainyard.gateway.resources;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trainyard.gateway.auth.AccessFeature;
import io.trainyard.gateway.auth.Caller;
import io.trainyard.gateway.auth.SourceAddressFilter;
import io.trainyard.gateway.db.JobStore;
import io.trainyard.gateway.db.MetricStore;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import io.trainyard.gateway.jobs.JobService;
import io.trainyard.gateway.metrics.MetricBatch;
import io.trainyard.gateway.metrics.MetricPoint;
import io.trainyard.gateway.metrics.MetricSeries;
import io.trainyard.gateway.metrics.MetricTokens;
import io.trainyard.spi.spec.FieldError;
import jakarta.annotation.security.PermitAll;
import jakarta.annotation.security.RolesAllowed;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * Model metrics per epoch: jobs post theirs with their own metrics token; people read a job's
 * series and compare runs. See README "Model metrics".
 */
@Path("/v1/jobs/{id}/metrics")
@Produces(MediaType.APPLICATION_JSON)
public final class MetricsResource {
  /**
   * {@code GET /v1/metrics/compare?jobs=a,b,c&name=loss}: a root resource of its own, since Jersey
   * does not look beyond the root resource whose path matches most literally.
   */
  @Path("/v1/metrics")
  @Produces(MediaType.APPLICATION_JSON)
  public static final class Compare {
    private final MetricsResource metrics;

    public Compare(MetricsResource metrics) {
      this.metrics = metrics;
    }

    @GET
    @Path("compare")
    @RolesAllowed({"trainer", "team-admin", "platform-admin"})
    public Comparison compare(
        @QueryParam("jobs") String ids,
        @QueryParam("name") String name,
        @QueryParam("goal") String goal,
        @Context SecurityContext security) {
      return metrics.compare(ids, name, goal, security);
    }
  }

  /** The largest batch body read; more is refused before parsing. */
  static final int MAX_BODY_BYTES = 256 * 1024;

  static final int MAX_COMPARED = 20;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final JobService jobs;
  private final JobStore store;
  private final MetricStore metrics;
  private final MetricTokens tokens;
  private final AccessFeature.FailureListener failures;
  private final Clock clock;

  /**
   * @param failures hears of refused metrics tokens, aggregated like refused bearer tokens
   */
  public MetricsResource(
      JobService jobs,
      JobStore store,
      MetricStore metrics,
      MetricTokens tokens,
      AccessFeature.FailureListener failures,
      Clock clock) {
    this.jobs = jobs;
    this.store = store;
    this.metrics = metrics;
    this.tokens = tokens;
    this.failures = failures;
    this.clock = clock;
  }

  /** What a post stored: {@code stored} new points of {@code accepted} (the rest were known). */
  public record Posted(int accepted, int stored) {}

  /** A job's metrics. */
  public record JobMetrics(String jobId, String state, List<MetricSeries> metrics) {}

  /** One run in a comparison. */
  public record ComparedRun(String jobId, String name, String state, MetricSeries series) {}

  /** Runs side by side on one metric. */
  public record Comparison(String metric, String goal, List<ComparedRun> runs) {}

  /**
   * Open to the job's own metrics token only (no OIDC token is needed or taken here): the job posts
   * {@code [{name, value, step, epoch, time}]}.
   */
  @POST
  @Consumes(MediaType.APPLICATION_JSON)
  @PermitAll
  public Posted post(
      @PathParam("id") String id,
      @HeaderParam("Authorization") String authorization,
      InputStream body,
      @Context HttpServletRequest request) {
    var job = authorize(id, authorization, request);
    var points = parse(read(body));
    var stored = metrics.add(job, points, MetricStore.Source.POST);
    return new Posted(points.size(), stored);
  }

  private String authorize(String id, String authorization, HttpServletRequest request) {
    var source =
        request == null ? null : (String) request.getAttribute(SourceAddressFilter.ATTRIBUTE);
    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      failures.refused(source, "missing");
      throw ApiException.field(
          ErrorCode.UNAUTHENTICATED,
          "Authorization",
          "must be Bearer <the job's TRAINYARD_METRICS_TOKEN>");
    }
    var owner = tokens.jobOf(authorization.substring(7).trim());
    if (owner.isEmpty()) {
      failures.refused(source, "METRICS_TOKEN_UNKNOWN");
      throw ApiException.field(
          ErrorCode.UNAUTHENTICATED, "Authorization", "is not a metrics token of this gateway");
    }
    if (!owner.get().equals(id)) {
      failures.refused(source, "METRICS_TOKEN_OTHER_JOB");
      throw ApiException.field(
          ErrorCode.FORBIDDEN, "Authorization", "is the metrics token of another job");
    }
    var job =
        store.find(id).orElseThrow(() -> new ApiException(ErrorCode.NOT_FOUND, "no job " + id));
    if (job.state().isTerminal()) {
      throw ApiException.field(
          ErrorCode.FORBIDDEN,
          "Authorization",
          "has expired: job " + id + " is " + job.state() + " and takes no more metrics");
    }
    return job.id();
  }

  private static JsonNode read(InputStream body) {
    try {
      var bytes = body.readNBytes(MAX_BODY_BYTES + 1);
      if (bytes.length > MAX_BODY_BYTES) {
        throw ApiException.field(
            ErrorCode.PAYLOAD_TOO_LARGE, "body", "is over " + MAX_BODY_BYTES + " bytes");
      }
      if (bytes.length == 0) {
        throw ApiException.field(ErrorCode.MALFORMED, "body", "must be a JSON array of points");
      }
      return JSON.readTree(bytes);
    } catch (IOException e) {
      throw ApiException.field(ErrorCode.MALFORMED, "body", "is not JSON");
    }
  }

  private List<MetricPoint> parse(JsonNode body) {
    if (!body.isArray()) {
      throw ApiException.field(
          ErrorCode.MALFORMED, "body", "must be a JSON array of {name, value, step, epoch, time}");
    }
    if (body.size() > MetricBatch.MAX_POINTS) {
      throw ApiException.field(
          ErrorCode.PAYLOAD_TOO_LARGE,
          "body",
          "holds " + body.size() + " points; at most " + MetricBatch.MAX_POINTS + " per post");
    }
    var now = clock.instant();
    var points = new ArrayList<MetricPoint>();
    var errors = new ArrayList<FieldError>();
    for (int i = 0; i < body.size(); i++) {
      var at = "[" + i + "].";
      var node = body.get(i);
      if (!node.isObject()) {
        errors.add(
            new FieldError("[" + i + "]", "must be an object {name, value, step, epoch, time}"));
        continue;
      }
      var before = errors.size();
      var name = node.path("name");
      if (!name.isTextual()) {
        errors.add(new FieldError(at + "name", "is required, a string"));
      }
      var value = node.path("value");
      if (!value.isNumber()) {
        errors.add(new FieldError(at + "value", "is required, a number"));
      }
      var step = counter(node, "step", at, errors);
      var epoch = counter(node, "epoch", at, errors);
      var time = now;
      var t = node.path("time");
      if (!t.isMissingNode() && !t.isNull()) {
        try {
          time =
              t.isNumber()
                  ? Instant.ofEpochMilli((long) (t.asDouble() * 1000))
                  : Instant.parse(t.asText());
        } catch (DateTimeParseException e) {
          errors.add(
              new FieldError(
                  at + "time", "must be an instant such as 2026-11-30T10:00:00Z or epoch seconds"));
        }
      }
      if (errors.size() > before) {
        continue;
      }
      var point = new MetricPoint(name.asText(), value.asDouble(), step, epoch, time);
      for (var e : MetricBatch.problems(point, now)) {
        errors.add(new FieldError(at + e.field(), e.message()));
      }
      if (errors.size() == before) {
        points.add(point);
      }
    }
    if (!errors.isEmpty()) {
      throw new ApiException(
          ErrorCode.MALFORMED,
          errors.get(0).field() + " " + errors.get(0).message() + "; nothing was stored",
          errors,
          null);
    }
    return points;
  }

  private static Long counter(JsonNode node, String field, String at, List<FieldError> errors) {
    var n = node.path(field);
    if (n.isMissingNode() || n.isNull()) {
      return null;
    }
    if (!n.canConvertToLong() || !n.isIntegralNumber()) {
      errors.add(new FieldError(at + field, "must be a whole number"));
      return null;
    }
    return n.asLong();
  }

  /**
   * Every metric of a job the caller may read: per name the points, the last and the best value
   * ({@code goal=min|max} overrides each name's default).
   */
  @GET
  @RolesAllowed({"trainer", "team-admin", "platform-admin"})
  public JobMetrics get(
      @PathParam("id") String id,
      @QueryParam("name") String name,
      @QueryParam("goal") String goal,
      @Context SecurityContext security) {
    var job = jobs.get(Caller.of(security), id);
    var wanted = goal(goal);
    return new JobMetrics(
        job.id(), job.state().name(), MetricSeries.of(metrics.points(job.id(), name), wanted));
  }

  /** One metric of several runs the caller may read, side by side. */
  public Comparison compare(String ids, String name, String goal, SecurityContext security) {
    if (name == null || name.isBlank()) {
      throw ApiException.field(ErrorCode.MALFORMED, "name", "is required, e.g. name=loss");
    }
    var wanted = new LinkedHashSet<String>();
    for (var id : (ids == null ? "" : ids).split(",")) {
      if (!id.isBlank()) {
        wanted.add(id.trim());
      }
    }
    if (wanted.isEmpty() || wanted.size() > MAX_COMPARED) {
      throw ApiException.field(
          ErrorCode.MALFORMED,
          "jobs",
          "must list 1 to " + MAX_COMPARED + " job ids, comma-separated");
    }
    var caller = Caller.of(security);
    var chosen = goal(goal);
    var runs = new ArrayList<ComparedRun>();
    for (var id : wanted) {
      io.trainyard.gateway.db.JobRow job;
      try {
        job = jobs.get(caller, id);
      } catch (ApiException e) {
        // The same answer for a job of another team as for none, naming the field.
        throw ApiException.field(ErrorCode.NOT_FOUND, "jobs", "has no job " + id + " you may read");
      }
      runs.add(
          new ComparedRun(
              job.id(),
              job.name(),
              job.state().name(),
              MetricSeries.one(name, metrics.points(job.id(), name), chosen)));
    }
    return new Comparison(name, chosen != null ? chosen : MetricSeries.defaultGoal(name), runs);
  }

  private static String goal(String goal) {
    if (goal == null || goal.isBlank()) {
      return null;
    }
    if (!goal.equals("min") && !goal.equals("max")) {
      throw ApiException.field(ErrorCode.MALFORMED, "goal", "must be min or max");
    }
    return goal;
  }
}
