package io.trainyard.gateway.testing;

import io.trainyard.spi.BackendConfig;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendFactory;
import io.trainyard.spi.BackendHealth;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.BackendStatus;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogQuery;
import io.trainyard.spi.LogStream;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.TrainingBackend;
import io.trainyard.spi.spec.JobSpec;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A backend ({@code type: switched}) whose outages a test switches on and off with files, the way a
 * cloud goes down and comes back: while {@code downWhile} exists its factory fails as GKE's does
 * when the GKE API is unreachable ({@link BackendException.Retryable}); while {@code
 * unhealthyWhile} exists its health check fails. {@code invalid: true} is a configuration error. It
 * takes no jobs. Counts its health checks so tests can tell a cached answer from a probe.
 */
public final class SwitchedBackendFactory implements BackendFactory<SwitchedBackendFactory.Config> {
  /** Health checks answered by every switched backend of this JVM. */
  public static final AtomicInteger HEALTH_CHECKS = new AtomicInteger();

  public record Config(
      String id,
      String region,
      boolean hipaaEligible,
      BigDecimal discountPct,
      String downWhile,
      String unhealthyWhile,
      boolean invalid)
      implements BackendConfig {}

  @Override
  public String kind() {
    return "switched";
  }

  @Override
  public Class<Config> configClass() {
    return Config.class;
  }

  @Override
  public TrainingBackend create(Config config, BackendContext context) {
    if (config.invalid()) {
      throw new IllegalArgumentException(config.id() + ": invalid is true");
    }
    if (config.downWhile() != null && Files.exists(Path.of(config.downWhile()))) {
      throw new BackendException.Retryable(
          config.id() + ": the cluster API answered 503 Service Unavailable", null);
    }
    return new Backend(config);
  }

  private record Backend(Config config) implements TrainingBackend {
    @Override
    public String kind() {
      return "switched";
    }

    @Override
    public String id() {
      return config.id();
    }

    @Override
    public Proposals placements(JobSpec spec) {
      return Proposals.rejected(config.id(), "takes no jobs");
    }

    @Override
    public ExternalRef submit(BackendJob job) {
      throw new BackendException.Rejected("takes no jobs", null);
    }

    @Override
    public BackendStatus status(ExternalRef ref) {
      throw new BackendException.NotFound(ref.name(), null);
    }

    @Override
    public void cancel(ExternalRef ref) {}

    @Override
    public LogStream logs(ExternalRef ref, LogQuery query) {
      throw new BackendException.NotFound(ref.name(), null);
    }

    @Override
    public BackendHealth health() {
      HEALTH_CHECKS.incrementAndGet();
      return config.unhealthyWhile() != null && Files.exists(Path.of(config.unhealthyWhile()))
          ? BackendHealth.unhealthy("API server answers 500")
          : BackendHealth.ok();
    }

    @Override
    public void close() {}
  }
}
