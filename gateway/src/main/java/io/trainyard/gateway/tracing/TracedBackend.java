package io.trainyard.gateway.tracing;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.trainyard.spi.BackendEventListener;
import io.trainyard.spi.BackendHealth;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.BackendStatus;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogQuery;
import io.trainyard.spi.LogStream;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.Subscription;
import io.trainyard.spi.TrainingBackend;
import io.trainyard.spi.spec.JobSpec;
import java.util.function.Supplier;

/**
 * A backend whose calls are spans: {@code backend quote} (placements), {@code backend submit},
 * {@code backend status}, {@code backend cancel}, {@code backend logs}, each with the backend's id
 * and kind, so the backend's own client spans (AWS SDK, fabric8, gRPC) hang under the call that
 * made them. Health probes, event subscriptions and the rest pass through untraced.
 */
public final class TracedBackend implements TrainingBackend {
  private final TrainingBackend backend;
  private final Tracer tracer;
  private final Attributes attributes;

  public TracedBackend(TrainingBackend backend, GatewayTracing tracing) {
    this.backend = backend;
    this.tracer = tracing.tracer();
    this.attributes =
        Attributes.of(SpanTags.BACKEND_ID, backend.id(), SpanTags.BACKEND_KIND, backend.kind());
  }

  private <T> T call(String operation, String jobId, Supplier<T> work) {
    var builder =
        tracer
            .spanBuilder("backend " + operation)
            .setSpanKind(SpanKind.INTERNAL)
            .setAllAttributes(attributes);
    if (jobId != null) {
      builder.setAttribute(SpanTags.JOB_ID, jobId);
    }
    var span = builder.startSpan();
    try (var scope = span.makeCurrent()) {
      return work.get();
    } catch (RuntimeException e) {
      span.setStatus(StatusCode.ERROR, e.getClass().getSimpleName());
      throw e;
    } finally {
      span.end();
    }
  }

  @Override
  public String kind() {
    return backend.kind();
  }

  @Override
  public String id() {
    return backend.id();
  }

  @Override
  public Proposals placements(JobSpec spec) {
    return call("quote", null, () -> backend.placements(spec));
  }

  @Override
  public boolean placementsFromMemory() {
    return backend.placementsFromMemory();
  }

  @Override
  public ExternalRef submit(BackendJob job) {
    return call("submit", job.jobId(), () -> backend.submit(job));
  }

  @Override
  public BackendStatus status(ExternalRef ref) {
    return call("status", null, () -> backend.status(ref));
  }

  @Override
  public void cancel(ExternalRef ref) {
    call(
        "cancel",
        null,
        () -> {
          backend.cancel(ref);
          return null;
        });
  }

  @Override
  public void cancelAttempt(BackendJob attempt) {
    call(
        "cancel",
        attempt.jobId(),
        () -> {
          backend.cancelAttempt(attempt);
          return null;
        });
  }

  @Override
  public LogStream logs(ExternalRef ref, LogQuery query) {
    return call("logs", null, () -> backend.logs(ref, query));
  }

  @Override
  public boolean keepsLogs() {
    return backend.keepsLogs();
  }

  @Override
  public void cleanup(ExternalRef ref) {
    call(
        "cleanup",
        null,
        () -> {
          backend.cleanup(ref);
          return null;
        });
  }

  @Override
  public Subscription events(BackendEventListener listener) {
    return backend.events(listener);
  }

  @Override
  public boolean deliversGatewaySecrets() {
    return backend.deliversGatewaySecrets();
  }

  @Override
  public boolean sharesGatewayNetwork() {
    return backend.sharesGatewayNetwork();
  }

  @Override
  public BackendHealth health() {
    return backend.health();
  }

  @Override
  public void close() {
    backend.close();
  }
}
