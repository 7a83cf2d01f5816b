package io.trainyard.gateway.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import io.trainyard.audit.AuditActor;
import io.trainyard.gateway.db.AfterCommit;
import io.trainyard.gateway.db.JobAudit;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.db.StaleAttempts;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.jdbi.v3.core.Handle;

/**
 * The job counters and histograms of this replica: what happened to jobs through this replica's API
 * and reconciler, counted once each (a change is made by one replica, so Prometheus sums the
 * replicas). Fed by {@link #observing(JobAudit)}, which sees every job change {@code JobStore}
 * makes. Thread-safe.
 */
public final class JobMetrics {
  /** Minutes to a week: training runs are rarely shorter than a minute or longer than days. */
  static final double[] DURATION_BUCKETS = {
    60, 300, 900, 1800, 3600, 2 * 3600, 4 * 3600, 8 * 3600, 12 * 3600, 86400, 2 * 86400, 4 * 86400,
    7 * 86400
  };

  /** Seconds (a free local slot) to a day (waiting for budget or GPUs). */
  static final double[] TIME_TO_START_BUCKETS = {
    5, 15, 30, 60, 120, 300, 600, 1800, 3600, 2 * 3600, 6 * 3600, 12 * 3600, 86400
  };

  private final Counter submitted;
  private final Counter refused;
  private final Counter started;
  private final Counter succeeded;
  private final Counter failed;
  private final Counter cancelled;
  private final Histogram duration;
  private final Histogram timeToStart;

  public JobMetrics(PrometheusRegistry registry) {
    submitted =
        counter("trainyard_jobs_submitted", "Jobs stored by this replica (PENDING or QUEUED).")
            .register(registry);
    refused =
        Counter.builder()
            .name("trainyard_jobs_refused")
            .help("Submissions refused by policy after routing (over budget, no offer).")
            .labelNames("team")
            .register(registry);
    started =
        counter("trainyard_jobs_started", "Jobs that reached RUNNING (first time per job).")
            .register(registry);
    succeeded =
        counter("trainyard_jobs_succeeded", "Jobs that ended SUCCEEDED.").register(registry);
    failed = counter("trainyard_jobs_failed", "Jobs that ended FAILED.").register(registry);
    cancelled =
        counter("trainyard_jobs_cancelled", "Jobs that ended CANCELLED.").register(registry);
    duration =
        Histogram.builder()
            .name("trainyard_job_duration_seconds")
            .help("Running time of ended jobs, from first RUNNING to the end.")
            .unit(Unit.SECONDS)
            .labelNames("team", "backend")
            .classicOnly()
            .classicUpperBounds(DURATION_BUCKETS)
            .register(registry);
    timeToStart =
        Histogram.builder()
            .name("trainyard_job_time_to_start_seconds")
            .help("From submission to first RUNNING, queueing included.")
            .unit(Unit.SECONDS)
            .labelNames("team", "backend")
            .classicOnly()
            .classicUpperBounds(TIME_TO_START_BUCKETS)
            .register(registry);
  }

  private static Counter.Builder counter(String name, String help) {
    return Counter.builder().name(name).help(help).labelNames("team", "backend");
  }

  /**
   * {@code delegate}, then this replica's metrics of the same change once its transaction commits:
   * a change rolled back (the audit failed, a fence lost) counts nothing.
   */
  public JobAudit observing(JobAudit delegate) {
    Objects.requireNonNull(delegate, "delegate");
    return new JobAudit() {
      @Override
      public void submitted(Handle h, JobRow stored, AuditActor actor) {
        delegate.submitted(h, stored, actor);
        AfterCommit.run(h, () -> submitted.labelValues(stored.team(), backend(stored)).inc());
      }

      @Override
      public void refused(Handle h, JobRow attempted, AuditActor actor, String reason) {
        delegate.refused(h, attempted, actor, reason);
        AfterCommit.run(h, () -> refused.labelValues(attempted.team()).inc());
      }

      @Override
      public void changed(Handle h, JobRow before, JobRow after, String replica) {
        delegate.changed(h, before, after, replica);
        AfterCommit.run(h, () -> observeChange(before, after));
      }

      @Override
      public void cancelRequested(Handle h, JobRow job, AuditActor actor) {
        delegate.cancelRequested(h, job, actor);
      }

      @Override
      public void adopted(Handle h, JobRow job, String previousReplica, String replica) {
        delegate.adopted(h, job, previousReplica, replica);
      }

      @Override
      public void attemptCleanedUp(Handle h, JobRow job, StaleAttempts.Cleanup cleanup) {
        delegate.attemptCleanedUp(h, job, cleanup);
      }
    };
  }

  void observeChange(JobRow before, JobRow after) {
    var team = after.team();
    var backend = backend(after);
    if (before.startedAt() == null && after.startedAt() != null) {
      started.labelValues(team, backend).inc();
      timeToStart.labelValues(team, backend).observe(seconds(after.createdAt(), after.startedAt()));
    }
    if (before.state() == after.state() || !after.state().isTerminal()) {
      return;
    }
    var ended =
        switch (after.state()) {
          case SUCCEEDED -> succeeded;
          case FAILED -> failed;
          case CANCELLED -> cancelled;
          default -> throw new IllegalStateException("not an end: " + after.state());
        };
    ended.labelValues(team, backend).inc();
    if (after.startedAt() != null) {
      var end = after.endedAt() != null ? after.endedAt() : after.updatedAt();
      duration.labelValues(team, backend).observe(seconds(after.startedAt(), end));
    }
  }

  /** Prometheus reads an empty label as no label: a job queued without an offer has no backend. */
  static String backend(JobRow row) {
    return row.backendId() == null ? "" : row.backendId();
  }

  private static double seconds(Instant from, Instant to) {
    return Math.max(0, Duration.between(from, to).toNanos() / 1e9);
  }
}
