package io.trainyard.gateway.spend;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.gateway.db.JobRuns;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Buckets, accrual per bucket and the managed comparison, from runs as the database gives them. */
class SpendReporterTest {
  private static final Instant NOV = Instant.parse("2026-11-01T00:00:00Z");
  private static final Instant DEC = Instant.parse("2026-12-01T00:00:00Z");

  private static final String EVIDENCE =
      """
      {"candidates":[
        {"backendId":"local","kind":"local","spot":false,"hourlyUsd":2.0},
        {"backendId":"sm","kind":"sagemaker","spot":true,"hourlyUsd":1.5},
        {"backendId":"sm","kind":"sagemaker","spot":false,"hourlyUsd":5.0},
        {"backendId":"sm","kind":"sagemaker","spot":false,"hourlyUsd":4.0},
        {"backendId":"vx","kind":"vertex","spot":true,"hourlyUsd":3.0},
        {"backendId":"az","kind":"azureml","spot":false,"rejected":"no GPU of that type"}]}
      """;

  @Test
  void bucketsFollowUtcDaysAndMonthsCutToTheWindow() {
    var since = Instant.parse("2026-11-30T12:00:00Z");
    assertThat(SpendReporter.buckets(SpendReporter.Granularity.DAY, since, DEC.plusSeconds(1)))
        .containsExactly(since, DEC);
    assertThat(
            SpendReporter.buckets(
                SpendReporter.Granularity.MONTH, NOV, DEC.plusSeconds(86400 * 40)))
        .containsExactly(NOV, DEC, Instant.parse("2027-01-01T00:00:00Z"));
  }

  @Test
  void aRunAccruesInEachDayItRanAndTheComparisonPricesTheSameHours() {
    // 2 h across midnight at $2/h, and one still running for 1 h at "now".
    var across =
        new JobRuns.Run(
            "a",
            "nlp",
            "local",
            new BigDecimal("2"),
            Instant.parse("2026-11-01T23:00:00Z"),
            Instant.parse("2026-11-02T01:00:00Z"),
            EVIDENCE);
    var live =
        new JobRuns.Run(
            "b",
            "nlp",
            "local",
            new BigDecimal("2"),
            Instant.parse("2026-11-03T00:00:00Z"),
            null,
            "{}");
    var now = Instant.parse("2026-11-03T01:00:00Z");
    var report =
        SpendReporter.report(
            SpendReporter.Granularity.DAY,
            NOV,
            DEC,
            now,
            List.of(across, live),
            Map.of("nlp", new BigDecimal("100")));

    var points = report.series().get(0).points();
    assertThat(points).hasSize(30);
    assertThat(points.get(0).usd()).isEqualByComparingTo("2");
    assertThat(points.get(1).usd()).isEqualByComparingTo("2");
    assertThat(points.get(2).usd()).isEqualByComparingTo("2");
    assertThat(points.get(3).usd()).isEqualByComparingTo("0");
    var comparison = report.comparison().get(0);
    assertThat(comparison.jobs()).isEqualTo(2);
    assertThat(comparison.actualUsd()).isEqualByComparingTo("6");
    // SageMaker: its cheapest on-demand offer ($4/h) for the 2 h of the job that has evidence;
    // Vertex offered only spot ($3/h); Azure ML was rejected and quotes nothing.
    assertThat(comparison.managed())
        .containsExactly(
            new io.trainyard.gateway.api.SpendReport.Managed("sm", new BigDecimal("8.000000"), 1),
            new io.trainyard.gateway.api.SpendReport.Managed("vx", new BigDecimal("6.000000"), 1));
    assertThat(report.budgets().get(0).monthlyUsd()).isEqualByComparingTo("100");
  }
}
