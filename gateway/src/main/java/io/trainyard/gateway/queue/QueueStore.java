package io.trainyard.gateway.queue;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.argument.Argument;

/**
 * The queue's tables: each job's ordering facts ({@code queue_job_facts}: capped priority, GPUs),
 * and the one row of {@code queue_dispatch} (who dispatches, a lease; when a re-quote was asked
 * for). The same SQL on H2 and PostgreSQL. Thread-safe; each method is one short transaction or
 * runs in the caller's.
 */
public final class QueueStore {
  /** States in which a job holds its backend's room (and its team's quota). */
  static final String PLACED_STATES = "'PENDING', 'SUBMITTED', 'RUNNING', 'CANCELLING'";

  private final Jdbi jdbi;
  private final Clock clock;

  public QueueStore(Jdbi jdbi, Clock clock) {
    this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Records a new job's ordering facts, in the transaction that stores the job. */
  static void recordFacts(Handle h, String jobId, String team, int priority, int gpus) {
    h.createUpdate(
            "INSERT INTO queue_job_facts (job_id, team, priority, gpus)"
                + " VALUES (:id, :team, :priority, :gpus)")
        .bind("id", jobId)
        .bind("team", team)
        .bind("priority", priority)
        .bind("gpus", gpus)
        .execute();
  }

  /** Asks for every queued job to be quoted again at the next dispatch (in any replica). */
  void requestRequote(Handle h) {
    h.createUpdate("UPDATE queue_dispatch SET wanted_at = :now WHERE id = 1")
        .bind("now", utc(now()))
        .execute();
  }

  /** {@link #requestRequote(Handle)} in a transaction of its own. */
  public void requestRequote() {
    jdbi.useTransaction(this::requestRequote);
  }

  /**
   * Every QUEUED job in priority order: highest (capped) priority first, then oldest, then by id.
   * Fair share between teams is applied on top ({@link FairOrder}).
   *
   * @param teamOrNull one team's, or every team's
   */
  public List<QueuedJob> queued(String teamOrNull) {
    return jdbi.withHandle(
        h -> {
          var query =
              h.createQuery(
                  "SELECT j.id, j.team, j.name, j.created_at, j.reason, j.cancel_requested,"
                      + " COALESCE(f.priority, 500) AS priority, COALESCE(f.gpus, 0) AS gpus"
                      + " FROM jobs j LEFT JOIN queue_job_facts f ON f.job_id = j.id"
                      + " WHERE j.state = 'QUEUED'"
                      + (teamOrNull == null ? "" : " AND j.team = :team")
                      + " ORDER BY priority DESC, j.created_at, j.id");
          if (teamOrNull != null) {
            query.bind("team", teamOrNull);
          }
          return query
              .map(
                  (rs, ctx) ->
                      new QueuedJob(
                          rs.getString("id"),
                          rs.getString("team"),
                          rs.getString("name"),
                          rs.getInt("priority"),
                          rs.getInt("gpus"),
                          instant(rs, "created_at"),
                          rs.getString("reason"),
                          rs.getBoolean("cancel_requested")))
              .list();
        });
  }

  /** What every team holds on backends now (teams holding nothing are absent). */
  public Map<String, TeamUsage> usage() {
    return jdbi.withHandle(
        h -> {
          var usage = new HashMap<String, TeamUsage>();
          h.createQuery(
                  "SELECT j.team, COUNT(*) AS jobs, COALESCE(SUM(f.gpus), 0) AS gpus FROM jobs j"
                      + " LEFT JOIN queue_job_facts f ON f.job_id = j.id"
                      + " WHERE j.state IN ("
                      + PLACED_STATES
                      + ") GROUP BY j.team")
              .map(
                  (rs, ctx) ->
                      Map.entry(
                          rs.getString("team"),
                          new TeamUsage(rs.getInt("jobs"), rs.getInt("gpus"))))
              .forEach(e -> usage.put(e.getKey(), e.getValue()));
          return usage;
        });
  }

  /** What {@code team} holds on backends now, read in the caller's transaction. */
  static TeamUsage usage(Handle h, String team) {
    return h.createQuery(
            "SELECT COUNT(*) AS jobs, COALESCE(SUM(f.gpus), 0) AS gpus FROM jobs j"
                + " LEFT JOIN queue_job_facts f ON f.job_id = j.id"
                + " WHERE j.team = :team AND j.state IN ("
                + PLACED_STATES
                + ")")
        .bind("team", team)
        .map((rs, ctx) -> new TeamUsage(rs.getInt("jobs"), rs.getInt("gpus")))
        .one();
  }

  /** PENDING jobs per backend: placed but not yet submitted, so not in its free capacity yet. */
  public Map<String, Integer> pendingByBackend() {
    return jdbi.withHandle(
        h -> {
          var pending = new HashMap<String, Integer>();
          h.createQuery(
                  "SELECT backend_id, COUNT(*) AS n FROM jobs WHERE state = 'PENDING'"
                      + " AND backend_id IS NOT NULL GROUP BY backend_id")
              .map((rs, ctx) -> Map.entry(rs.getString("backend_id"), rs.getInt("n")))
              .forEach(e -> pending.put(e.getKey(), e.getValue()));
          return pending;
        });
  }

  /**
   * Takes or renews the dispatcher's lease for {@code owner}: one replica dispatches at a time.
   *
   * @return false when another replica holds it
   */
  public boolean holdDispatch(String owner, Duration lease) {
    var now = now();
    return jdbi.withHandle(
            h ->
                h.createUpdate(
                        "UPDATE queue_dispatch SET lease_owner = :owner, lease_until = :until"
                            + " WHERE id = 1 AND (lease_owner IS NULL OR lease_until <= :now"
                            + " OR lease_owner = :owner)")
                    .bind("owner", owner)
                    .bind("until", utc(now.plus(lease)))
                    .bind("now", utc(now))
                    .execute())
        == 1;
  }

  /**
   * Whether a dispatch pass is due: a re-quote was asked for since the last pass, the month (UTC)
   * changed since (spend resets), or {@code every} has passed.
   */
  public boolean due(Duration every) {
    var now = now();
    return jdbi.withHandle(
        h ->
            h.createQuery(
                    "SELECT wanted_at, passed_at, passed_month FROM queue_dispatch WHERE id = 1")
                .map(
                    (rs, ctx) -> {
                      var wanted = instant(rs, "wanted_at");
                      var passed = instant(rs, "passed_at");
                      var month = rs.getString("passed_month");
                      return passed == null
                          || wanted != null && !wanted.isBefore(passed)
                          || !month(now).equals(month)
                          || !now.isBefore(passed.plus(every));
                    })
                .one());
  }

  /**
   * Records a pass that started at {@code startedAt}, if {@code owner} still holds the lease. A
   * re-quote asked for during the pass stays asked for.
   */
  public void passed(String owner, Instant startedAt) {
    var now = now();
    jdbi.useHandle(
        h ->
            h.createUpdate(
                    "UPDATE queue_dispatch SET passed_at = :at, passed_month = :month"
                        + " WHERE id = 1 AND lease_owner = :owner AND lease_until > :now")
                .bind("at", utc(startedAt))
                .bind("month", month(startedAt))
                .bind("owner", owner)
                .bind("now", utc(now))
                .execute());
  }

  /** Lets the dispatcher's lease go (at stop), so another replica need not wait for it to lapse. */
  public void releaseDispatch(String owner) {
    jdbi.useHandle(
        h ->
            h.createUpdate(
                    "UPDATE queue_dispatch SET lease_owner = NULL, lease_until = NULL"
                        + " WHERE id = 1 AND lease_owner = :owner")
                .bind("owner", owner)
                .execute());
  }

  /** The clock's time at the precision the tables keep. */
  public Instant now() {
    return clock.instant().truncatedTo(ChronoUnit.MICROS);
  }

  private static String month(Instant at) {
    return YearMonth.from(at.atZone(ZoneOffset.UTC)).toString();
  }

  private static Argument utc(Instant t) {
    return (position, statement, ctx) -> {
      if (t == null) {
        statement.setNull(position, Types.TIMESTAMP_WITH_TIMEZONE);
      } else {
        statement.setObject(position, t.truncatedTo(ChronoUnit.MICROS).atOffset(ZoneOffset.UTC));
      }
    };
  }

  private static Instant instant(ResultSet rs, String column) throws SQLException {
    var t = rs.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }
}
