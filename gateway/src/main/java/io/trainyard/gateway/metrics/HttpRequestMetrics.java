package io.trainyard.gateway.metrics;

import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.glassfish.jersey.server.ExtendedUriInfo;
import org.glassfish.jersey.server.model.ResourceMethod;
import org.glassfish.jersey.server.monitoring.ApplicationEvent;
import org.glassfish.jersey.server.monitoring.ApplicationEventListener;
import org.glassfish.jersey.server.monitoring.RequestEvent;
import org.glassfish.jersey.server.monitoring.RequestEventListener;

/**
 * How long the API takes to answer, by method, route template ({@code /v1/jobs/{id}}, never the
 * path a caller typed) and status code: a Jersey listener registered on the application port.
 * Cardinality stays bounded: routes are the resources' templates, a request no resource matched is
 * counted under {@link #UNMATCHED}, and an unusual method under {@code OTHER}. Thread-safe.
 */
public final class HttpRequestMetrics implements ApplicationEventListener {
  /** The route of a request no resource method matched (a 404 or 405 from Jersey itself). */
  public static final String UNMATCHED = "unmatched";

  static final double[] BUCKETS = {
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300
  };
  private static final Set<String> METHODS =
      Set.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS");
  // {id: [a-z0-9]+} → {id}: the regex is the resource's business, the label wants the name.
  private static final Pattern PARAMETER_REGEX = Pattern.compile("\\{\\s*(\\w+)\\s*:[^}]*}");

  private final Histogram duration;
  // Found once per resource method and per (method, route, status), not on every request: the
  // route's template walk and regex and the registry's label look-up were a visible share of a
  // cheap read's CPU (issue 19's JFR profile). Both are bounded by the API's size.
  private final Map<ResourceMethod, String> routes = new ConcurrentHashMap<>();
  private final Map<Series, DistributionDataPoint> series = new ConcurrentHashMap<>();

  private record Series(String method, String route, int status) {}

  HttpRequestMetrics(PrometheusRegistry registry) {
    duration =
        Histogram.builder()
            .name("trainyard_http_server_request_duration_seconds")
            .help(
                "Time to answer an API request, by method, route template and status code"
                    + " (followed log streams count until they end).")
            .unit(Unit.SECONDS)
            .labelNames("method", "route", "status")
            .classicOnly()
            .classicUpperBounds(BUCKETS)
            .register(registry);
  }

  @Override
  public void onEvent(ApplicationEvent event) {}

  @Override
  public RequestEventListener onRequest(RequestEvent start) {
    var began = System.nanoTime();
    return event -> {
      if (event.getType() == RequestEvent.Type.FINISHED) {
        var response = event.getContainerResponse();
        // No response: an exception no mapper turned into one, which Jetty answers with 500.
        var status = response == null ? 500 : response.getStatus();
        var key =
            new Series(
                method(event.getContainerRequest().getMethod()),
                cachedRoute(event.getUriInfo()),
                status);
        series
            .computeIfAbsent(
                key, k -> duration.labelValues(k.method(), k.route(), Integer.toString(k.status())))
            .observe((System.nanoTime() - began) / 1e9);
      }
    };
  }

  static String method(String method) {
    return method != null && METHODS.contains(method) ? method : "OTHER";
  }

  /**
   * {@link #route}, remembered per resource method when no sub-resource locator led to it (a
   * locator's method could be reached under more than one template).
   */
  private String cachedRoute(ExtendedUriInfo uri) {
    if (uri == null || uri.getMatchedResourceMethod() == null) {
      return UNMATCHED;
    }
    if (!uri.getLocatorSubResources().isEmpty()) {
      return route(uri);
    }
    return routes.computeIfAbsent(uri.getMatchedResourceMethod(), m -> route(uri));
  }

  /** The matched resource method's template from the root, or {@link #UNMATCHED}. */
  static String route(ExtendedUriInfo uri) {
    if (uri == null || uri.getMatchedResourceMethod() == null) {
      return UNMATCHED;
    }
    var templates = uri.getMatchedTemplates(); // innermost first
    var route = new StringBuilder();
    for (int i = templates.size() - 1; i >= 0; i--) {
      var part = templates.get(i).getTemplate();
      if (part.isEmpty() || part.equals("/")) {
        continue;
      }
      if (!part.startsWith("/")) {
        route.append('/');
      }
      route.append(part.endsWith("/") ? part.substring(0, part.length() - 1) : part);
    }
    var text = PARAMETER_REGEX.matcher(route).replaceAll("{$1}");
    return text.isEmpty() ? "/" : text;
  }
}
