package io.trainyard.gateway.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import io.trainyard.spi.BackendEventListener;
import io.trainyard.spi.BackendException;
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
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The latency and errors of the gateway's calls into each backend, by backend id and operation,
 * measured where the gateway calls the SPI: {@link #measuring} wraps a backend, so every backend
 * kind is measured the same way without any of them knowing. Thread-safe.
 */
public final class BackendCallMetrics {
  /** Seconds: a local process answers in milliseconds, a cloud SDK with its retries in minutes. */
  static final double[] BUCKETS = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};

  private final Histogram duration;
  private final Counter errors;

  BackendCallMetrics(PrometheusRegistry registry) {
    duration =
        Histogram.builder()
            .name("trainyard_backend_call_duration_seconds")
            .help("Time of the gateway's calls into a backend, by backend, operation and outcome.")
            .unit(Unit.SECONDS)
            .labelNames("backend", "operation", "outcome")
            .classicOnly()
            .classicUpperBounds(BUCKETS)
            .register(registry);
    errors =
        Counter.builder()
            .name("trainyard_backend_call_errors")
            .help("Backend calls that threw, by backend, operation and error kind.")
            .labelNames("backend", "operation", "error")
            .register(registry);
  }

  /** {@code backend}, with each SPI call timed and its failures counted. */
  public TrainingBackend measuring(TrainingBackend backend) {
    Objects.requireNonNull(backend, "backend");
    return backend instanceof Measured ? backend : new Measured(backend);
  }

  /**
   * The kind of a backend's failure, one of a few fixed words (the SPI's typed errors, else {@code
   * unexpected}).
   */
  static String errorKind(RuntimeException e) {
    if (e instanceof BackendException.Retryable) {
      return "retryable";
    } else if (e instanceof BackendException.CapacityUnavailable) {
      return "capacity_unavailable";
    } else if (e instanceof BackendException.Rejected) {
      return "rejected";
    } else if (e instanceof BackendException.NotFound) {
      return "not_found";
    } else if (e instanceof BackendException.Unauthenticated) {
      return "unauthenticated";
    }
    return "unexpected";
  }

  private final class Measured implements TrainingBackend {
    private final TrainingBackend delegate;

    Measured(TrainingBackend delegate) {
      this.delegate = delegate;
    }

    private <T> T timed(String operation, Supplier<T> call) {
      var began = System.nanoTime();
      var id = delegate.id();
      try {
        var answer = call.get();
        duration.labelValues(id, operation, "ok").observe(since(began));
        return answer;
      } catch (RuntimeException e) {
        duration.labelValues(id, operation, "error").observe(since(began));
        errors.labelValues(id, operation, errorKind(e)).inc();
        throw e;
      }
    }

    private static double since(long began) {
      return (System.nanoTime() - began) / 1e9;
    }

    @Override
    public String kind() {
      return delegate.kind();
    }

    @Override
    public String id() {
      return delegate.id();
    }

    @Override
    public Proposals placements(JobSpec spec) {
      return timed("quote", () -> delegate.placements(spec));
    }

    @Override
    public boolean placementsFromMemory() {
      return delegate.placementsFromMemory();
    }

    @Override
    public ExternalRef submit(BackendJob job) {
      return timed("submit", () -> delegate.submit(job));
    }

    @Override
    public BackendStatus status(ExternalRef ref) {
      return timed("status", () -> delegate.status(ref));
    }

    @Override
    public void cancel(ExternalRef ref) {
      timed(
          "cancel",
          () -> {
            delegate.cancel(ref);
            return null;
          });
    }

    @Override
    public void cancelAttempt(BackendJob attempt) {
      timed(
          "cancel",
          () -> {
            delegate.cancelAttempt(attempt);
            return null;
          });
    }

    @Override
    public LogStream logs(ExternalRef ref, LogQuery query) {
      // Opening the stream; reading it runs at the client's pace.
      return timed("logs", () -> delegate.logs(ref, query));
    }

    @Override
    public boolean keepsLogs() {
      return delegate.keepsLogs();
    }

    @Override
    public void cleanup(ExternalRef ref) {
      timed(
          "cleanup",
          () -> {
            delegate.cleanup(ref);
            return null;
          });
    }

    @Override
    public Subscription events(BackendEventListener listener) {
      return delegate.events(listener);
    }

    @Override
    public boolean deliversGatewaySecrets() {
      return delegate.deliversGatewaySecrets();
    }

    @Override
    public boolean sharesGatewayNetwork() {
      return delegate.sharesGatewayNetwork();
    }

    @Override
    public BackendHealth health() {
      return timed("health", delegate::health);
    }

    @Override
    public void close() {
      delegate.close();
    }

    @Override
    public String toString() {
      return delegate.toString();
    }
  }
}
