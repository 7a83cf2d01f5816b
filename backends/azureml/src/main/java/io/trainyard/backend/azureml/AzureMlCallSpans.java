package io.trainyard.backend.azureml;

import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpPipelineNextSyncPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import reactor.core.publisher.Mono;

/**
 * A client span for each Azure call (ARM, blob logs) made on behalf of a traced gateway step: an
 * azure-core pipeline policy ahead of the retry policy, so one span covers a call and its retries.
 * Named {@code azureml METHOD resource} by the last resource type in the path ({@code azureml PUT
 * jobs}), never by names. Calls outside a trace make no span. Thread-safe.
 */
final class AzureMlCallSpans implements HttpPipelinePolicy {
  private static final String SCOPE = "io.trainyard.backend.azureml";
  private static final AttributeKey<String> BACKEND_ID =
      AttributeKey.stringKey("trainyard.backend.id");
  private static final AttributeKey<String> BACKEND_KIND =
      AttributeKey.stringKey("trainyard.backend.kind");
  private static final AttributeKey<String> OPERATION =
      AttributeKey.stringKey("trainyard.backend.operation");
  private static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
  private static final AttributeKey<String> SERVER = AttributeKey.stringKey("server.address");
  private static final AttributeKey<Long> STATUS =
      AttributeKey.longKey("http.response.status_code");

  private final Tracer tracer;
  private final String backendId;

  AzureMlCallSpans(OpenTelemetry telemetry, String backendId) {
    this.tracer = telemetry.getTracer(SCOPE);
    this.backendId = backendId;
  }

  @Override
  public HttpResponse processSync(
      HttpPipelineCallContext context, HttpPipelineNextSyncPolicy next) {
    var parent = Context.current();
    if (!Span.fromContext(parent).getSpanContext().isValid()) {
      return next.processSync();
    }
    var request = context.getHttpRequest();
    var method = request.getHttpMethod().name();
    var operation = method + " " + resource(request.getUrl().getPath());
    var span =
        tracer
            .spanBuilder("azureml " + operation)
            .setSpanKind(SpanKind.CLIENT)
            .setParent(parent)
            .setAttribute(BACKEND_ID, backendId)
            .setAttribute(BACKEND_KIND, AzureMlBackendFactory.KIND)
            .setAttribute(OPERATION, operation)
            .setAttribute(METHOD, method)
            .setAttribute(SERVER, request.getUrl().getHost())
            .startSpan();
    try {
      var response = next.processSync();
      span.setAttribute(STATUS, (long) response.getStatusCode());
      if (response.getStatusCode() >= 400) {
        span.setStatus(StatusCode.ERROR, "HTTP " + response.getStatusCode());
      }
      return response;
    } catch (RuntimeException e) {
      span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
      throw e;
    } finally {
      span.end();
    }
  }

  /** The reactive path is not used by this backend (it calls sendSync); passed through. */
  @Override
  public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
    return next.process();
  }

  /**
   * The last resource type of an ARM path ({@code .../workspaces/w/jobs/j} → {@code jobs}), or the
   * first segment of a blob path (the container).
   */
  static String resource(String path) {
    var segments = path == null ? new String[0] : path.replaceAll("^/+|/+$", "").split("/");
    if (segments.length >= 2 && path.contains("/providers/")) {
      // ARM: type/name pairs after the provider; a path ending on a type is a collection.
      return segments.length % 2 == 0
          ? segments[segments.length - 2]
          : segments[segments.length - 1];
    }
    return segments.length == 0 || segments[0].isEmpty() ? "/" : "blob";
  }
}
