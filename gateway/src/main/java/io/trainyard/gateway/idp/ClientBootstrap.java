package io.trainyard.gateway.idp;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.keycloak.admin.client.resource.ClientResource;
import org.keycloak.admin.client.resource.ProtocolMappersResource;
import org.keycloak.admin.client.resource.RealmResource;
import org.keycloak.representations.idm.ClientRepresentation;
import org.keycloak.representations.idm.ClientScopeRepresentation;
import org.keycloak.representations.idm.ProtocolMapperRepresentation;
import org.keycloak.representations.idm.RoleRepresentation;

/**
 * The clients part of {@link RealmBootstrap}: a client scope that puts the gateway's audience and
 * the groups claim into access tokens, the gateway's own client, and the public CLI client.
 *
 * <p>The mappers live in a client scope, added to the CLI client and made a realm default, so that
 * every client created later (a CI pipeline's service account, say) gets tokens the gateway takes
 * without anyone remembering two mappers. The groups mapper writes plain group names ({@code nlp},
 * not {@code /nlp}): team names as the gateway's config spells them; {@code TokenVerifier} accepts
 * both.
 */
final class ClientBootstrap {
  private static final String OIDC = "openid-connect";
  private static final String AUDIENCE_MAPPER = "trainyard audience";
  private static final String GROUPS_MAPPER = "trainyard groups";
  // Reading group attributes for team overrides (auth.keycloakAdmin).
  private static final List<String> GATEWAY_ADMIN_ROLES = List.of("query-groups", "view-users");

  private final RealmResource realm;
  private final BootstrapPlan plan;
  private final BootstrapReport report;

  ClientBootstrap(RealmResource realm, BootstrapPlan plan, BootstrapReport report) {
    this.realm = realm;
    this.plan = plan;
    this.report = report;
  }

  void run() {
    var apiClient = ensureClient(apiClient(), "the gateway, the API audience");
    ensureGatewayAdminRoles(apiClient);
    var scopeId = ensureScope();
    var cliClient = ensureClient(cliClient(), "the CLI: public, PKCE, device grant");
    ensureDefaultScope(cliClient, scopeId);
  }

  private ClientRepresentation apiClient() {
    var client = new ClientRepresentation();
    client.setClientId(plan.apiClientId());
    client.setName("Trainyard gateway");
    client.setEnabled(true);
    client.setProtocol(OIDC);
    client.setPublicClient(false);
    client.setBearerOnly(false);
    // No user logs in here: the client is the audience, and its service account reads groups.
    client.setStandardFlowEnabled(false);
    client.setImplicitFlowEnabled(false);
    client.setDirectAccessGrantsEnabled(false);
    client.setServiceAccountsEnabled(true);
    client.setAttributes(
        new HashMap<>(Map.of("oauth2.device.authorization.grant.enabled", "false")));
    return client;
  }

  private ClientRepresentation cliClient() {
    var client = new ClientRepresentation();
    client.setClientId(plan.cliClientId());
    client.setName("Trainyard CLI");
    client.setEnabled(true);
    client.setProtocol(OIDC);
    client.setPublicClient(true);
    client.setBearerOnly(false);
    client.setStandardFlowEnabled(true);
    client.setImplicitFlowEnabled(false);
    // Only ever switched on: without --allow-password-grant an existing client keeps its choice.
    client.setDirectAccessGrantsEnabled(plan.passwordGrant() ? Boolean.TRUE : null);
    client.setServiceAccountsEnabled(false);
    // Native-app loopback redirects (RFC 8252) for a browser login with PKCE, and the dashboard's
    // sign-in at gateway.publicUrl: its /callback, its origin (CORS for the token endpoint, which
    // the dashboard calls from the browser) and where logout returns.
    var redirects = new ArrayList<>(List.of("http://127.0.0.1/*", "http://localhost/*"));
    var attributes =
        new HashMap<>(
            Map.of(
                "pkce.code.challenge.method", "S256",
                "oauth2.device.authorization.grant.enabled", "true"));
    var dashboard = plan.dashboardUrl();
    if (dashboard != null) {
      redirects.add(dashboard + "/callback");
      client.setWebOrigins(List.of(origin(dashboard)));
      attributes.put("post.logout.redirect.uris", dashboard + "/*");
    }
    client.setRedirectUris(redirects);
    client.setAttributes(attributes);
    return client;
  }

