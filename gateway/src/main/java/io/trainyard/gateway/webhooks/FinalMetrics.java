package io.trainyard.gateway.webhooks;

import java.util.Map;

/**
 * A job's final model metrics (name → last value, e.g. {@code loss → 0.12}) for its completion
 * event. Called inside the transaction of the job's change, so it must be quick and must not write.
 * The metrics store provides the real one; until it is wired events carry no metrics. Thread-safe.
 */
@FunctionalInterface
public interface FinalMetrics {
  FinalMetrics NONE = jobId -> Map.of();

  /** The job's final metrics; empty when it has none. */
  Map<String, Double> of(String jobId);
}
