package io.trainyard.gateway.resources;

import io.trainyard.audit.AuditActor;
import io.trainyard.auth.Role;
import io.trainyard.gateway.audit.AuditEntry;
import io.trainyard.gateway.audit.AuditLog;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import io.trainyard.gateway.errors.QueryParameters;
import io.trainyard.gateway.errors.RequestIds;
import io.trainyard.gateway.ui.DashboardFilter;
import io.trainyard.gateway.ui.DevSignIn;
import jakarta.annotation.security.PermitAll;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The dev issuer's browser sign-in (dev mode only): the authorization endpoint, a page asking for
 * the one-time code the gateway printed in its log, and the token endpoint (authorization code +
 * PKCE, refresh). Loopback callers only, whatever address the gateway listens on.
 */
@Path("/dev-idp")
@QueryParameters.Lenient // an OAuth authorization endpoint ignores parameters it does not know
public final class DevSignInResource {
  /** The audit action of a dev sign-in: who signed in as whom, from where. */
  public static final String DEV_SIGN_IN = "auth.dev-sign-in";

  private final DevSignIn signIn;
  private final String policy;
  private final String stylesheet;
  private final AuditLog audit;
  private final Clock clock;

  /**
   * @param audit records every sign-in before its authorization code is handed out (fail closed: no
   *     record, no code)
   */
  public DevSignInResource(
      DevSignIn signIn, String policy, String stylesheet, AuditLog audit, Clock clock) {
    this.signIn = signIn;
    this.policy = policy;
    this.stylesheet = stylesheet;
    this.audit = audit;
    this.clock = clock;
  }

  @GET
  @Path("authorize")
  @PermitAll
  @Produces(MediaType.TEXT_HTML)
  public Response authorizePage(
      @QueryParam("response_type") String responseType,
      @QueryParam("client_id") String clientId,
      @QueryParam("redirect_uri") String redirectUri,
      @QueryParam("state") String state,
      @QueryParam("code_challenge") String challenge,
      @QueryParam("code_challenge_method") String method,
      @Context HttpServletRequest request,
      @Context HttpServletResponse response) {
    loopbackOnly(request);
    signIn.check(
        responseType, clientId, redirectUri, state, challenge, method, request.getLocalPort());
    var fields =
        Map.of(
            "response_type", responseType,
            "client_id", clientId,
            "redirect_uri", redirectUri,
            "state", state,
            "code_challenge", challenge,
            "code_challenge_method", method);
    return page(response, 200, fields, null, "dev", "dev", List.of(Role.TRAINER.realmRoleName()));
  }

  @POST
  @Path("authorize")
  @PermitAll
  @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
  @Produces(MediaType.TEXT_HTML)
  public Response authorize(
      @FormParam("response_type") String responseType,
      @FormParam("client_id") String clientId,
      @FormParam("redirect_uri") String redirectUri,
      @FormParam("state") String state,
      @FormParam("code_challenge") String challenge,
      @FormParam("code_challenge_method") String method,
      @FormParam("one_time_code") String oneTimeCode,
      @FormParam("user") String user,
      @FormParam("teams") String teams,
      @FormParam("role") List<String> roles,
      @Context HttpServletRequest request,
      @Context HttpServletResponse response) {
    loopbackOnly(request);
    var checked =
        signIn.check(
            responseType, clientId, redirectUri, state, challenge, method, request.getLocalPort());
    var fields =
        Map.of(
            "response_type", responseType,
            "client_id", clientId,
            "redirect_uri", redirectUri,
            "state", state,
            "code_challenge", challenge,
            "code_challenge_method", method);
    var name = user == null ? "" : user.strip();
    var teamSet = new LinkedHashSet<String>();
    Arrays.stream((teams == null ? "" : teams).split("[,\\s]+"))
        .filter(t -> !t.isBlank())
        .forEach(teamSet::add);
    var roleSet = new LinkedHashSet<String>(roles == null ? List.of() : roles);
    String problem = null;
    if (!name.matches("[A-Za-z0-9._@-]{1,64}")) {
      problem = "user: 1 to 64 letters, digits or . _ @ -";
    } else if (teamSet.isEmpty()) {
      problem = "teams: at least one team";
    } else if (roleSet.isEmpty() || !roleSet.stream().allMatch(r -> Role.fromName(r).isPresent())) {
      problem = "roles: at least one of trainer, team-admin, auditor, platform-admin";
    }
    if (problem != null) {
      return page(response, 200, fields, problem, name, String.join(", ", teamSet), roleSet);
    }
    try {
      var identity = new DevSignIn.Identity(name, teamSet, roleSet);
      var target =
          signIn.authorize(checked, oneTimeCode, identity, () -> record(identity, request));
      return Response.seeOther(target).header("Cache-Control", "no-store").build();
    } catch (ApiException e) {
      return page(
          response,
          200,
          fields,
          "one-time code: not the code the gateway printed in its log (after 5 wrong ones it"
              + " prints a new one)",
          name,
          String.join(", ", teamSet),
          roleSet);
    }
  }

