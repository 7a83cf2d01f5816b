package io.trainyard.gateway;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.core.server.AbstractServerFactory;
import io.dropwizard.core.server.DefaultServerFactory;
import io.dropwizard.core.server.SimpleServerFactory;
import io.dropwizard.jetty.ConnectorFactory;
import io.dropwizard.jetty.HttpConnectorFactory;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.spi.BackendConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Fills in what the configuration left open and refuses configurations that would be unsafe, at
 * start, with messages that name the setting. Dev auth mints tokens for anyone, so it must never be
 * reachable from another machine or guard a production database.
 */
final class StartupChecks {
  static final String LOOPBACK = "127.0.0.1";

  private final TrainyardConfiguration config;
  private final ObjectMapper mapper;

  StartupChecks(TrainyardConfiguration config, ObjectMapper mapper) {
    this.config = config;
    this.mapper = mapper;
  }

  void applyDefaults() {
    var server = config.getServerFactory();
    if (server instanceof AbstractServerFactory base) {
      // Our one exception mapper answers every error; Dropwizard's would answer in another shape.
      base.setRegisterDefaultExceptionMappers(false);
      // Followed logs are flushed line by line; a compressor must pass each flush on.
      base.getGzipFilterFactory().setSyncFlush(true);
    }
    for (var connector : adminConnectors()) {
      if (connector instanceof HttpConnectorFactory http && http.getBindHost() == null) {
        http.setBindHost(LOOPBACK);
      }
    }
    if (config.isZeroConfig()) {
      for (var connector : applicationConnectors()) {
        if (connector instanceof HttpConnectorFactory http) {
          http.setBindHost(LOOPBACK);
        }
      }
    }
    if (config.getBackends().isEmpty()) {
      if (config.getAuth().getMode() != AuthConfig.Mode.DEV) {
        throw new IllegalStateException("backends: configure at least one backend");
      }
      var local = mapper.convertValue(Map.of("type", "local"), BackendConfig.class);
      config.setBackends(new ArrayList<>(List.of(local)));
    }
  }

  void refuseUnsafeDevMode() {
    var auth = config.getAuth();
    if (auth.getMode() == AuthConfig.Mode.OIDC) {
      if (auth.getIssuer() == null || auth.getIssuer().isBlank()) {
        throw new IllegalStateException(
            "auth.issuer is required with auth.mode oidc (dev mode is never a fall-back)");
      }
      return;
    }
    if (config.getDatabase().isPostgres()) {
      throw new IllegalStateException(
          "auth.mode dev refuses to run with PostgreSQL: dev tokens are for one machine's H2");
    }
    for (var connector : applicationConnectors()) {
      var host = connector instanceof HttpConnectorFactory http ? http.getBindHost() : null;
      if (!isLoopback(host)) {
        throw new IllegalStateException(
            "auth.mode dev binds only to loopback; server application connector bindHost is "
                + (host == null ? "every interface" : host));
      }
    }
  }

  static boolean isLoopback(String host) {
    return host != null
        && (host.startsWith("127.") || host.equals("localhost") || host.equals("::1"));
  }

  private List<ConnectorFactory> applicationConnectors() {
    var server = config.getServerFactory();
    if (server instanceof DefaultServerFactory d) {
      return d.getApplicationConnectors();
    }
    if (server instanceof SimpleServerFactory s) {
      return List.of(s.getConnector());
    }
    return List.of();
  }

  private List<ConnectorFactory> adminConnectors() {
    var server = config.getServerFactory();
    return server instanceof DefaultServerFactory d ? d.getAdminConnectors() : List.of();
  }
}
