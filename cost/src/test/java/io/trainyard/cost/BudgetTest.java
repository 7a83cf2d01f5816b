package io.trainyard.cost;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.YearMonth;
import java.util.List;
import org.junit.jupiter.api.Test;

class BudgetTest {
  private static final YearMonth NOV = YearMonth.of(2026, 11);
  private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

  @Test
  void endedJobsAccrueTheirRunningTimeInsideTheMonthOnly() {
    var spanning =
        new JobCharge(
            false,
            new BigDecimal("2"),
            null,
            Instant.parse("2026-10-31T22:00:00Z"),
            Instant.parse("2026-11-01T03:00:00Z"));
    var spend = MonthlySpend.of(List.of(spanning), NOV, NOW);
    assertThat(spend.accruedUsd()).isEqualByComparingTo("6"); // 3 h of November at $2
    assertThat(spend.committedUsd()).isEqualByComparingTo("0");
  }

  @Test
  void liveJobsCountTheirCommitmentLessWhatTheyAccrued() {
    var running =
        new JobCharge(
            true,
            new BigDecimal("4"),
            new BigDecimal("40"),
            Instant.parse("2026-11-30T10:00:00Z"),
            null);
    var pending = new JobCharge(true, new BigDecimal("1"), new BigDecimal("3"), null, null);
    var overrun =
        new JobCharge(
            true,
            new BigDecimal("10"),
            new BigDecimal("5"),
            Instant.parse("2026-11-30T11:00:00Z"),
            null);
    var spend = MonthlySpend.of(List.of(running, pending, overrun), NOV, NOW);
    assertThat(spend.accruedUsd()).isEqualByComparingTo("18"); // 2 h × 4 + 1 h × 10
    assertThat(spend.committedUsd()).isEqualByComparingTo("35"); // (40 − 8) + 3 + max(0, 5 − 10)
    assertThat(spend.totalUsd()).isEqualByComparingTo("53");
  }

  @Test
  void aJobFitsUpToTheBudgetExactlyAndTheRefusalShowsTheNumbers() {
    var spend = new MonthlySpend(NOV, new BigDecimal("60"), new BigDecimal("30"));
    var budget = new Budget(new BigDecimal("100"), Budget.OverBudget.REFUSE);
    assertThat(budget.check(spend, new BigDecimal("10")).fits()).isTrue();
    var over = budget.check(spend, new BigDecimal("10.01"));
    assertThat(over.fits()).isFalse();
    assertThat(over.reason())
        .isEqualTo(
            "over the team's budget for 2026-11: spent $60.00 + committed $30.00 + this job $10.01 > $100.00");
  }
}
