package io.trainyard.gateway.health;

import com.codahale.metrics.health.HealthCheck;
import com.codahale.metrics.health.HealthCheckRegistry;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * {@code GET /ready} on the admin port: whether this gateway can serve, for a Kubernetes readiness
 * probe. Only the checks a request needs count (the database, Dropwizard's deadlock check, ...); a
 * backend's health ({@code backend-*}) and the price refresh are reported on {@code /healthcheck}
 * but never take the gateway out of its Service — an unhealthy backend is routed around, and a
 * gateway that stopped serving for it would only add an outage. 200 when every counted check is
 * healthy, else 503; the body names each check and its state, never an error's stack.
 */
public final class ReadinessServlet extends HttpServlet {
  public static final String PATH = "/ready";

  /** Checks that describe what the gateway talks to rather than whether it can serve. */
  public static final Predicate<String> NOT_COUNTED =
      name -> name.startsWith("backend-") || name.equals("prices");

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HealthCheckRegistry checks;

  public ReadinessServlet(HealthCheckRegistry checks) {
    this.checks = checks;
  }

  /** The counted checks' results, by name, run now. */
  public Map<String, HealthCheck.Result> results() {
    var results = new LinkedHashMap<String, HealthCheck.Result>();
    for (var name : checks.getNames()) {
      if (!NOT_COUNTED.test(name)) {
        results.put(name, checks.runHealthCheck(name));
      }
    }
    return results;
  }

  @Override
  protected void doGet(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    var results = results();
    var ready = results.values().stream().allMatch(HealthCheck.Result::isHealthy);
    var body = new LinkedHashMap<String, Object>();
    body.put("ready", ready);
    var states = new LinkedHashMap<String, String>();
    results.forEach((name, r) -> states.put(name, r.isHealthy() ? "healthy" : "unhealthy"));
    body.put("checks", states);
    response.setStatus(ready ? 200 : 503);
    response.setContentType("application/json");
    response.setHeader("Cache-Control", "no-store");
    JSON.writeValue(response.getOutputStream(), body);
  }
}
