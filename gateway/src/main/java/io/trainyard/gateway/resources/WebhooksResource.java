package io.trainyard.gateway.resources;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainyard.auth.Role;
import io.trainyard.gateway.api.DeliveryView;
import io.trainyard.gateway.api.WebhookRequest;
import io.trainyard.gateway.api.WebhookView;
import io.trainyard.gateway.audit.AuditActors;
import io.trainyard.gateway.auth.Caller;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import io.trainyard.gateway.errors.PlainDigits;
import io.trainyard.gateway.jobs.TeamDirectory;
import io.trainyard.gateway.webhooks.WebhookAdmin;
import io.trainyard.gateway.webhooks.WebhookStore;
import jakarta.annotation.security.RolesAllowed;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.SecurityContext;

/**
 * A team's webhooks (completion events): configured by its team admins and platform admins, seen
 * with their deliveries by the team's trainers too. Another team's webhooks are not found.
 */
@Path("/v1/teams/{team}/webhooks")
@Produces(MediaType.APPLICATION_JSON)
public final class WebhooksResource {
  private static final int DEFAULT_LIMIT = 50;
  private static final int MAX_LIMIT = 500;

  private final WebhookAdmin admin;
  private final WebhookStore store;
  private final TeamDirectory teams;

  public WebhooksResource(WebhookAdmin admin, WebhookStore store, TeamDirectory teams) {
    this.admin = admin;
    this.store = store;
    this.teams = teams;
  }

  @GET
  @RolesAllowed({"trainer", "team-admin", "platform-admin"})
  public WebhookView.Page list(@PathParam("team") String team, @Context SecurityContext security) {
    member(team, security);
    return new WebhookView.Page(
        store.list(team).stream().map(w -> WebhookView.of(w, null)).toList());
  }

  @GET
  @Path("deliveries")
  @RolesAllowed({"trainer", "team-admin", "platform-admin"})
  public DeliveryView.Page deliveries(
      @PathParam("team") String team,
      @QueryParam("webhook") String webhook,
      @QueryParam("limit") String limit,
      @Context SecurityContext security) {
    member(team, security);
    return new DeliveryView.Page(
        store.deliveries(team, webhook, limit(limit)).stream().map(DeliveryView::of).toList());
  }

  @GET
  @Path("{id}")
  @RolesAllowed({"trainer", "team-admin", "platform-admin"})
  public WebhookView get(
      @PathParam("team") String team,
      @PathParam("id") String id,
      @Context SecurityContext security) {
    member(team, security);
    return store
        .find(team, id)
        .map(w -> WebhookView.of(w, null))
        .orElseThrow(() -> new ApiException(ErrorCode.NOT_FOUND, "no webhook " + id));
  }

  @GET
  @Path("{id}/deliveries")
  @RolesAllowed({"trainer", "team-admin", "platform-admin"})
  public DeliveryView.Page deliveriesOf(
      @PathParam("team") String team,
      @PathParam("id") String id,
      @QueryParam("limit") String limit,
      @Context SecurityContext security) {
    get(team, id, security);
    return new DeliveryView.Page(
        store.deliveries(team, id, limit(limit)).stream().map(DeliveryView::of).toList());
  }

  @PUT
  @Path("{id}")
  @Consumes(MediaType.APPLICATION_JSON)
  @RolesAllowed({"team-admin", "platform-admin"})
  public Response put(
      @PathParam("team") String team,
      @PathParam("id") String id,
      JsonNode body,
      @Context SecurityContext security) {
    var caller = member(team, security);
    var request = WebhookRequest.from(body);
    var put = admin.put(team, id, request, AuditActors.of(caller), caller.getName());
    return Response.status(put.created() ? 201 : 200).entity(put.view()).build();
  }

  @DELETE
  @Path("{id}")
  @RolesAllowed({"team-admin", "platform-admin"})
  public Response delete(
      @PathParam("team") String team,
      @PathParam("id") String id,
      @Context SecurityContext security) {
    var caller = member(team, security);
    if (!admin.delete(team, id, AuditActors.of(caller))) {
      throw new ApiException(ErrorCode.NOT_FOUND, "no webhook " + id);
    }
    return Response.noContent().build();
  }

  /** The caller, if the team is theirs (or they are a platform admin); else 404, as for jobs. */
  private Caller member(String team, SecurityContext security) {
    var caller = Caller.of(security);
    if (!caller.has(Role.PLATFORM_ADMIN) && !caller.principal().teams().contains(team)
        || !teams.knows(team)) {
      throw new ApiException(ErrorCode.NOT_FOUND, "no team " + team);
    }
    return caller;
  }

  private static int limit(String limit) {
    if (limit == null || limit.isBlank()) {
      return DEFAULT_LIMIT;
    }
    try {
      var n = PlainDigits.isPlain(limit) ? Integer.parseInt(limit.strip()) : -1;
      if (n >= 1 && n <= MAX_LIMIT) {
        return n;
      }
    } catch (NumberFormatException e) {
      // answered below
    }
    throw ApiException.field(
        ErrorCode.MALFORMED, "limit", "must be a whole number from 1 to " + MAX_LIMIT);
  }
}
