package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A client span for each call the fabric8 client makes to the API server on behalf of a traced
 * gateway step (a fabric8 HTTP {@link Interceptor}), named by operation and resource ({@code
 * kubernetes create pytorchjobs}), with the backend's id. Calls made outside a trace (informers,
 * watches, retries on the client's own threads) make no span, so a watch does not start a trace per
 * event. The W3C {@code traceparent} goes along to the API server. Thread-safe.
 */
public final class KubernetesCallSpans implements Interceptor {
  static final String NAME = "trainyard-tracing";
  private static final String SCOPE = "io.trainyard.backend.kubernetes";
  private static final int MAX_OPEN = 10_000;
  private static final String TRACEPARENT = "traceparent";
  private static final AttributeKey<String> BACKEND_ID =
      AttributeKey.stringKey("trainyard.backend.id");
  private static final AttributeKey<String> BACKEND_KIND =
      AttributeKey.stringKey("trainyard.backend.kind");
  private static final AttributeKey<String> OPERATION =
      AttributeKey.stringKey("trainyard.backend.operation");
  private static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
  private static final AttributeKey<String> PATH = AttributeKey.stringKey("url.path");
  private static final AttributeKey<String> SERVER = AttributeKey.stringKey("server.address");
  private static final AttributeKey<Long> STATUS =
      AttributeKey.longKey("http.response.status_code");
  private static final AttributeKey<String> RESOURCE = AttributeKey.stringKey("k8s.resource");
  private static final TextMapSetter<BasicBuilder> HEADERS =
      (builder, key, value) -> builder.setHeader(key, value);

  private final OpenTelemetry telemetry;
  private final Tracer tracer;
  private final String backendId;
  private final String kind;
  // By span id: the request after() sees is a copy (with the traceparent this class added) whose
  // id() differs from the one before() saw.
  private final Map<String, Span> open = new ConcurrentHashMap<>();

  public KubernetesCallSpans(OpenTelemetry telemetry, String kind, String backendId) {
    this.telemetry = telemetry;
    this.tracer = telemetry.getTracer(SCOPE);
    this.kind = kind;
    this.backendId = backendId;
  }

  @Override
  public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
    var parent = Context.current();
    if (!Span.fromContext(parent).getSpanContext().isValid()) {
      return;
    }
    var resource = resource(request.uri().getPath());
    var operation = operation(request.method(), request.uri().getPath());
    var span =
        tracer
            .spanBuilder("kubernetes " + operation + " " + resource)
            .setSpanKind(SpanKind.CLIENT)
            .setParent(parent)
            .setAttribute(BACKEND_ID, backendId)
            .setAttribute(BACKEND_KIND, kind)
            .setAttribute(OPERATION, operation)
            .setAttribute(RESOURCE, resource)
            .setAttribute(METHOD, request.method())
            .setAttribute(PATH, request.uri().getPath())
            .setAttribute(SERVER, String.valueOf(request.uri().getHost()))
            .startSpan();
    if (open.size() > MAX_OPEN) {
      // Requests whose answer never came back through after(): end them rather than grow.
      open.values().forEach(Span::end);
      open.clear();
    }
    var previous = open.put(span.getSpanContext().getSpanId(), span);
    if (previous != null) {
      previous.end();
    }
    telemetry.getPropagators().getTextMapPropagator().inject(parent.with(span), builder, HEADERS);
    // Whatever propagators the gateway set, the W3C header goes too: it is what after() reads.
    builder.setHeader(TRACEPARENT, traceparent(span));
  }

  private static String traceparent(Span span) {
    var context = span.getSpanContext();
    return "00-"
        + context.getTraceId()
        + "-"
        + context.getSpanId()
        + "-"
        + context.getTraceFlags().asHex();
  }

  /** The span this class opened for {@code request}, found by the traceparent it sent. */
  private Span take(HttpRequest request) {
    var header = request.header(TRACEPARENT);
    if (header == null) {
      return null;
    }
    var parts = header.split("-");
    return parts.length < 3 ? null : open.remove(parts[2]);
  }

  @Override
  public void after(
      HttpRequest request,
      HttpResponse<?> response,
      AsyncBody.Consumer<List<ByteBuffer>> consumer) {
    var span = take(request);
    if (span == null) {
      return;
    }
    span.setAttribute(STATUS, (long) response.code());
    if (response.code() >= 400) {
      span.setStatus(StatusCode.ERROR, "HTTP " + response.code());
    }
    span.end();
  }

  @Override
  public void afterConnectionFailure(HttpRequest request, Throwable failure) {
    var span = take(request);
    if (span == null) {
      return;
    }
    span.setStatus(StatusCode.ERROR, failure.getClass().getSimpleName());
    span.end();
  }

  /**
   * The verb of a call, as RBAC names it: a GET of a collection is a list, a {@code ?watch} a
   * watch.
   */
  static String operation(String method, String path) {
    var segments = segments(path);
    return switch (method.toUpperCase(Locale.ROOT)) {
      case "POST" -> "create";
      case "PUT" -> "update";
      case "PATCH" -> "patch";
      case "DELETE" -> "delete";
      default -> named(segments) ? "get" : "list";
    };
  }

  /** The resource (plural) a path names, with its subresource ({@code pods/log}). */
  static String resource(String path) {
    var segments = segments(path);
    // /api/v1[/namespaces/ns]/plural[/name[/sub]] or /apis/group/version[/namespaces/ns]/...
    int start = segments.length > 0 && segments[0].equals("apis") ? 3 : 2;
    if (segments.length > start + 1
        && segments[start].equals("namespaces")
        && segments.length > start + 2) {
      start += 2;
    }
    if (segments.length <= start) {
      return segments.length == 0 ? "/" : segments[segments.length - 1];
    }
    var plural = segments[start];
    return segments.length > start + 2 ? plural + "/" + segments[start + 2] : plural;
  }

  private static boolean named(String[] segments) {
    int start = segments.length > 0 && segments[0].equals("apis") ? 3 : 2;
    if (segments.length > start + 2 && segments[start].equals("namespaces")) {
      start += 2;
    }
    return segments.length > start + 1;
  }

  private static String[] segments(String path) {
    var trimmed = path == null ? "" : path.replaceAll("^/+|/+$", "");
    return trimmed.isEmpty() ? new String[0] : trimmed.split("/");
  }
}