  private static String origin(String url) {
    var uri = java.net.URI.create(url);
    return uri.getScheme()
        + "://"
        + uri.getHost()
        + (uri.getPort() == -1 ? "" : ":" + uri.getPort());
  }

  /** Creates the client, or puts back the settings above where they differ; returns its id. */
  private String ensureClient(ClientRepresentation desired, String purpose) {
    var what = "client " + desired.getClientId();
    var found = realm.clients().findByClientId(desired.getClientId());
    if (found.isEmpty()) {
      if (desired.isDirectAccessGrantsEnabled() == null) {
        desired.setDirectAccessGrantsEnabled(false);
      }
      if (desired.isServiceAccountsEnabled() && plan.apiClientSecret() != null) {
        desired.setSecret(plan.apiClientSecret());
      }
      var id = RealmBootstrap.created(realm.clients().create(desired), what);
      var note = purpose;
      if (!desired.isPublicClient() && plan.apiClientSecret() == null) {
        note +=
            "; Keycloak chose its secret: Clients → " + desired.getClientId() + " → Credentials";
      }
      report.created(what, note);
      return id;
    }
    var existing = found.get(0);
    var drift = drift(existing, desired);
    if (!drift.isEmpty()) {
      realm.clients().get(existing.getId()).update(existing);
    }
    report.record(what, !drift.isEmpty(), "set " + String.join(", ", drift));
    return existing.getId();
  }

  /**
   * Copies the desired settings into {@code existing}; returns the names of those that differed.
   */
  private static List<String> drift(ClientRepresentation existing, ClientRepresentation desired) {
    var changed = new ArrayList<String>();
    setIf(changed, "enabled", existing.isEnabled(), desired.isEnabled(), existing::setEnabled);
    setIf(
        changed,
        "publicClient",
        existing.isPublicClient(),
        desired.isPublicClient(),
        existing::setPublicClient);
    setIf(
        changed,
        "standardFlowEnabled",
        existing.isStandardFlowEnabled(),
        desired.isStandardFlowEnabled(),
        existing::setStandardFlowEnabled);
    setIf(
        changed,
        "directAccessGrantsEnabled",
        existing.isDirectAccessGrantsEnabled(),
        desired.isDirectAccessGrantsEnabled(),
        existing::setDirectAccessGrantsEnabled);
    setIf(
        changed,
        "serviceAccountsEnabled",
        existing.isServiceAccountsEnabled(),
        desired.isServiceAccountsEnabled(),
        existing::setServiceAccountsEnabled);
    var attributes = new HashMap<>(Objects.requireNonNullElse(existing.getAttributes(), Map.of()));
    desired
        .getAttributes()
        .forEach(
            (name, value) -> {
              if (!value.equals(attributes.get(name))) {
                attributes.put(name, value);
                changed.add(name);
              }
            });
    existing.setAttributes(attributes);
    if (desired.getRedirectUris() != null
        && !Objects.requireNonNullElse(existing.getRedirectUris(), List.of())
            .containsAll(desired.getRedirectUris())) {
      var uris = new ArrayList<>(Objects.requireNonNullElse(existing.getRedirectUris(), List.of()));
      desired.getRedirectUris().stream().filter(u -> !uris.contains(u)).forEach(uris::add);
      existing.setRedirectUris(uris);
      changed.add("redirectUris");
    }
    if (desired.getWebOrigins() != null
        && !Objects.requireNonNullElse(existing.getWebOrigins(), List.of())
            .containsAll(desired.getWebOrigins())) {
      var origins =
          new ArrayList<>(Objects.requireNonNullElse(existing.getWebOrigins(), List.of()));
      desired.getWebOrigins().stream().filter(o -> !origins.contains(o)).forEach(origins::add);
      existing.setWebOrigins(origins);
      changed.add("webOrigins");
    }
    return changed;
  }

  private static void setIf(
      List<String> changed, String name, Boolean current, Boolean desired, Consumer<Boolean> set) {
    // A null desire leaves the setting as it is.
    if (desired != null && !Objects.equals(current, desired)) {
      set.accept(desired);
      changed.add(name);
    }
  }

