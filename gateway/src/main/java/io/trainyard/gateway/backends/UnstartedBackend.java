package io.trainyard.gateway.backends;

import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendHealth;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.BackendStatus;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogQuery;
import io.trainyard.spi.LogStream;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.TrainingBackend;
import io.trainyard.spi.spec.JobSpec;

/**
 * Stands in for a backend whose factory failed at start for a reason that may pass (its cloud could
 * not be reached, refused the credentials, or its cluster was not running), until {@link
 * BackendRegistry} builds it in the background. It offers nothing and answers every call with
 * {@link BackendException.Retryable}, so jobs already on it wait rather than fail.
 */
final class UnstartedBackend implements TrainingBackend {
  private final String kind;
  private final String id;
  private final String reason;

  UnstartedBackend(String kind, String id, String reason) {
    this.kind = kind;
    this.id = id;
    this.reason = reason;
  }

  String reason() {
    return reason;
  }

  @Override
  public String kind() {
    return kind;
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public Proposals placements(JobSpec spec) {
    return Proposals.rejected(id, "not started: " + reason);
  }

  /** Its reason, held since the start failed. */
  @Override
  public boolean placementsFromMemory() {
    return true;
  }

  @Override
  public ExternalRef submit(BackendJob job) {
    throw notStarted();
  }

  @Override
  public BackendStatus status(ExternalRef ref) {
    throw notStarted();
  }

  @Override
  public void cancel(ExternalRef ref) {
    throw notStarted();
  }

  @Override
  public LogStream logs(ExternalRef ref, LogQuery query) {
    throw notStarted();
  }

  @Override
  public boolean keepsLogs() {
    // Unknown until it starts: an archive, if there is one, is read first.
    return false;
  }

  @Override
  public BackendHealth health() {
    return BackendHealth.unhealthy("not started: " + reason);
  }

  @Override
  public void close() {}

  private BackendException.Retryable notStarted() {
    return new BackendException.Retryable(id + " is not started yet: " + reason, null);
  }
}
