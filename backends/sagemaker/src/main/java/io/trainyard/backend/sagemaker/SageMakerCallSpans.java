package io.trainyard.backend.sagemaker;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttribute;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;

/**
 * A client span for each AWS SDK call (SageMaker, CloudWatch Logs) made on behalf of a traced
 * gateway step: named {@code Service.Operation} ({@code SageMaker.CreateTrainingJob}), with the
 * backend's id and the HTTP status. One span per SDK call, its retries inside it. Calls outside a
 * trace make no span. Thread-safe.
 */
final class SageMakerCallSpans implements ExecutionInterceptor {
  private static final String SCOPE = "io.trainyard.backend.sagemaker";
  private static final ExecutionAttribute<Span> SPAN =
      new ExecutionAttribute<>("trainyard.tracing.span");
  private static final AttributeKey<String> BACKEND_ID =
      AttributeKey.stringKey("trainyard.backend.id");
  private static final AttributeKey<String> BACKEND_KIND =
      AttributeKey.stringKey("trainyard.backend.kind");
  private static final AttributeKey<String> OPERATION =
      AttributeKey.stringKey("trainyard.backend.operation");
  private static final AttributeKey<String> RPC_SYSTEM = AttributeKey.stringKey("rpc.system");
  private static final AttributeKey<String> RPC_SERVICE = AttributeKey.stringKey("rpc.service");
  private static final AttributeKey<String> RPC_METHOD = AttributeKey.stringKey("rpc.method");
  private static final AttributeKey<Long> STATUS =
      AttributeKey.longKey("http.response.status_code");

  private final Tracer tracer;
  private final String backendId;

  SageMakerCallSpans(OpenTelemetry telemetry, String backendId) {
    this.tracer = telemetry.getTracer(SCOPE);
    this.backendId = backendId;
  }

  @Override
  public void beforeExecution(
      software.amazon.awssdk.core.interceptor.Context.BeforeExecution context,
      ExecutionAttributes attributes) {
    var parent = Context.current();
    if (!Span.fromContext(parent).getSpanContext().isValid()) {
      return;
    }
    var service = attributes.getAttribute(SdkExecutionAttribute.SERVICE_NAME);
    var operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
    var span =
        tracer
            .spanBuilder(service + "." + operation)
            .setSpanKind(SpanKind.CLIENT)
            .setParent(parent)
            .setAttribute(BACKEND_ID, backendId)
            .setAttribute(BACKEND_KIND, SageMakerBackendFactory.KIND)
            .setAttribute(OPERATION, operation)
            .setAttribute(RPC_SYSTEM, "aws-api")
            .setAttribute(RPC_SERVICE, service)
            .setAttribute(RPC_METHOD, operation)
            .startSpan();
    attributes.putAttribute(SPAN, span);
  }

  @Override
  public void afterExecution(
      software.amazon.awssdk.core.interceptor.Context.AfterExecution context,
      ExecutionAttributes attributes) {
    var span = attributes.getAttribute(SPAN);
    if (span == null) {
      return;
    }
    span.setAttribute(STATUS, (long) context.httpResponse().statusCode());
    span.end();
  }

  @Override
  public void onExecutionFailure(
      software.amazon.awssdk.core.interceptor.Context.FailedExecution context,
      ExecutionAttributes attributes) {
    var span = attributes.getAttribute(SPAN);
    if (span == null) {
      return;
    }
    context
        .httpResponse()
        .ifPresent(response -> span.setAttribute(STATUS, (long) response.statusCode()));
    // The exception's type, not its message: SDK messages may quote request fields.
    span.setStatus(StatusCode.ERROR, context.exception().getClass().getSimpleName());
    span.end();
  }
}
