package io.trainyard.bench.submit;

import io.trainyard.spi.BackendHealth;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.BackendStatus;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogQuery;
import io.trainyard.spi.LogStream;
import io.trainyard.spi.Placement;
import io.trainyard.spi.PlacementLine;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.TrainingBackend;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.RoleSpec;
import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * Offers one placement for any spec, accepts every submission without doing anything and reports
 * each job {@link BackendPhase#SUCCEEDED}, so live names free and the reconciler's work per job
 * stays constant. Thread-safe (stateless).
 */
final class StubBackend implements TrainingBackend {
  private final StubConfig config;
  private final Clock clock;

  StubBackend(StubConfig config, Clock clock) {
    this.config = config;
    this.clock = clock;
  }

  @Override
  public String kind() {
    return StubBackendFactory.KIND;
  }

  @Override
  public String id() {
    return config.id();
  }

  /** A fixed offer, as a catalog-priced platform's: asked in the caller's thread. */
  @Override
  public boolean placementsFromMemory() {
    return true;
  }

  @Override
  public Proposals placements(JobSpec spec) {
    var roles = spec.roleSpecs().stream().map(RoleSpec::name).toList();
    return Proposals.of(
        new Placement(
            config.id(),
            "bench",
            "stub",
            config.region(),
            false,
            List.of(new PlacementLine(roles, "stub", 1, null, 0)),
            config.usdPerHour(),
            null,
            null,
            List.of()));
  }

  @Override
  public ExternalRef submit(BackendJob job) {
    return new ExternalRef(config.id(), job.jobId() + "-" + job.attempt(), Map.of());
  }

  @Override
  public BackendStatus status(ExternalRef ref) {
    var now = clock.instant();
    return new BackendStatus(BackendPhase.SUCCEEDED, null, 0, now, now);
  }

  @Override
  public void cancel(ExternalRef ref) {}

  @Override
  public LogStream logs(ExternalRef ref, LogQuery query) {
    return LogStream.of(List.of());
  }

  @Override
  public boolean keepsLogs() {
    return false;
  }

  @Override
  public BackendHealth health() {
    return BackendHealth.ok();
  }

  @Override
  public void close() {}
}
