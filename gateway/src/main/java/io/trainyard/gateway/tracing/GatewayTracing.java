package io.trainyard.gateway.tracing;

import io.dropwizard.core.setup.Environment;
import io.dropwizard.lifecycle.Managed;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.exporter.otlp.trace.OtlpGrpcSpanExporter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.trainyard.gateway.config.TracingConfig;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.errors.RequestIds;
import io.trainyard.spi.JobState;
import jakarta.servlet.DispatcherType;
import java.net.URI;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.MDC;

/**
 * The gateway's traces (docs/observability.md "Traces"). With {@code tracing.otlp.endpoint} unset
 * there is no SDK: {@link OpenTelemetry#noop()}, whose spans cost a few allocations at most and are
 * never exported, and no servlet filter at all. With an endpoint: the SDK, a batch OTLP exporter,
 * W3C {@code traceparent} in and out, and {@link SpanTagsProcessor} putting the request and job ids
 * on every span.
 *
 * <p>The OpenTelemetry instance reaches backends through {@link
 * io.trainyard.spi.BackendContext#openTelemetry()}, not {@code GlobalOpenTelemetry}: a global can
 * be set once per JVM, and tests (and embedders) run several gateways, traced or not, in one.
 *
 * <p>A submission is one trace: the request's server span, {@code validate}, {@code route} (a
 * {@code backend quote} per backend), {@code persist}, then, on the reconciler thread, {@code
 * reconcile PENDING} as a child of {@code persist} with {@code backend submit} and the backend's
 * client spans under it. Later reconciler steps are traces of their own, with the job id and a link
 * to the submission. Thread-safe.
 */
public final class GatewayTracing implements Managed {
  public static final String MDC_TRACE_ID = "traceId";
  private static final String SCOPE = "io.trainyard.gateway";
  private static final int REMEMBERED = 10_000;

