package io.trainyard.gateway.ui;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.core.setup.Environment;
import io.trainyard.auth.DevIssuer;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.config.DashboardConfig;
import io.trainyard.gateway.metrics.PublicUrl;
import jakarta.servlet.DispatcherType;
import java.net.URI;
import java.time.Clock;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires the dashboard: its filter on the application port, its sign-in settings, and in dev mode
 * the dev issuer's browser sign-in with the one-time code printed at start.
 */
public final class Dashboard {
  /** The dev issuer's own public client, the only one its sign-in serves. */
  public static final String DEV_CLIENT_ID = "trainyard-ui";

  private static final Logger LOG = LoggerFactory.getLogger(Dashboard.class);

  private final DashboardFilter filter;
  private final DevSignIn devSignIn;
  private final String stylesheet;

  private Dashboard(DashboardFilter filter, DevSignIn devSignIn, String stylesheet) {
    this.filter = filter;
    this.devSignIn = devSignIn;
    this.stylesheet = stylesheet;
  }

  /**
   * Serves the dashboard when it is enabled and built into the jar; empty otherwise (a gateway
   * built with {@code -pl gateway} alone, without the ui module, logs that and serves the API).
   */
  public static Optional<Dashboard> install(
      Environment environment,
      DashboardConfig config,
      AuthConfig auth,
      Optional<DevIssuer> devIssuer,
      PublicUrl publicUrl,
      Clock clock) {
    if (!config.isEnabled()) {
      return Optional.empty();
    }
    var assets = DashboardAssets.load();
    if (assets.isEmpty()) {
      LOG.warn("The dashboard is not in this build (no META-INF/trainyard-ui); GET / is off");
      return Optional.empty();
    }
    var settings = new LinkedHashMap<String, Object>();
    DevSignIn devSignIn = null;
    String issuerOrigin = null;
    if (devIssuer.isPresent()) {
      devSignIn =
          new DevSignIn(
              devIssuer.get(),
              DEV_CLIENT_ID,
              code ->
                  LOG.info(
                      "Dashboard sign-in (dev mode): open {}/ and enter the one-time code {}",
                      publicUrl.get() == null ? "the gateway" : publicUrl.get(),
                      code),
              clock);
      settings.put("mode", "dev");
      settings.put("clientId", DEV_CLIENT_ID);
      settings.put("authorizationEndpoint", "/dev-idp/authorize");
      settings.put("tokenEndpoint", "/dev-idp/token");
      settings.put("endSessionEndpoint", null);
    } else {
      var issuer = auth.effectiveIssuer().replaceAll("/+$", "");
      issuerOrigin = origin(issuer);
      var keycloak = issuer + "/protocol/openid-connect";
      settings.put("mode", "oidc");
      settings.put("issuer", issuer);
      settings.put("clientId", config.getClientId());
      settings.put(
          "authorizationEndpoint", orElse(config.getAuthorizationEndpoint(), keycloak + "/auth"));
      settings.put("tokenEndpoint", orElse(config.getTokenEndpoint(), keycloak + "/token"));
      settings.put(
          "endSessionEndpoint", orElse(config.getEndSessionEndpoint(), keycloak + "/logout"));
      // The browser calls the token endpoint itself: its origin joins the issuer's in connect-src.
      var tokenOrigin = origin((String) settings.get("tokenEndpoint"));
      if (tokenOrigin != null && !tokenOrigin.equals(issuerOrigin)) {
        issuerOrigin = issuerOrigin + " " + tokenOrigin;
      }
    }
    settings.put("scope", config.getScope());
    settings.put("teamsClaim", auth.getTeamsClaim());
    String json;
    try {
      json = new ObjectMapper().writeValueAsString(settings);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
    var filter = new DashboardFilter(assets.get(), () -> json, issuerOrigin);
    environment
        .servlets()
        .addFilter("dashboard", filter)
        .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/*");
    var dashboard = new Dashboard(filter, devSignIn, assets.get().stylesheet());
    if (devSignIn != null) {
      var signIn = devSignIn;
      environment.lifecycle().addServerLifecycleListener(server -> signIn.announce());
    }
    return Optional.of(dashboard);
  }

  private static String orElse(String configured, String fallback) {
    return configured == null || configured.isBlank() ? fallback : configured;
  }

  /** The origin of an absolute URL; null for a relative one. */
  static String origin(String url) {
    var uri = URI.create(url);
    if (uri.getScheme() == null || uri.getHost() == null) {
      return null;
    }
    var port = uri.getPort() == -1 ? "" : ":" + uri.getPort();
    return uri.getScheme() + "://" + uri.getHost() + port;
  }

  public Optional<DevSignIn> devSignIn() {
    return Optional.ofNullable(devSignIn);
  }

  public String policy() {
    return filter.policy();
  }

  public String stylesheet() {
    return stylesheet;
  }
}
