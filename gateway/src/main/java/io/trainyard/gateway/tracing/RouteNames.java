package io.trainyard.gateway.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.trainyard.gateway.errors.RequestIds;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import java.util.ArrayList;
import java.util.Collections;
import org.glassfish.jersey.server.ExtendedUriInfo;

/**
 * Completes the server span from what Jersey knows: the request id ({@link RequestIds}, which runs
 * just before) on the span and in the context every later span reads it from, and, once the request
 * matched a resource, the span's name {@code METHOD /route/{template}} and {@code http.route} —
 * low-cardinality names, never ids.
 */
@PreMatching
@Priority(Priorities.AUTHENTICATION - 90)
public final class RouteNames implements ContainerRequestFilter, ContainerResponseFilter {
  static final AttributeKey<String> ROUTE = AttributeKey.stringKey("http.route");

  RouteNames() {}

  @Override
  public void filter(ContainerRequestContext request) {
    var tags = SpanTags.current();
    var id = (String) request.getProperty(RequestIds.PROPERTY);
    if (tags == null || id == null) {
      return;
    }
    tags.requestId(id);
    Span.current().setAttribute(SpanTags.REQUEST_ID, id);
  }

  @Override
  public void filter(ContainerRequestContext request, ContainerResponseContext response) {
    if (SpanTags.current() == null || !(request.getUriInfo() instanceof ExtendedUriInfo uriInfo)) {
      return;
    }
    var templates = new ArrayList<>(uriInfo.getMatchedTemplates());
    if (templates.isEmpty()) {
      return;
    }
    Collections.reverse(templates);
    var route = new StringBuilder();
    for (var template : templates) {
      var part = template.getTemplate();
      if (!part.startsWith("/")) {
        route.append('/');
      }
      route.append(part);
    }
    var name = route.toString().replaceAll("/{2,}", "/");
    if (name.length() > 1 && name.endsWith("/")) {
      name = name.substring(0, name.length() - 1);
    }
    var span = Span.current();
    span.updateName(request.getMethod() + " " + name);
    span.setAttribute(ROUTE, name);
  }
}