  private final OpenTelemetry telemetry;
  private final SdkTracerProvider provider;
  private final Tracer tracer;
  // Submissions whose first backend call is still to come: that call continues their trace. Kept
  // in this replica's memory only (a job adopted by another replica starts a trace of its own).
  private final Map<String, Submission> submissions =
      new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Submission> eldest) {
          return size() > REMEMBERED;
        }
      };

  /** The span that stored a job, and the request's id. */
  private record Submission(SpanContext span, String requestId) {}

  private GatewayTracing(OpenTelemetry telemetry, SdkTracerProvider provider) {
    this.telemetry = telemetry;
    this.provider = provider;
    this.tracer = telemetry.getTracer(SCOPE);
  }

  /** Tracing off: no SDK, no exporter. */
  public static GatewayTracing off() {
    return new GatewayTracing(OpenTelemetry.noop(), null);
  }

  /** The SDK and OTLP exporter of {@code config}, or {@link #off()} without an endpoint. */
  public static GatewayTracing from(TracingConfig config) {
    if (!config.enabled()) {
      return off();
    }
    var otlp = config.getOtlp();
    var provider =
        SdkTracerProvider.builder()
            .setResource(
                Resource.getDefault()
                    .merge(
                        Resource.create(
                            Attributes.of(
                                AttributeKey.stringKey("service.name"), config.getServiceName()))))
            .setSampler(Sampler.parentBased(Sampler.traceIdRatioBased(config.getSamplerRatio())))
            .addSpanProcessor(new SpanTagsProcessor())
            .addSpanProcessor(
                BatchSpanProcessor.builder(exporter(otlp))
                    .setScheduleDelay(
                        otlp.getScheduleDelay().toMilliseconds(), TimeUnit.MILLISECONDS)
                    .build())
            .build();
    var sdk =
        OpenTelemetrySdk.builder()
            .setTracerProvider(provider)
            .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
            .build();
    return new GatewayTracing(sdk, provider);
  }

  private static SpanExporter exporter(TracingConfig.Otlp otlp) {
    var timeout = otlp.getTimeout().toMilliseconds();
    if (TracingConfig.Otlp.GRPC.equals(otlp.getProtocol())) {
      var grpc =
          OtlpGrpcSpanExporter.builder()
              .setEndpoint(otlp.getEndpoint())
              .setTimeout(timeout, TimeUnit.MILLISECONDS);
      otlp.getHeaders().forEach(grpc::addHeader);
      return grpc.build();
    }
    var http =
        OtlpHttpSpanExporter.builder()
            .setEndpoint(httpEndpoint(otlp.getEndpoint()))
            .setTimeout(timeout, TimeUnit.MILLISECONDS);
    otlp.getHeaders().forEach(http::addHeader);
    return http.build();
  }

  /** A collector's base URL gets OTLP/HTTP's traces path, as OTEL_EXPORTER_OTLP_ENDPOINT does. */
  static String httpEndpoint(String endpoint) {
    var uri = URI.create(endpoint);
    var path = uri.getPath();
    if (path == null || path.isEmpty() || path.equals("/")) {
      return endpoint.replaceAll("/+$", "") + "/v1/traces";
    }
    return endpoint;
  }

  public boolean enabled() {
    return provider != null;
  }

  /** The instance backends build their client spans from. */
  public OpenTelemetry openTelemetry() {
    return telemetry;
  }

  Tracer tracer() {
    return tracer;
  }

  /** Runs {@code work} in a span named {@code name}, a child of the current one. */
  public <T> T inSpan(String name, Supplier<T> work) {
    return inSpan(name, Attributes.empty(), work);
  }

  /** Runs {@code work} in a span named {@code name} with {@code attributes}. */
  public <T> T inSpan(String name, Attributes attributes, Supplier<T> work) {
    if (provider == null) {
      return work.get(); // off: not even a no-op span made current
    }
    var span = tracer.spanBuilder(name).setAllAttributes(attributes).startSpan();
    try (var scope = span.makeCurrent()) {
      return work.get();
    } catch (RuntimeException e) {
      // The type, not the message: messages may quote the spec.
      span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
      throw e;
    } finally {
      span.end();
    }
  }

  /**
   * Called in the span that stored the job: the reconciler's first steps of it continue this trace.
   */
  public void submitted(String jobId) {
    var context = Span.current().getSpanContext();
    if (context.isValid()) {
      var tags = SpanTags.current();
      synchronized (submissions) {
        submissions.put(jobId, new Submission(context, tags == null ? null : tags.requestId()));
      }
    }
  }

  /**
   * Runs one reconciler step of {@code job} in a span {@code reconcile <STATE>} carrying the job
   * id: a child of the submission while the job waits for its first backend, else a trace of its
   * own linked to the submission when this replica saw it.
   */
  public void step(JobRow job, Runnable work) {
    if (!enabled()) {
      work.run();
      return;
    }
    Submission submission;
    var waiting = job.state() == JobState.PENDING || job.state() == JobState.QUEUED;
    synchronized (submissions) {
      // Every later step links to the submission; an ended job needs it no more.
      submission =
          job.state().isTerminal() ? submissions.remove(job.id()) : submissions.get(job.id());
    }
    var builder =
        tracer
            .spanBuilder("reconcile " + job.state())
            .setAttribute(SpanTags.JOB_ID, job.id())
            .setAttribute(SpanTags.TEAM, job.team())
            .setAttribute(SpanTags.STATE, job.state().name())
            .setAttribute(SpanTags.ATTEMPT, (long) job.attempt());
    if (job.backendId() != null) {
      builder.setAttribute(SpanTags.BACKEND_ID, job.backendId());
    }
    var tags = SpanTags.forJob(job.id());
    if (submission != null && waiting) {
      // The request's id goes on with its trace, down to the backend's client spans.
      tags.requestId(submission.requestId());
      builder.setParent(tags.storeIn(Context.root().with(Span.wrap(submission.span()))));
    } else {
      builder.setParent(tags.storeIn(Context.root()));
      if (submission != null) {
        builder.addLink(submission.span());
      }
    }
    var span = builder.startSpan();
    var context = tags.storeIn(Context.root().with(span));
    var previous = MDC.get(MDC_TRACE_ID);
    var previousRequest = MDC.get(RequestIds.MDC_KEY);
    try (var scope = context.makeCurrent()) {
      MDC.put(MDC_TRACE_ID, span.getSpanContext().getTraceId());
      if (tags.requestId() != null) {
        // The submission's continuation logs under the request's id too.
        MDC.put(RequestIds.MDC_KEY, tags.requestId());
      }
      work.run();
    } finally {
      restore(previous);
      if (previousRequest == null) {
        MDC.remove(RequestIds.MDC_KEY);
      } else {
        MDC.put(RequestIds.MDC_KEY, previousRequest);
      }
      span.end();
    }
  }

  static void restore(String previousTraceId) {
    if (previousTraceId == null) {
      MDC.remove(MDC_TRACE_ID);
    } else {
      MDC.put(MDC_TRACE_ID, previousTraceId);
    }
  }

  /**
   * Flushes at shutdown (managed first, so stopped last) and, when on, serves server spans: a
   * servlet filter before every other on the application port, and {@link RouteNames} in Jersey.
   * Off, nothing is registered.
   */
  public void registerWith(Environment environment) {
    environment.lifecycle().manage(this);
    if (!enabled()) {
      return;
    }
    environment
        .servlets()
        .addFilter("tracing", new ServerSpans(telemetry, tracer))
        .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
    environment.jersey().register(new RouteNames());
  }

  @Override
  public void start() {}

  /** Sends what is still buffered, then stops the exporter. */
  @Override
  public void stop() {
    if (provider != null) {
      provider.shutdown().join(10, TimeUnit.SECONDS);
    }
  }
}
