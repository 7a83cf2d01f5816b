package io.trainyard.cost;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;

/**
 * A team's spend in one UTC calendar month (DESIGN.md "Budgets"): the accrued cost of its jobs
 * (hourly × the part of their running time inside the month) plus what its live jobs have committed
 * beyond that (hourly × min(estimated hours, maxRuntime), less what they accrued).
 *
 * @param accruedUsd running time already spent this month
 * @param committedUsd what live jobs may still cost
 */
public record MonthlySpend(YearMonth month, BigDecimal accruedUsd, BigDecimal committedUsd) {
  private static final BigDecimal SECONDS_PER_HOUR = BigDecimal.valueOf(3600);

  public BigDecimal totalUsd() {
    return accruedUsd.add(committedUsd);
  }

  public static MonthlySpend of(List<JobCharge> charges, YearMonth month, Instant now) {
    var from = month.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
    var to = month.plusMonths(1).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC);
    var accrued = BigDecimal.ZERO;
    var committed = BigDecimal.ZERO;
    for (var c : charges) {
      var hourly = c.hourlyUsd() == null ? BigDecimal.ZERO : c.hourlyUsd();
      var ran = BigDecimal.ZERO;
      if (c.startedAt() != null) {
        var end = c.endedAt() != null ? c.endedAt() : now;
        ran = hours(overlap(c.startedAt(), end, from, to)).multiply(hourly);
      }
      accrued = accrued.add(ran);
      if (c.live() && c.commitmentUsd() != null) {
        committed = committed.add(c.commitmentUsd().subtract(ran).max(BigDecimal.ZERO));
      }
    }
    return new MonthlySpend(month, scale(accrued), scale(committed));
  }

  private static Duration overlap(Instant start, Instant end, Instant from, Instant to) {
    var a = start.isAfter(from) ? start : from;
    var b = end.isBefore(to) ? end : to;
    return b.isAfter(a) ? Duration.between(a, b) : Duration.ZERO;
  }

  private static BigDecimal hours(Duration d) {
    return BigDecimal.valueOf(d.toMillis())
        .divide(SECONDS_PER_HOUR.movePointRight(3), 9, RoundingMode.HALF_UP);
  }

  private static BigDecimal scale(BigDecimal usd) {
    return usd.setScale(6, RoundingMode.HALF_UP);
  }
}
