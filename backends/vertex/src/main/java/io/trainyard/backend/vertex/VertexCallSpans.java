package io.trainyard.backend.vertex;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.ClientInterceptor;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapSetter;

/**
 * A client span for each gRPC call to Vertex AI or Cloud Logging made on behalf of a traced gateway
 * step (a gRPC {@link ClientInterceptor}): named by the full method ({@code
 * google.cloud.aiplatform.v1.JobService/CreateCustomJob}), with the backend's id and the gRPC
 * status. The W3C {@code traceparent} goes along as metadata. Calls outside a trace make no span.
 * Thread-safe.
 */
final class VertexCallSpans implements ClientInterceptor {
  private static final String SCOPE = "io.trainyard.backend.vertex";
  private static final AttributeKey<String> BACKEND_ID =
      AttributeKey.stringKey("trainyard.backend.id");
  private static final AttributeKey<String> BACKEND_KIND =
      AttributeKey.stringKey("trainyard.backend.kind");
  private static final AttributeKey<String> OPERATION =
      AttributeKey.stringKey("trainyard.backend.operation");
  private static final AttributeKey<String> RPC_SYSTEM = AttributeKey.stringKey("rpc.system");
  private static final AttributeKey<String> RPC_SERVICE = AttributeKey.stringKey("rpc.service");
  private static final AttributeKey<String> RPC_METHOD = AttributeKey.stringKey("rpc.method");
  private static final AttributeKey<Long> GRPC_STATUS =
      AttributeKey.longKey("rpc.grpc.status_code");
  private static final TextMapSetter<Metadata> METADATA =
      (metadata, key, value) ->
          metadata.put(Metadata.Key.of(key, Metadata.ASCII_STRING_MARSHALLER), value);

  private final OpenTelemetry telemetry;
  private final Tracer tracer;
  private final String backendId;

  VertexCallSpans(OpenTelemetry telemetry, String backendId) {
    this.telemetry = telemetry;
    this.tracer = telemetry.getTracer(SCOPE);
    this.backendId = backendId;
  }

  @Override
  public <Q, R> ClientCall<Q, R> interceptCall(
      MethodDescriptor<Q, R> method, CallOptions options, Channel next) {
    var parent = Context.current();
    if (!Span.fromContext(parent).getSpanContext().isValid()) {
      return next.newCall(method, options);
    }
    var service = method.getServiceName();
    var operation = method.getBareMethodName();
    var span =
        tracer
            .spanBuilder(method.getFullMethodName())
            .setSpanKind(SpanKind.CLIENT)
            .setParent(parent)
            .setAttribute(BACKEND_ID, backendId)
            .setAttribute(BACKEND_KIND, VertexBackendFactory.KIND)
            .setAttribute(OPERATION, operation)
            .setAttribute(RPC_SYSTEM, "grpc")
            .setAttribute(RPC_SERVICE, service)
            .setAttribute(RPC_METHOD, operation)
            .startSpan();
    var context = parent.with(span);
    return new ForwardingClientCall.SimpleForwardingClientCall<>(next.newCall(method, options)) {
      @Override
      public void start(Listener<R> listener, Metadata headers) {
        telemetry.getPropagators().getTextMapPropagator().inject(context, headers, METADATA);
        super.start(
            new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
              @Override
              public void onClose(Status status, Metadata trailers) {
                span.setAttribute(GRPC_STATUS, (long) status.getCode().value());
                if (!status.isOk()) {
                  // The code, not the description: it may quote the request.
                  span.setStatus(StatusCode.ERROR, status.getCode().name());
                }
                span.end();
                super.onClose(status, trailers);
              }
            },
            headers);
      }

      @Override
      public void cancel(String message, Throwable cause) {
        span.setStatus(StatusCode.ERROR, "CANCELLED");
        super.cancel(message, cause);
      }
    };
  }
}
