package io.trainyard.gateway.resources;

import io.trainyard.gateway.algorithms.AlgorithmDocuments;
import io.trainyard.gateway.algorithms.AlgorithmService;
import io.trainyard.gateway.algorithms.VersionStatus;
import io.trainyard.gateway.api.AlgorithmList;
import io.trainyard.gateway.api.AlgorithmView;
import io.trainyard.gateway.auth.AccessFeature;
import io.trainyard.gateway.auth.Caller;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import io.trainyard.gateway.jobs.SpecReader;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;
import java.io.InputStream;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * The algorithm registry. An algorithm is always addressed as {@code /v1/algorithms/{team}/{name}}
 * (two path segments, never an encoded slash, which proxies and Jetty treat differently); request
 * bodies are JSON or YAML.
 */
@Path("/v1/algorithms")
@Produces(MediaType.APPLICATION_JSON)
@RolesAllowed({"trainer", "team-admin", "platform-admin"})
public final class AlgorithmsResource {
  private final AlgorithmService algorithms;
  private final AlgorithmDocuments documents = new AlgorithmDocuments();
  private final SpecReader bodies;
  private final AccessFeature.FailureListener denials;

  /**
   * @param bodies reads request bodies under the same size limit as job documents
   * @param denials hears of a change the caller's team or role does not allow, to audit it like any
   *     refusal
   */
  public AlgorithmsResource(
      AlgorithmService algorithms, SpecReader bodies, AccessFeature.FailureListener denials) {
    this.algorithms = algorithms;
    this.bodies = bodies;
    this.denials = denials;
  }

  /** Runs a change; a 403 from the registry's own rules is audited as a denial first. */
  private <T> T audited(Caller caller, String request, String needs, Supplier<T> change) {
    try {
      return change.get();
    } catch (ApiException e) {
      if (e.code() == ErrorCode.FORBIDDEN) {
        denials.denied(caller, request, needs);
      }
      throw e;
    }
  }

  @GET
  public AlgorithmList list(@Context SecurityContext security) {
    return new AlgorithmList(
        algorithms.list(Caller.of(security)).stream().map(a -> AlgorithmView.of(a, null)).toList());
  }

  @POST
  public Response create(InputStream body, @Context SecurityContext security) {
    var caller = Caller.of(security);
    var request = documents.create(bodies.readBody(body));
    var algorithm =
        audited(
            caller,
            "POST /v1/algorithms",
            "a member of the algorithm's team (team-admin for visibility everyone)",
            () -> algorithms.create(caller, request));
    return Response.status(201)
        .header("Location", "/v1/algorithms/" + algorithm.qualifiedName())
        .entity(AlgorithmView.of(algorithm, algorithms.versions(algorithm)))
        .build();
  }

  @GET
  @Path("{team}/{name}")
  public AlgorithmView get(
      @PathParam("team") String team,
      @PathParam("name") String name,
      @Context SecurityContext security) {
    var algorithm = algorithms.get(Caller.of(security), AlgorithmService.pathName(team, name));
    return AlgorithmView.of(algorithm, algorithms.versions(algorithm));
  }

  /** Publishes a version: 201 when stored now, 200 when the same definition was already there. */
  @PUT
  @Path("{team}/{name}/versions/{version}")
  public Response publish(
      @PathParam("team") String team,
      @PathParam("name") String name,
      @PathParam("version") String version,
      InputStream body,
      @Context SecurityContext security) {
    var at = AlgorithmService.pathName(team, name);
    var number = AlgorithmService.parseVersion(version);
    var definition = documents.definition(bodies.readBody(body), at.team(), at.name());
    var caller = Caller.of(security);
    var published =
        audited(
            caller,
            "PUT /v1/algorithms/" + at + "/versions/" + number,
            "a member of team " + at.team(),
            () -> algorithms.publish(caller, at, number, definition));
    var algorithm = algorithms.get(Caller.of(security), at);
    return Response.status(published.created() ? 201 : 200)
        .entity(AlgorithmView.Version.of(published.version(), algorithm.defaultVersion()))
        .build();
  }

  /** Moves the default version: {@code {"version": N}}. */
  @POST
  @Path("{team}/{name}/default")
  public AlgorithmView moveDefault(
      @PathParam("team") String team,
      @PathParam("name") String name,
      InputStream body,
      @Context SecurityContext security) {
    var caller = Caller.of(security);
    var version = documents.field(bodies.readBody(body), "version");
    var algorithm = algorithms.moveDefault(caller, AlgorithmService.pathName(team, name), version);
    return AlgorithmView.of(algorithm, algorithms.versions(algorithm));
  }

  /** {@code {"status": "deprecated" | "withdrawn" | "active"}}. */
  @POST
  @Path("{team}/{name}/versions/{version}/status")
  @RolesAllowed({"team-admin", "platform-admin"})
  public AlgorithmView.Version setStatus(
      @PathParam("team") String team,
      @PathParam("name") String name,
      @PathParam("version") String version,
      InputStream body,
      @Context SecurityContext security) {
    var caller = Caller.of(security);
    var at = AlgorithmService.pathName(team, name);
    var number = AlgorithmService.parseVersion(version);
    var status = status(documents.field(bodies.readBody(body), "status"));
    var changed =
        audited(
            caller,
            "POST /v1/algorithms/" + at + "/versions/" + number + "/status",
            "a team-admin of team " + at.team(),
            () -> algorithms.setStatus(caller, at, number, status));
    return AlgorithmView.Version.of(changed, algorithms.get(caller, at).defaultVersion());
  }

  /** {@code {"visibility": "team" | "everyone"}}. */
  @POST
  @Path("{team}/{name}/visibility")
  @RolesAllowed({"team-admin", "platform-admin"})
  public AlgorithmView setVisibility(
      @PathParam("team") String team,
      @PathParam("name") String name,
      InputStream body,
      @Context SecurityContext security) {
    var caller = Caller.of(security);
    var at = AlgorithmService.pathName(team, name);
    var visibility = documents.field(bodies.readBody(body), "visibility");
    var algorithm =
        audited(
            caller,
            "POST /v1/algorithms/" + at + "/visibility",
            "a team-admin of team " + at.team(),
            () -> algorithms.setVisibility(caller, at, visibility));
    return AlgorithmView.of(algorithm, algorithms.versions(algorithm));
  }

  private static VersionStatus status(String text) {
    for (var s : VersionStatus.values()) {
      if (s.wireName().equals(text.toLowerCase(Locale.ROOT))) {
        return s;
      }
    }
    throw ApiException.field(
        ErrorCode.INVALID_SPEC,
        "status",
        "must be one of " + String.join(", ", List.of("active", "deprecated", "withdrawn")));
  }
}
