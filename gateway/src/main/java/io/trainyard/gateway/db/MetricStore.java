package io.trainyard.gateway.db;

import io.trainyard.gateway.metrics.MetricPoint;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.statement.StatementException;

/**
 * Jobs' model metrics and the hashes of their metrics tokens. A point is identified by job, name,
 * step and epoch ({@link MetricPoint#key()}): the first one stored stays, later copies (a retried
 * post, a line read while followed and again at archive) are skipped. Each call is one transaction.
 * Thread-safe.
 */
public final class MetricStore {
  /** The most points one read answers, per job. */
  public static final int MAX_READ = 20_000;

  /** Name, then step, epoch and time (absent ones first), the same on both databases. */
  private static final java.util.Comparator<MetricPoint> ORDER =
      java.util.Comparator.comparing(MetricPoint::name)
          .thenComparing(
              MetricPoint::step,
              java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder()))
          .thenComparing(
              MetricPoint::epoch,
              java.util.Comparator.nullsFirst(java.util.Comparator.naturalOrder()))
          .thenComparing(MetricPoint::time);

  private final Jdbi jdbi;

  public MetricStore(Jdbi jdbi) {
    this.jdbi = jdbi;
  }

  /** Where the points came from. */
  public enum Source {
    POST,
    LOG;

    String column() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * Stores the points that are new for {@code jobId}, in one transaction.
   *
   * @return how many were new
   */
  public int add(String jobId, Collection<MetricPoint> points, Source source) {
    if (points.isEmpty()) {
      return 0;
    }
    try {
      return jdbi.inTransaction(h -> insertNew(h, jobId, points, source));
    } catch (StatementException e) {
      // Another writer stored one of them between our check and insert: the check now skips it.
      if (!JobInsertion.isUniqueViolation(e)) {
        throw e;
      }
      return jdbi.inTransaction(h -> insertNew(h, jobId, points, source));
    }
  }

  private static int insertNew(
      Handle h, String jobId, Collection<MetricPoint> points, Source source) {
    var stored = 0;
    var seen = new java.util.HashSet<String>();
    for (var p : points) {
      if (!seen.add(p.name() + "\n" + p.key())) {
        continue;
      }
      var exists =
          h.createQuery(
                  "SELECT COUNT(*) FROM job_metrics"
                      + " WHERE job_id = :job AND name = :name AND point_key = :key")
              .bind("job", jobId)
              .bind("name", p.name())
              .bind("key", p.key())
              .mapTo(Integer.class)
              .one();
      if (exists > 0) {
        continue;
      }
      h.createUpdate(
              "INSERT INTO job_metrics"
                  + " (job_id, name, point_key, step, epoch, metric_value, at, source)"
                  + " VALUES (:job, :name, :key, :step, :epoch, :value, :at, :source)")
          .bind("job", jobId)
          .bind("name", p.name())
          .bind("key", p.key())
          .bind("step", p.step())
          .bind("epoch", p.epoch())
          .bind("value", p.value())
          .bind("at", JobColumns.utc(p.time()))
          .bind("source", source.column())
          .execute();
      stored++;
    }
    return stored;
  }

  /**
   * The job's points, optionally of one name, by name then step, epoch and time; at most {@link
   * #MAX_READ}.
   */
  public List<MetricPoint> points(String jobId, String name) {
    return jdbi.withHandle(
        h ->
            h
                .createQuery(
                    "SELECT name, step, epoch, metric_value, at FROM job_metrics WHERE job_id = :job"
                        + (name == null ? "" : " AND name = :name")
                        + " ORDER BY name, at")
                .bind("job", jobId)
                .bind("name", name)
                .setMaxRows(MAX_READ)
                .map(
                    (rs, ctx) ->
                        new MetricPoint(
                            rs.getString("name"),
                            rs.getDouble("metric_value"),
                            (Long) rs.getObject("step", Long.class),
                            (Long) rs.getObject("epoch", Long.class),
                            JobColumns.instant(rs, "at")))
                .list()
                .stream()
                .sorted(ORDER)
                .toList());
  }

  /** Keeps the hash of a job's metrics token, for {@link #jobOfToken}. */
  public void addToken(String tokenHash, String jobId, int attempt, Instant at) {
    jdbi.useTransaction(
        h ->
            h.createUpdate(
                    "INSERT INTO metric_tokens (token_hash, job_id, attempt, created_at)"
                        + " VALUES (:hash, :job, :attempt, :at)")
                .bind("hash", tokenHash)
                .bind("job", jobId)
                .bind("attempt", attempt)
                .bind("at", JobColumns.utc(at))
                .execute());
  }

  /** The job whose token has {@code tokenHash}, if any. */
  public Optional<String> jobOfToken(String tokenHash) {
    return jdbi.withHandle(
        h ->
            h.createQuery("SELECT job_id FROM metric_tokens WHERE token_hash = :hash")
                .bind("hash", tokenHash)
                .mapTo(String.class)
                .findOne());
  }
}
