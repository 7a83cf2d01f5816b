package io.trainyard.gateway.db;

import io.trainyard.cost.JobCharge;
import io.trainyard.cost.MonthlySpend;
import io.trainyard.spi.JobState;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * What the Prometheus gauges read from {@code jobs} at scrape time, each in one query (grouped
 * where the database can do the sum), so a scrape costs a few index reads whatever the number of
 * jobs. Plain SQL that H2 and PostgreSQL read alike. Thread-safe.
 */
public final class JobGauges {
  /** States in which a job holds (or is about to hold) its backend's resources. */
  public static final List<String> PLACED_STATES =
      List.of(JobState.SUBMITTED.name(), JobState.RUNNING.name(), JobState.CANCELLING.name());

  private final Jdbi jdbi;

  public JobGauges(Jdbi jdbi) {
    this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
  }

  /**
   * QUEUED jobs of one team on one backend.
   *
   * @param backendId null for jobs queued without an offer (over budget)
   * @param oldestCreatedAt when the longest-waiting of them was submitted
   */
  public record QueuedGroup(String team, String backendId, long jobs, Instant oldestCreatedAt) {}

  /** A job in a {@link #PLACED_STATES placed state}; its spec is read apart, once. */
  public record PlacedJob(String id, String team, String backendId) {}

  public List<QueuedGroup> queued() {
    return jdbi.withHandle(
        h ->
            h.createQuery(
                    "SELECT team, backend_id, COUNT(*) AS jobs, MIN(created_at) AS oldest"
                        + " FROM jobs WHERE state = 'QUEUED' GROUP BY team, backend_id")
                .map(
                    (rs, ctx) ->
                        new QueuedGroup(
                            rs.getString("team"),
                            rs.getString("backend_id"),
                            rs.getLong("jobs"),
                            JobColumns.instant(rs, "oldest")))
                .list());
  }

  public List<PlacedJob> placed() {
    return jdbi.withHandle(
        h ->
            h.createQuery(
                    "SELECT id, team, backend_id FROM jobs WHERE state IN (<states>) ORDER BY id")
                .bindList("states", PLACED_STATES)
                .map(
                    (rs, ctx) ->
                        new PlacedJob(
                            rs.getString("id"), rs.getString("team"), rs.getString("backend_id")))
                .list());
  }

  /**
   * Backend id → attempts jobs left there that wait for their clean-up ({@link StaleAttempts});
   * backends with none are absent.
   */
  public Map<String, Long> leftAttempts() {
    return jdbi.withHandle(
        h ->
            WaitingJobs.countsByBackend(
                h.createQuery(
                    "SELECT backend_id, COUNT(*) FROM stale_attempts GROUP BY backend_id")));
  }

  /** The stored specs of {@code ids} (a spec never changes, so callers keep what they read). */
  public Map<String, String> specs(Collection<String> ids) {
    if (ids.isEmpty()) {
      return Map.of();
    }
    var specs = new HashMap<String, String>();
    // Bounded IN lists: both databases take these, and a scrape after a restart reads them all.
    var all = new ArrayList<>(ids);
    for (int from = 0; from < all.size(); from += 500) {
      var chunk = all.subList(from, Math.min(all.size(), from + 500));
      jdbi.useHandle(
          h ->
              h.createQuery("SELECT id, spec_json FROM jobs WHERE id IN (<ids>)")
                  .bindList("ids", chunk)
                  .map((rs, ctx) -> Map.entry(rs.getString("id"), rs.getString("spec_json")))
                  .forEach(e -> specs.put(e.getKey(), e.getValue())));
    }
    return specs;
  }

  /**
   * Every team's spend in {@code now}'s UTC month, as budgets count it ({@link TeamLedger#spend}),
   * from one query over the month's jobs.
   */
  public Map<String, MonthlySpend> spendThisMonth(Instant now) {
    var month = YearMonth.from(now.atZone(ZoneOffset.UTC));
    var from = month.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
    var to = month.plusMonths(1).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
    var charges = new TreeMap<String, List<JobCharge>>();
    jdbi.useHandle(h -> readCharges(h, from, to, charges));
    var spend = new TreeMap<String, MonthlySpend>();
    charges.forEach((team, list) -> spend.put(team, MonthlySpend.of(list, month, now)));
    return spend;
  }

  private static void readCharges(
      Handle h, Instant from, Instant to, Map<String, List<JobCharge>> charges) {
    h.createQuery(
            "SELECT team, state, hourly_usd, estimated_usd, started_at, ended_at FROM jobs"
                + " WHERE state <> 'QUEUED' AND created_at < :to"
                + " AND (ended_at IS NULL OR ended_at >= :from)")
        .bind("from", JobColumns.utc(from))
        .bind("to", JobColumns.utc(to))
        .map(
            (rs, ctx) -> {
              BigDecimal hourly = rs.getBigDecimal("hourly_usd");
              return Map.entry(
                  rs.getString("team"),
                  new JobCharge(
                      !JobState.valueOf(rs.getString("state")).isTerminal(),
                      hourly,
                      rs.getBigDecimal("estimated_usd"),
                      JobColumns.instant(rs, "started_at"),
                      JobColumns.instant(rs, "ended_at")));
            })
        .forEach(
            e -> charges.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getValue()));
  }
}