  private void ensureGatewayAdminRoles(String apiClientId) {
    var what = "service account of " + plan.apiClientId();
    var management = realm.clients().findByClientId("realm-management").get(0).getId();
    var account = realm.clients().get(apiClientId).getServiceAccountUser();
    var granted = realm.users().get(account.getId()).roles().clientLevel(management);
    var have = granted.listAll().stream().map(RoleRepresentation::getName).toList();
    var missing = new ArrayList<RoleRepresentation>();
    for (var name : GATEWAY_ADMIN_ROLES) {
      if (!have.contains(name)) {
        missing.add(realm.clients().get(management).roles().get(name).toRepresentation());
      }
    }
    if (!missing.isEmpty()) {
      granted.add(missing);
    }
    report.record(
        what,
        !missing.isEmpty(),
        "granted realm-management " + String.join(", ", GATEWAY_ADMIN_ROLES));
  }

  private String ensureScope() {
    var name = plan.apiClientId();
    var what = "client scope " + name;
    var found =
        realm.clientScopes().findAll().stream().filter(s -> name.equals(s.getName())).findFirst();
    String id;
    if (found.isEmpty()) {
      var scope = new ClientScopeRepresentation();
      scope.setName(name);
      scope.setProtocol(OIDC);
      scope.setDescription("Trainyard: the gateway's audience and the caller's groups");
      scope.setAttributes(
          Map.of("include.in.token.scope", "false", "display.on.consent.screen", "false"));
      id = RealmBootstrap.created(realm.clientScopes().create(scope), what);
      report.created(what, "audience " + name + ", claim " + plan.groupsClaim());
    } else {
      id = found.get().getId();
      report.unchanged(what, null);
    }
    var mappers = realm.clientScopes().get(id).getProtocolMappers();
    ensureMapper(mappers, audienceMapper(), what);
    ensureMapper(mappers, groupsMapper(), what);
    var isDefault =
        realm.getDefaultDefaultClientScopes().stream().anyMatch(s -> id.equals(s.getId()));
    if (!isDefault) {
      realm.addDefaultDefaultClientScope(id);
    }
    report.record(what + " as a realm default", !isDefault, "added: new clients get it");
    return id;
  }

  private ProtocolMapperRepresentation audienceMapper() {
    return mapper(
        AUDIENCE_MAPPER,
        "oidc-audience-mapper",
        Map.of(
            "included.client.audience", plan.apiClientId(),
            "access.token.claim", "true",
            "id.token.claim", "false",
            "introspection.token.claim", "true"));
  }

  private ProtocolMapperRepresentation groupsMapper() {
    return mapper(
        GROUPS_MAPPER,
        "oidc-group-membership-mapper",
        Map.of(
            "claim.name", plan.groupsClaim(),
            "full.path", "false",
            "access.token.claim", "true",
            "id.token.claim", "false",
            "userinfo.token.claim", "true",
            "introspection.token.claim", "true"));
  }

  private static ProtocolMapperRepresentation mapper(
      String name, String type, Map<String, String> config) {
    var mapper = new ProtocolMapperRepresentation();
    mapper.setName(name);
    mapper.setProtocol(OIDC);
    mapper.setProtocolMapper(type);
    mapper.setConfig(new LinkedHashMap<>(config));
    return mapper;
  }

  private void ensureMapper(
      ProtocolMappersResource mappers, ProtocolMapperRepresentation desired, String scope) {
    var what = scope + " mapper '" + desired.getName() + "'";
    var existing =
        mappers.getMappers().stream()
            .filter(m -> desired.getName().equals(m.getName()))
            .findFirst();
    if (existing.isEmpty()) {
      RealmBootstrap.created(mappers.createMapper(desired), what);
      report.created(what, null);
      return;
    }
    var mapper = existing.get();
    var config = new HashMap<>(Objects.requireNonNullElse(mapper.getConfig(), Map.of()));
    boolean differs =
        !desired.getProtocolMapper().equals(mapper.getProtocolMapper())
            || !config.entrySet().containsAll(desired.getConfig().entrySet());
    if (differs) {
      config.putAll(desired.getConfig());
      mapper.setProtocolMapper(desired.getProtocolMapper());
      mapper.setConfig(config);
      mappers.update(mapper.getId(), mapper);
    }
    report.record(what, differs, "settings put back");
  }

  private void ensureDefaultScope(String clientId, String scopeId) {
    ClientResource client = realm.clients().get(clientId);
    boolean has = client.getDefaultClientScopes().stream().anyMatch(s -> scopeId.equals(s.getId()));
    if (!has) {
      client.addDefaultClientScope(scopeId);
    }
    report.record(
        "client " + plan.cliClientId() + " default scope " + plan.apiClientId(), !has, "added");
  }
}
