package io.trainyard.cost;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * A team's monthly budget and what happens to a job that would go over it.
 *
 * @param monthlyUsd per UTC calendar month
 */
public record Budget(BigDecimal monthlyUsd, OverBudget overBudget) {
  /** What happens to a job over budget. */
  public enum OverBudget {
    /** Stored as QUEUED and started when the month's spend leaves room (or a new month begins). */
    QUEUE,
    /** Refused with the numbers. */
    REFUSE
  }

  public Budget {
    Objects.requireNonNull(monthlyUsd, "monthlyUsd");
    Objects.requireNonNull(overBudget, "overBudget");
    if (monthlyUsd.signum() < 0) {
      throw new IllegalArgumentException("a budget cannot be negative");
    }
  }

  /** Whether a job that commits {@code jobUsd} fits beside {@code spend}. */
  public Verdict check(MonthlySpend spend, BigDecimal jobUsd) {
    var after = spend.totalUsd().add(jobUsd == null ? BigDecimal.ZERO : jobUsd);
    return new Verdict(after.compareTo(monthlyUsd) <= 0, spend, jobUsd, this);
  }

  /** The outcome of a budget check, with the numbers a refusal must show. */
  public record Verdict(boolean fits, MonthlySpend spend, BigDecimal jobUsd, Budget budget) {
    public String reason() {
      return "over the team's budget for "
          + spend.month()
          + ": spent $"
          + Money.show(spend.accruedUsd())
          + " + committed $"
          + Money.show(spend.committedUsd())
          + " + this job $"
          + Money.show(jobUsd)
          + " > $"
          + Money.show(budget.monthlyUsd());
    }
  }
}
