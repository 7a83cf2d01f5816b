package io.trainyard.gateway.metrics;

import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.reconcile.Reconciler;
import java.time.Duration;
import java.time.Instant;

/**
 * The reconciler of this replica: how long its passes take, when it last passed, and per backend
 * lane how late a leased job's step began and how long it took. Thread-safe.
 */
public final class ReconcilerMetrics implements Reconciler.Observer {
  static final double[] BUCKETS = {
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600
  };

  private final Histogram pass;
  private final Gauge lastPass;
  private final Histogram lag;
  private final Histogram step;

  ReconcilerMetrics(PrometheusRegistry registry) {
    pass =
        histogram("trainyard_reconciler_pass_duration_seconds")
            .help("One reconciler pass: queue dispatch and leasing the due jobs.")
            .register(registry);
    lastPass =
        Gauge.builder()
            .name("trainyard_reconciler_last_pass_timestamp_seconds")
            .help("When this replica's reconciler last finished a pass (Unix time).")
            .unit(Unit.SECONDS)
            .register(registry);
    lag =
        histogram("trainyard_reconciler_step_lag_seconds")
            .help(
                "How late a due job's step began: from the pass that leased it to its step"
                    + " starting in its backend's lane.")
            .labelNames("backend")
            .register(registry);
    step =
        histogram("trainyard_reconciler_step_duration_seconds")
            .help("One job's step (backend calls and its database writes), by backend.")
            .labelNames("backend")
            .register(registry);
  }

  private static Histogram.Builder histogram(String name) {
    return Histogram.builder()
        .name(name)
        .unit(Unit.SECONDS)
        .classicOnly()
        .classicUpperBounds(BUCKETS);
  }

  @Override
  public void passed(Instant at, Duration took) {
    pass.observe(seconds(took));
    lastPass.set(at.toEpochMilli() / 1000.0);
  }

  @Override
  public void stepping(JobRow job, Duration late) {
    lag.labelValues(backend(job)).observe(Math.max(0, seconds(late)));
  }

  @Override
  public void stepped(JobRow job, Duration took) {
    step.labelValues(backend(job)).observe(seconds(took));
  }

  private static String backend(JobRow job) {
    return job.backendId() == null ? "" : job.backendId();
  }

  private static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }
}
