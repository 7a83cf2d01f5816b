package io.trainyard.gateway.api;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * {@code GET /v1/spend}: accrued cost (hourly × running time) per team and backend over time, the
 * teams' budgets, and what the same jobs would have cost on each managed platform.
 */
public record SpendReport(
    String granularity,
    Instant since,
    Instant until,
    List<Series> series,
    List<TeamBudget> budgets,
    List<Comparison> comparison) {

  /** One team's accrued cost on one backend, one point per day or month of the window. */
  public record Series(String team, String backend, List<Point> points) {}

  /**
   * @param start where the point's day or month (cut to the window) begins
   */
  public record Point(Instant start, BigDecimal usd) {}

  public record TeamBudget(String team, BigDecimal monthlyUsd) {}

  /**
   * @param jobs the team's jobs that ran in the window
   * @param actualUsd what they accrued in the window (the sum of the team's series)
   */
  public record Comparison(String team, int jobs, BigDecimal actualUsd, List<Managed> managed) {}

  /**
   * @param usd Σ over the quoted jobs of this backend's hourly offer × the hours the job ran
   * @param jobsQuoted jobs whose routing evidence has an offer from this backend
   */
  public record Managed(String backend, BigDecimal usd, int jobsQuoted) {}
}