  @POST
  @Path("token")
  @PermitAll
  @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
  @Produces(MediaType.APPLICATION_JSON)
  public Response token(
      @FormParam("grant_type") String grantType,
      @FormParam("code") String code,
      @FormParam("redirect_uri") String redirectUri,
      @FormParam("client_id") String clientId,
      @FormParam("code_verifier") String verifier,
      @FormParam("refresh_token") String refreshToken,
      @Context HttpServletRequest request) {
    loopbackOnly(request);
    DevSignIn.Tokens tokens;
    if ("authorization_code".equals(grantType)) {
      tokens = signIn.redeem(code, clientId, redirectUri, verifier);
    } else if ("refresh_token".equals(grantType)) {
      tokens = signIn.refresh(refreshToken, clientId);
    } else {
      throw ApiException.field(
          ErrorCode.MALFORMED, "grant_type", "must be authorization_code or refresh_token");
    }
    return Response.ok(tokens.toJson())
        .header("Cache-Control", "no-store")
        .header("Pragma", "no-cache")
        .build();
  }

  private void record(DevSignIn.Identity identity, HttpServletRequest request) {
    var details = new LinkedHashMap<String, Object>();
    details.put("teams", new TreeSet<>(identity.teams()));
    details.put("roles", new TreeSet<>(identity.roles()));
    audit.record(
        AuditEntry.builder(
                clock.instant(),
                new AuditActor(
                    "dev:" + identity.user(),
                    identity.user(),
                    signIn.clientId(),
                    request.getRemoteAddr(),
                    org.slf4j.MDC.get(RequestIds.MDC_KEY)),
                DEV_SIGN_IN,
                "dev-idp")
            .details(details)
            .build());
  }

  private static void loopbackOnly(HttpServletRequest request) {
    try {
      if (InetAddress.getByName(request.getRemoteAddr()).isLoopbackAddress()) {
        return;
      }
    } catch (UnknownHostException e) {
      // not an address: refused below
    }
    throw new ApiException(
        ErrorCode.FORBIDDEN, "the dev sign-in answers only on this machine's loopback address");
  }

  /**
   * The sign-in page; a refused attempt shows it again (200, as IdPs do) with the problem in an
   * alert, so nothing but the form's own message tells a person what went wrong.
   */
  private Response page(
      HttpServletResponse response,
      int status,
      Map<String, String> hidden,
      String problem,
      String user,
      String teams,
      Collection<String> roles) {
    DashboardFilter.secure(response, policy);
    var html = new StringBuilder();
    html.append("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        .append("<title>Trainyard dev sign-in</title><link rel=\"icon\" href=\"data:,\">");
    if (stylesheet != null) {
      html.append("<link rel=\"stylesheet\" href=\"").append(escape(stylesheet)).append("\">");
    }
    html.append("</head><body><main class=\"signin\"><h1>Trainyard dev sign-in</h1>")
        .append("<p>Dev mode: the gateway is its own token issuer. Enter the one-time code it")
        .append(" printed in its log (<code>Dashboard sign-in (dev mode)</code>), and who you")
        .append(" want to be.</p>");
    if (problem != null) {
      html.append("<p class=\"error\" role=\"alert\" id=\"signin-error\">")
          .append(escape(problem))
          .append("</p>");
    }
    html.append("<form method=\"post\" action=\"/dev-idp/authorize\" class=\"submit\"><fieldset>");
    hidden.forEach(
        (name, value) ->
            html.append("<input type=\"hidden\" name=\"")
                .append(escape(name))
                .append("\" value=\"")
                .append(escape(value))
                .append("\">"));
    html.append("<label>One-time code<input id=\"one-time-code\" name=\"one_time_code\"")
        .append(" autocomplete=\"off\" required autofocus></label>")
        .append("<label>User<input id=\"user\" name=\"user\" value=\"")
        .append(escape(user))
        .append("\" required></label>")
        .append("<label>Teams (comma-separated)<input id=\"teams\" name=\"teams\" value=\"")
        .append(escape(teams))
        .append("\" required></label><fieldset><legend>Roles</legend>");
    for (var role : Role.values()) {
      var wire = role.realmRoleName();
      html.append("<label><input type=\"checkbox\" name=\"role\" id=\"role-")
          .append(wire)
          .append("\" value=\"")
          .append(wire)
          .append("\"")
          .append(roles.contains(wire) ? " checked" : "")
          .append("> ")
          .append(wire)
          .append("</label> ");
    }
    html.append("</fieldset><div class=\"actions\"><button type=\"submit\" id=\"dev-sign-in\">")
        .append("Sign in</button></div></fieldset></form></main></body></html>\n");
    return Response.status(status)
        .type(MediaType.TEXT_HTML_TYPE.withCharset("utf-8"))
        .header("Cache-Control", "no-store")
        .entity(html.toString())
        .build();
  }

  private static String escape(String s) {
    if (s == null) {
      return "";
    }
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;")
        .replace("'", "&#39;");
  }
}
