package io.trainyard.cost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.spi.Placement;
import io.trainyard.spi.PlacementLine;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The whole-job cost rules, one row per rule with its source. Re-run hours follow the Poisson
 * formulas in {@link JobTotalEstimator}'s Javadoc (restart from scratch: (e^(λH) − 1)/λ − H; from a
 * checkpoint every C hours: H/C·(e^(λC) − 1)/λ − H, λ = instances × monthly rate / 730).
 */
class JobTotalEstimatorTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # rule                                                  | provider | service    | spot | instances | band   | checkpoint | hourly | hours | fee  | rerun   | total
          on demand: hourly × hours, nothing else                  | aws      | ec2        | false | 1        |        | false      | 2      | 10    |      | 0       | 20
          cluster fee share is in the hourly price, only noted     | aws      | ec2        | false | 2        |        | false      | 3.5    | 4     | 0.25 | 0       | 14
          SageMaker: per second, no per-job fee (API reference)    | aws      | sagemaker  | false | 1        |        | false      | 1.5    | 2     |      | 0       | 3
          spot, default band 5-10% (Advisor upper bound), 10 h     | aws      | ec2        | true  | 1        |        | false      | 1      | 10    |      | 0.0069  | 10.0069
          spot >20% (counts as 25%), 4 nodes, checkpoint 0.5 h     | gcp      | gce        | true  | 4        | >20%   | true       | 1      | 10    |      | 0.0034  | 10.0034
          spot 15-20%, 8 nodes, 100 h, no checkpoint: restarts     | aws      | ec2        | true  | 8        | 15-20% | false      | 1      | 100   |      | 11.8054 | 111.8054
          same job with a checkpoint every 0.5 h                   | aws      | ec2        | true  | 8        | 15-20% | true       | 1      | 100   |      | 0.0548  | 100.0548
          a configured 0% rate adds nothing                        | azure    | aks        | true  | 3        | 0      | false      | 2      | 5     |      | 0       | 10
          """)
  void totalCostRules(
      String rule,
      String provider,
      String service,
      boolean spot,
      int instances,
      String band,
      boolean checkpointed,
      String hourly,
      String hours,
      String fee,
      String rerun,
      String total) {
    var rates =
        band == null
            ? SpotInterruptionRates.DEFAULTS
            : SpotInterruptionRates.parse(Map.of("b", band));
    var estimator =
        new JobTotalEstimator(rates, JobTotalEstimator.DEFAULT_CHECKPOINT_INTERVAL_HOURS);
    var placement =
        new Placement(
            "b",
            provider,
            service,
            "r",
            spot,
            List.of(new PlacementLine(List.of("worker"), "m5.2xlarge", instances, null, 0)),
            null,
            fee == null ? null : new BigDecimal(fee),
            null,
            null);

    var result =
        estimator.estimate(
            "b", placement, new BigDecimal(hourly), new BigDecimal(hours), checkpointed);

    assertThat(result.rerunHours()).as(rule).isEqualByComparingTo(rerun);
    assertThat(result.usd()).as(rule).isEqualByComparingTo(total);
    assertThat(result.notes().get(0)).startsWith("total: $" + hourly + "/h × ");
    assertThat(result.notes()).anyMatch(n -> n.startsWith("per job: $0 — "));
    if (spot) {
      assertThat(result.notes())
          .anyMatch(n -> n.startsWith("spot: ") && n.contains(instances + " instance(s)"));
    }
    if (fee != null) {
      assertThat(result.notes()).contains("includes the cluster fee share $" + fee + "/h");
    }
    if (service.equals("sagemaker")) {
      assertThat(result.notes())
          .anyMatch(n -> n.contains("BillableTimeInSeconds") && n.contains("docs.aws.amazon.com"));
    }
  }

  /**
   * SageMaker's ML storage volume (VolumeSizeInGB per instance), billed per GB-month prorated over
   * the run: GB × instances × hours ÷ 730 × rate. The rate: $0.154 per GB-Mo of Training Job ML
   * storage in EU (Ireland) (an AWS bill in aws-samples/sagemaker-ssh-helper Sample_Costs.md);
   * another region takes it marked estimated. Vertex AI: no per-job fee or minimum
   * (cloud.google.com/vertex-ai/pricing).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          # rule                                         | service   | region    | gb   | instances | hours | rerun on spot | storage | total     | note has
          50 GB × 1 for 73 h at $0.154 = $0.77            | sagemaker | eu-west-1 | 50   | 1         | 73    | false         | 0.77    | 73.77     | Sample_Costs.md
          100 GB × 4 for 10 h = 4000/730 × 0.154          | sagemaker | eu-west-1 | 100  | 4         | 10    | false         | 0.8438  | 10.8438   | 0.8438
          us-east-1: Ireland's rate, marked estimated       | sagemaker | us-east-1 | 50   | 2         | 730   | false         | 15.4    | 745.4     | estimated: no rate for us-east-1
          spot re-run hours keep the volume too             | sagemaker | eu-west-1 | 50   | 1         | 100   | true          | 1.0621  | 101.7502  | 100.6881 h
          no volume (an NVMe type): nothing                 | sagemaker | eu-west-1 |      | 1         | 10    | false         | 0       | 10        | per job: $0
          Vertex: no per-job fee or minimum                 | vertex    | us-central1 |    | 1         | 10    | false         | 0       | 10        | cloud.google.com/vertex-ai/pricing
          """)
  void storageAndPerJobChargesOfManagedPlatforms(
      String rule,
      String service,
      String region,
      Integer gb,
      int instances,
      String hours,
      boolean spot,
      String storage,
      String total,
      String noteHas) {
    var placement =
        new Placement(
            "b",
            service.equals("vertex") ? "gcp" : "aws",
            service,
            region,
            spot,
            List.of(new PlacementLine(List.of("worker"), "ml.m5.2xlarge", instances, null, 0)),
            null,
            null,
            null,
            null,
            null,
            gb);
    var result =
        JobTotalEstimator.DEFAULTS.estimate(
            "b", placement, BigDecimal.ONE, new BigDecimal(hours), false);
    assertThat(result.perJobUsd()).as(rule).isEqualByComparingTo(storage);
    assertThat(result.usd()).as(rule).isEqualByComparingTo(total);
    assertThat(result.notes()).as(rule).anyMatch(n -> n.contains(noteHas));
  }

  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          <5%     | 0.05
          5-10%   | 0.10
          10–15%  | 0.15
          15-20%  | 0.20
          >20%    | 0.25
          0.07    | 0.07
          """)
  void advisorBandsAndPlainRatesParse(String value, String monthly) {
    var rate = SpotInterruptionRates.parse(Map.of("eks", value)).of("eks");
    assertThat(rate.monthly()).isEqualByComparingTo(monthly);
    assertThat(rate.source()).isEqualTo("configured for eks");
  }

  @ParameterizedTest
  @CsvSource({"20-30%", "1.5", "-0.1"})
  void nonsenseRatesAreRefused(String value) {
    assertThatThrownBy(() -> SpotInterruptionRates.parse(Map.of("eks", value)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @org.junit.jupiter.api.Test
  void anUnconfiguredBackendGetsTheDefaultBandAndSaysSo() {
    var rate = SpotInterruptionRates.DEFAULTS.of("gke");
    assertThat(rate.monthly()).isEqualByComparingTo("0.10");
    assertThat(rate.source()).contains("AWS Spot Instance Advisor band 5-10%");
  }

  /** Lines on two pools: each pool's instances at its own rate, the backend's for the other. */
  @org.junit.jupiter.api.Test
  void eachPoolCountsAtItsOwnRate() {
    var rates = SpotInterruptionRates.parse(Map.of("eks", "0.10", "eks/a10g-spot", "0.02"));
    var estimator =
        new JobTotalEstimator(rates, JobTotalEstimator.DEFAULT_CHECKPOINT_INTERVAL_HOURS);
    var placement =
        new Placement(
            "eks",
            "aws",
            "ec2",
            "us-east-1",
            true,
            List.of(
                new PlacementLine(List.of("worker"), "g5.xlarge", 2, "nvidia-a10g", 1, "a10g-spot"),
                new PlacementLine(List.of("ps"), "m5.2xlarge", 1, null, 0, "cpu-spot")),
            null,
            null,
            null,
            null);
    var mixed = estimator.estimate("eks", placement, BigDecimal.ONE, new BigDecimal("100"), false);
    // λ = (2 × 0.02 + 1 × 0.10) / 730 per hour, against 3 × 0.10 / 730 at the backend's rate.
    var lambda = (2 * 0.02 + 0.10) / 730;
    var expected = (Math.exp(lambda * 100) - 1) / lambda - 100;
    assertThat(mixed.rerunHours().doubleValue())
        .isCloseTo(expected, org.assertj.core.data.Offset.offset(1e-3));
    assertThat(mixed.notes())
        .anyMatch(
            n ->
                n.contains("2% configured for eks/a10g-spot")
                    && n.contains("10% configured for eks"));
    assertThat(rates.of("eks", "cpu-spot").source()).isEqualTo("configured for eks");
  }
}
