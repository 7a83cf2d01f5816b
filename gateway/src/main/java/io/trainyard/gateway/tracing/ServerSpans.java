package io.trainyard.gateway.tracing;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Collections;
import org.slf4j.MDC;

/**
 * The server span of each request on the application port: continues a caller's W3C {@code
 * traceparent}, is current while the request is served (so every span of the request is its child),
 * carries the status code, and puts the trace id in the log lines' MDC ({@code traceId}). {@link
 * RouteNames} names it by route template and adds the request id once Jersey knows them.
 */
public final class ServerSpans implements Filter {
  static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
  static final AttributeKey<String> PATH = AttributeKey.stringKey("url.path");
  static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");
  private static final TextMapGetter<HttpServletRequest> HEADERS =
      new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(HttpServletRequest request) {
          return Collections.list(request.getHeaderNames());
        }

        @Override
        public String get(HttpServletRequest request, String key) {
          return request == null ? null : request.getHeader(key);
        }
      };

  private final OpenTelemetry telemetry;
  private final Tracer tracer;

  ServerSpans(OpenTelemetry telemetry, Tracer tracer) {
    this.telemetry = telemetry;
    this.tracer = tracer;
  }

  @Override
  public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
      throws IOException, ServletException {
    if (!(req instanceof HttpServletRequest request)
        || !(res instanceof HttpServletResponse response)) {
      chain.doFilter(req, res);
      return;
    }
    var parent =
        telemetry.getPropagators().getTextMapPropagator().extract(Context.root(), request, HEADERS);
    var span =
        tracer
            .spanBuilder(request.getMethod())
            .setSpanKind(SpanKind.SERVER)
            .setParent(parent)
            .setAttribute(METHOD, request.getMethod())
            .setAttribute(PATH, request.getRequestURI())
            .startSpan();
    var context = new SpanTags().storeIn(parent.with(span));
    var previous = MDC.get(GatewayTracing.MDC_TRACE_ID);
    try (var scope = context.makeCurrent()) {
      if (span.getSpanContext().isValid()) {
        MDC.put(GatewayTracing.MDC_TRACE_ID, span.getSpanContext().getTraceId());
      }
      chain.doFilter(request, response);
      var status = response.getStatus();
      span.setAttribute(STATUS, (long) status);
      if (status >= 500) {
        span.setStatus(StatusCode.ERROR);
      }
    } catch (IOException | ServletException | RuntimeException e) {
      span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
      throw e;
    } finally {
      GatewayTracing.restore(previous);
      span.end();
    }
  }
}
