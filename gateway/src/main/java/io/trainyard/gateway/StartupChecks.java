package io.trainyard.gateway;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.core.server.AbstractServerFactory;
import io.dropwizard.core.server.DefaultServerFactory;
import io.dropwizard.core.server.SimpleServerFactory;
import io.dropwizard.jetty.ConnectorFactory;
import io.dropwizard.jetty.HttpConnectorFactory;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.logging.BatchingRequestLogFactory;
import io.trainyard.spi.BackendConfig;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

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
      // The access log written in batches, not a hand-off and a write per line (issue 19).
      BatchingRequestLogFactory.install(base);
      // Nothing here answers OPTIONS (no cross-origin callers): 405 like any other method not
      // served, rather than Jersey's generated answer behind the role check (403 for everyone).
      var methods = new java.util.HashSet<>(base.getAllowedMethods());
      if (methods.remove("OPTIONS")) {
        base.setAllowedMethods(methods);
      }
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
    refuseOffLoopback(applicationConnectors(), "application");
    refuseOffLoopback(adminConnectors(), "admin");
    var url = config.getDatabase().getUrl();
    if (url != null && !url.isBlank() && !isLocalH2File(url)) {
      throw new IllegalStateException(
          "auth.mode dev refuses database.url "
              + url.split(";", 2)[0]
              + ": dev tokens are for one machine's H2 file (jdbc:h2:file:PATH, or no url),"
              + " not a server, memory, AUTO_SERVER or INIT database");
    }
  }

  private static void refuseOffLoopback(List<ConnectorFactory> connectors, String which) {
    for (var connector : connectors) {
      var host = connector instanceof HttpConnectorFactory http ? http.getBindHost() : null;
      if (!isLoopback(host)) {
        throw new IllegalStateException(
            "auth.mode dev binds only to a loopback address literal (127.0.0.1 or ::1);"
                + " server "
                + which
                + " connector bindHost is "
                + (host == null ? "every interface" : host)
                + (host != null && !isAddressLiteral(host)
                    ? " (a name, which the resolver may map anywhere)"
                    : ""));
      }
    }
  }

  /**
   * Whether {@code host} is a loopback address written as a literal. A name such as {@code
   * localhost} is refused: what it resolves to is up to /etc/hosts and DNS, not to this check.
   */
  static boolean isLoopback(String host) {
    if (host == null || !isAddressLiteral(host)) {
      return false;
    }
    try {
      // A literal is parsed, never looked up.
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  private static boolean isAddressLiteral(String host) {
    return IPV4.matcher(host).matches() || host.contains(":");
  }

  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

  /**
   * A file of H2's own on this machine: {@code jdbc:h2:file:} or a bare path, without {@code
   * AUTO_SERVER} (which opens a TCP port) or {@code INIT} (which runs a script from anywhere).
   */
  static boolean isLocalH2File(String url) {
    if (!url.startsWith("jdbc:h2:")) {
      return false;
    }
    var rest = url.substring("jdbc:h2:".length());
    var upper = rest.toUpperCase(java.util.Locale.ROOT);
    if (upper.contains(";AUTO_SERVER") || upper.contains(";INIT")) {
      return false;
    }
    if (rest.startsWith("file:")) {
      return true;
    }
    // Any other "word:" prefix is a protocol (tcp:, ssl:, mem:, zip: ...); a path has none,
    // though a Windows drive letter looks like one.
    return !rest.matches("(?s)[A-Za-z]{2,}:.*");
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
