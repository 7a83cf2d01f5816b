package io.trainyard.gateway.config;

import io.dropwizard.util.Duration;
import jakarta.validation.constraints.NotNull;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Prometheus endpoint ({@code metrics:}; served on the admin port at {@code /prometheus}).
 *
 * <p>{@code databaseReadsEvery}: gauges read from the database (queue, placed resources, spend) are
 * read at most this often per replica, however often and by however many Prometheus servers the
 * replica is scraped. {@code spendReadsEvery}: the same for the month's spend, the costliest read
 * (every job of the month) and the slowest to change. {@code backendCapacity}: GPUs and CPUs a
 * backend can hold at once, where the operator knows it (a cluster's node pools, a cloud quota);
 * exported as {@code trainyard_backend_capacity_gpus} / {@code _cpus} beside what placed jobs
 * request.
 */
public class MetricsConfig {
  @NotNull private Duration databaseReadsEvery = Duration.seconds(5);

  @NotNull private Duration spendReadsEvery = Duration.minutes(1);

  @NotNull private Map<String, Capacity> backendCapacity = new LinkedHashMap<>();

  /**
   * What one backend can hold.
   *
   * @param gpus null when unknown
   * @param cpus null when unknown
   */
  public record Capacity(Integer gpus, Double cpus) {
    public Capacity {
      if ((gpus != null && gpus < 0) || (cpus != null && cpus < 0)) {
        throw new IllegalArgumentException("capacity cannot be negative");
      }
    }
  }

  public Duration getDatabaseReadsEvery() {
    return databaseReadsEvery;
  }

  public void setDatabaseReadsEvery(Duration databaseReadsEvery) {
    this.databaseReadsEvery = databaseReadsEvery;
  }

  public Duration getSpendReadsEvery() {
    return spendReadsEvery;
  }

  public void setSpendReadsEvery(Duration spendReadsEvery) {
    this.spendReadsEvery = spendReadsEvery;
  }

  public Map<String, Capacity> getBackendCapacity() {
    return backendCapacity;
  }

  public void setBackendCapacity(Map<String, Capacity> backendCapacity) {
    this.backendCapacity = backendCapacity;
  }
}
