package io.trainyard.cost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import io.trainyard.spi.Placement;
import io.trainyard.spi.PlacementLine;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.spec.Checkpoint;
import io.trainyard.spi.spec.Framework;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.PlacementPolicy;
import io.trainyard.spi.spec.PlacementSpec;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The README's worked example ("The cost of the whole job"), priced from the embedded catalog: 4 ×
 * 8 A100-40GB for 72 hours on an EKS cluster (an on-demand and a spot p4d.24xlarge pool, each
 * node's share of the $0.10/h control plane), SageMaker and Vertex.
 */
class RoutingWorkedExampleTest {
  private final Router router =
      new Router(
          new CatalogPriceBook(PriceCatalog.embedded(), CatalogPriceBookTest.MANAGED, null),
          BigDecimal.ONE,
          new JobTotalEstimator(
              SpotInterruptionRates.parse(Map.of("eks", "10-15%")),
              JobTotalEstimator.DEFAULT_CHECKPOINT_INTERVAL_HOURS));

  private final List<BackendQuote> quotes =
      List.of(
          quote("eks", "aws", "ec2", "us-east-1", "p4d.24xlarge", false, "0.1", 4),
          quote("eks", "aws", "ec2", "us-east-1", "p4d.24xlarge", true, "0.1", 0),
          quote("sagemaker", "aws", "sagemaker", "us-east-1", "ml.p4d.24xlarge", false, null, null),
          quote("vertex", "gcp", "vertex", "us-central1", "a2-highgpu-8g", false, null, null));

  @Test
  void cheapestRanksTheWholeJobsAndCountsSpotReRuns() {
    var decision = router.route(spec(null, false), quotes);
    assertThat(decision.rankedBy()).isEqualTo(RankingBasis.TOTAL);
    assertThat(decision.offers())
        .extracting(
            Candidate::backendId,
            Candidate::spot,
            c -> c.hourlyUsd().toPlainString(),
            c -> c.estimatedTotalUsd().toPlainString())
        .containsExactly(
            tuple("eks", true, "20.3982", "1512.9977"),
            tuple("eks", false, "131.1154", "9440.3088"),
            tuple("vertex", false, "141.0400", "10154.8800"),
            tuple("sagemaker", false, "150.7520", "10854.1440"));
    assertThat(decision.offers().get(0).notes())
        .contains(
            "total: $20.3982/h × 74.1731 h = $1512.9977",
            "spot: 15% interruptions per instance-month (configured for eks) × 4 instance(s) →"
                + " +2.1731 h expected re-run (no checkpoint: restart from the beginning)");
    assertThat(decision.choice()).isEqualTo("cheapest: the lowest estimatedTotalUsd, $1512.9977");
  }

  @Test
  void aCheckpointShrinksTheReRunTime() {
    var spot = router.route(spec(null, true), quotes).offers().get(0);
    assertThat(spot.estimatedTotalUsd()).isEqualByComparingTo("1468.9723");
    assertThat(spot.notes()).contains("total: $20.3982/h × 72.0148 h = $1468.9723");
  }

  @Test
  void fastestTakesThePoolWithFreeNodes() {
    var decision = router.route(spec(PlacementPolicy.FASTEST, false), quotes);
    assertThat(decision.offers())
        .extracting(Candidate::backendId, Candidate::spot)
        .containsExactly(
            tuple("eks", false),
            tuple("vertex", false),
            tuple("sagemaker", false),
            tuple("eks", true));
    assertThat(decision.choice())
        .isEqualTo(
            "fastest: earliest expected start (eks: 4 instance(s) free now), ties by"
                + " estimatedTotalUsd");
  }

  @Test
  void cheapestWithinKeepsTheSpotPoolWhenNothingElseIsNear() {
    var decision = router.route(spec(PlacementPolicy.CHEAPEST_WITHIN, false), quotes);
    assertThat(decision.offers().get(0).spot()).isTrue();
    assertThat(decision.choice())
        .isEqualTo(
            "cheapest-within 1.2: the fastest (eks: no free capacity, must wait) of 1 offer(s)"
                + " with estimatedTotalUsd at most $1815.5972 (the cheapest is $1512.9977)");
  }

  private static BackendQuote quote(
      String id,
      String provider,
      String service,
      String region,
      String instance,
      boolean spot,
      String feePerNode,
      Integer free) {
    var placement =
        new Placement(
            id,
            provider,
            service,
            region,
            spot,
            List.of(new PlacementLine(List.of("worker"), instance, 4, "nvidia-a100-40gb", 8)),
            null,
            feePerNode == null ? null : new BigDecimal("0.025"),
            free,
            null);
    return new BackendQuote(id, id, region, false, null, Proposals.of(placement), null);
  }

  private static JobSpec spec(PlacementPolicy policy, boolean checkpoint) {
    return new JobSpec(
        Framework.PYTORCH,
        "img",
        List.of("python3"),
        null,
        null,
        null,
        null,
        null,
        Map.of("worker", 4),
        null,
        null,
        null,
        new BigDecimal("72"),
        null,
        null,
        null,
        checkpoint ? new Checkpoint("s3://ckpt/llm") : null,
        null,
        null,
        null,
        null,
        // The example accepts a spot run without a checkpoint (spotNeedsCheckpointAfter: 100h).
        new PlacementSpec(policy, null, null, null, null, null, "100h"),
        null,
        null);
  }
}
