package io.trainyard.gateway.spend;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trainyard.gateway.api.SpendReport;
import io.trainyard.gateway.db.JobRuns;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Builds {@link SpendReport}s from the runs in a window. A run accrues its hourly price × the part
 * of its running time (start to end, or now) inside each bucket — the rule budgets count accrued
 * spend by ({@code MonthlySpend}), so a month's points add up to the team's accrued spend. The
 * comparison prices the same running time at each managed candidate's offer in the job's stored
 * routing evidence. Pure; thread-safe.
 */
public final class SpendReporter {
  /** The managed platforms a comparison is made for. */
  public static final Set<String> MANAGED_KINDS = Set.of("sagemaker", "vertex", "azureml");

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final BigDecimal MILLIS_PER_HOUR = BigDecimal.valueOf(3_600_000L);

  /** Day or month buckets, UTC. */
  public enum Granularity {
    DAY,
    MONTH;

    Instant next(Instant start) {
      var t = ZonedDateTime.ofInstant(start, ZoneOffset.UTC);
      var floor =
          this == DAY
              ? t.toLocalDate().atStartOfDay(ZoneOffset.UTC)
              : t.toLocalDate().withDayOfMonth(1).atStartOfDay(ZoneOffset.UTC);
      return (this == DAY ? floor.plusDays(1) : floor.plusMonths(1)).toInstant();
    }
  }

  private SpendReporter() {}

  /**
   * How many buckets {@code [since, until)} holds, counted no further than {@code limit + 1}: a
   * window of a billion years costs as little as one of a year to refuse.
   */
  public static int count(Granularity g, Instant since, Instant until, int limit) {
    int n = 0;
    for (var t = since; t.isBefore(until) && n <= limit; t = g.next(t)) {
      n++;
    }
    return n;
  }

  /** The bucket starts of {@code [since, until)}: since, then each day or month boundary. */
  public static List<Instant> buckets(Granularity g, Instant since, Instant until) {
    var starts = new ArrayList<Instant>();
    for (var t = since; t.isBefore(until); t = g.next(t)) {
      starts.add(t);
    }
    return starts;
  }

  /**
   * @param budgets the monthly budget of each team in scope that has one
   */
  public static SpendReport report(
      Granularity g,
      Instant since,
      Instant until,
      Instant now,
      List<JobRuns.Run> runs,
      Map<String, BigDecimal> budgets) {
    var starts = buckets(g, since, until);
    // team -> backend -> per-bucket usd (unrounded)
    var sums = new TreeMap<String, TreeMap<String, BigDecimal[]>>();
    var comparisons = new TreeMap<String, TeamTotals>();
    for (var run : runs) {
      var end = run.endedAt() != null ? run.endedAt() : now;
      var hourly = run.hourlyUsd() == null ? BigDecimal.ZERO : run.hourlyUsd();
      var backend = run.backendId() == null ? "" : run.backendId();
      var points =
          sums.computeIfAbsent(run.team(), t -> new TreeMap<>())
              .computeIfAbsent(backend, b -> zeros(starts.size()));
      long ranMillis = 0;
      for (int i = 0; i < starts.size(); i++) {
        var to = i + 1 < starts.size() ? starts.get(i + 1) : until;
        long ms = overlapMillis(run.startedAt(), end, starts.get(i), to);
        ranMillis += ms;
        points[i] = points[i].add(usd(hourly, ms));
      }
      if (ranMillis == 0) {
        continue;
      }
      var totals = comparisons.computeIfAbsent(run.team(), t -> new TeamTotals());
      totals.jobs++;
      totals.actual = totals.actual.add(usd(hourly, ranMillis));
      for (var offer : managedOffers(run.decisionJson()).entrySet()) {
        var m = totals.managed.computeIfAbsent(offer.getKey(), k -> new ManagedTotals());
        m.jobs++;
        m.usd = m.usd.add(usd(offer.getValue(), ranMillis));
      }
    }
    var series = new ArrayList<SpendReport.Series>();
    sums.forEach(
        (team, byBackend) ->
            byBackend.forEach(
                (backend, usd) -> {
                  var points = new ArrayList<SpendReport.Point>();
                  for (int i = 0; i < starts.size(); i++) {
                    points.add(new SpendReport.Point(starts.get(i), money(usd[i])));
                  }
                  series.add(
                      new SpendReport.Series(team, backend.isEmpty() ? null : backend, points));
                }));
    var budgetList = new ArrayList<SpendReport.TeamBudget>();
    new TreeMap<>(budgets)
        .forEach((team, usd) -> budgetList.add(new SpendReport.TeamBudget(team, usd)));
    var comparison = new ArrayList<SpendReport.Comparison>();
    comparisons.forEach(
        (team, totals) -> {
          var managed = new ArrayList<SpendReport.Managed>();
          totals.managed.forEach(
              (backend, m) -> managed.add(new SpendReport.Managed(backend, money(m.usd), m.jobs)));
          comparison.add(
              new SpendReport.Comparison(team, totals.jobs, money(totals.actual), managed));
        });
    return new SpendReport(
        g.name().toLowerCase(Locale.ROOT), since, until, series, budgetList, comparison);
  }

  /**
   * Each managed backend's hourly price among the offers of a stored routing decision: its cheapest
   * on-demand offer, or its cheapest spot offer when it made no other. Rejected candidates (no
   * price) quote nothing.
   */
  static Map<String, BigDecimal> managedOffers(String decisionJson) {
    var onDemand = new LinkedHashMap<String, BigDecimal>();
    var spot = new LinkedHashMap<String, BigDecimal>();
    JsonNode decision;
    try {
      decision = JSON.readTree(decisionJson);
    } catch (Exception e) {
      return Map.of();
    }
    for (var c : decision.path("candidates")) {
      var kind = c.path("kind").asText("");
      var backend = c.path("backendId").asText(null);
      var hourly = c.path("hourlyUsd");
      if (!MANAGED_KINDS.contains(kind)
          || backend == null
          || !hourly.isNumber() && !hourly.isTextual()
          || c.hasNonNull("rejected")) {
        continue;
      }
      BigDecimal price;
      try {
        price = new BigDecimal(hourly.asText());
      } catch (NumberFormatException e) {
        continue;
      }
      var into = c.path("spot").asBoolean(false) ? spot : onDemand;
      into.merge(backend, price, BigDecimal::min);
    }
    var result = new TreeMap<String, BigDecimal>(spot);
    result.putAll(onDemand);
    return result;
  }

  private static long overlapMillis(Instant start, Instant end, Instant from, Instant to) {
    var a = start.isAfter(from) ? start : from;
    var b = end.isBefore(to) ? end : to;
    return b.isAfter(a) ? Duration.between(a, b).toMillis() : 0;
  }

  private static BigDecimal usd(BigDecimal hourly, long millis) {
    return hourly
        .multiply(BigDecimal.valueOf(millis))
        .divide(MILLIS_PER_HOUR, 12, RoundingMode.HALF_UP);
  }

  private static BigDecimal money(BigDecimal usd) {
    return usd.setScale(6, RoundingMode.HALF_UP);
  }

  private static BigDecimal[] zeros(int n) {
    var a = new BigDecimal[n];
    Arrays.fill(a, BigDecimal.ZERO);
    return a;
  }

  private static final class TeamTotals {
    int jobs;
    BigDecimal actual = BigDecimal.ZERO;
    final TreeMap<String, ManagedTotals> managed = new TreeMap<>();
  }

  private static final class ManagedTotals {
    int jobs;
    BigDecimal usd = BigDecimal.ZERO;
  }
}
