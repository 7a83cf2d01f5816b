package io.trainyard.gateway.metrics;

import io.trainyard.gateway.db.MetricStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stores the {@code trainyard-metric} lines of a job's logs where the gateway reads them anyway:
 * while someone follows them, and when an ended attempt's logs are archived. Never by polling. A
 * failure to store is logged and the log reading goes on (the metrics are a by-product of it).
 * Thread-safe.
 */
public final class LogMetrics {
  private static final Logger LOG = LoggerFactory.getLogger(LogMetrics.class);

  /** Stores nothing. */
  public static final LogMetrics NONE = new LogMetrics(null, Clock.systemUTC());

  private final MetricStore store;
  private final Clock clock;

  public LogMetrics(MetricStore store, Clock clock) {
    this.store = store;
    this.clock = clock;
  }

  /** Stores the metric on {@code line} of {@code jobId}'s logs, if it holds one. */
  public void line(String jobId, String line, Instant at) {
    if (store == null) {
      return;
    }
    MetricLines.parse(line, at != null ? at : clock.instant())
        .ifPresent(point -> store(jobId, List.of(point)));
  }

  /** Collects the metrics of many lines (an archive), stored together by {@link #flush}. */
  public Batch batch(String jobId) {
    return new Batch(jobId);
  }

  private void store(String jobId, List<MetricPoint> points) {
    try {
      store.add(jobId, points, MetricStore.Source.LOG);
    } catch (RuntimeException e) {
      LOG.warn("job {}: {} metric(s) from its logs not stored", jobId, points.size(), e);
    }
  }

  /** The metric lines of one reading of a job's logs. Not thread-safe. */
  public final class Batch {
    private final String jobId;
    private final List<MetricPoint> points = new ArrayList<>();

    private Batch(String jobId) {
      this.jobId = jobId;
    }

    public void line(String line, Instant at) {
      if (store != null) {
        MetricLines.parse(line, at != null ? at : clock.instant()).ifPresent(points::add);
        if (points.size() >= MetricBatch.MAX_POINTS) {
          flush();
        }
      }
    }

    public void flush() {
      if (!points.isEmpty()) {
        store(jobId, List.copyOf(points));
        points.clear();
      }
    }
  }
}
