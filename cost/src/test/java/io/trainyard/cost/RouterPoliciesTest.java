package io.trainyard.cost;

import static org.assertj.core.api.Assertions.assertThat;

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

/** The policies cheapest (by total or hourly), fastest and cheapest-within, with ties. */
class RouterPoliciesTest {
  private final Router router =
      new Router(
          PriceBook.OPERATOR,
          BigDecimal.ONE,
          new JobTotalEstimator(
              SpotInterruptionRates.parse(Map.of("spot", ">20%")),
              JobTotalEstimator.DEFAULT_CHECKPOINT_INTERVAL_HOURS));

  @Test
  void cheapestRanksByTotalWhenTheSpecGivesHours() {
    // 8 spot nodes at >20%/month for 100 h without a checkpoint: ~15 h of expected re-runs make
    // the cheaper hourly price the dearer job.
    var quotes =
        List.of(quote("spot", "7.00", true, 8, null), quote("ondemand", "7.50", false, 8, null));
    // The caller accepts spot without a checkpoint for this long (else the spot offer is refused).
    var placement = new PlacementSpec(null, null, null, null, null, null, "200h");
    var decision = router.route(spec(placement, "100", null, false), quotes);

    assertThat(decision.rankedBy()).isEqualTo(RankingBasis.TOTAL);
    assertThat(decision.chosen()).isEqualTo("ondemand");
    var spot = offer(decision, "spot");
    assertThat(spot.estimatedTotalUsd()).isGreaterThan(new BigDecimal("750"));
    assertThat(spot.notes()).anyMatch(n -> n.startsWith("spot: 25% interruptions"));
    assertThat(offer(decision, "ondemand").estimatedTotalUsd()).isEqualByComparingTo("750");
    assertThat(decision.choice()).isEqualTo("cheapest: the lowest estimatedTotalUsd, $750");
    // Budgets and job rows count estimatedUsd: the whole job, spot re-runs included, not 7 × 100.
    assertThat(spot.estimatedUsd()).isEqualByComparingTo(spot.estimatedTotalUsd());
    assertThat(spot.estimatedUsd()).isGreaterThan(new BigDecimal("700"));
  }

  @Test
  void aCheckpointMakesTheSpotJobCheapestAgain() {
    var quotes =
        List.of(quote("spot", "7.00", true, 8, null), quote("ondemand", "7.50", false, 8, null));
    var decision = router.route(spec((PlacementPolicy) null, "100", null, true), quotes);
    assertThat(decision.chosen()).isEqualTo("spot");
    assertThat(offer(decision, "spot").estimatedTotalUsd()).isLessThan(new BigDecimal("710"));
  }

  @Test
  void withoutHoursOrMaxRuntimeCheapestRanksByHourlyAndGivesNoTotal() {
    var quotes =
        List.of(quote("spot", "7.00", true, 8, null), quote("ondemand", "7.50", false, 8, null));
    var decision = router.route(spec((PlacementPolicy) null, null, null, false), quotes);
    assertThat(decision.rankedBy()).isEqualTo(RankingBasis.HOURLY);
    assertThat(decision.chosen()).isEqualTo("spot");
    assertThat(decision.offers()).allMatch(c -> c.estimatedTotalUsd() == null);
    assertThat(decision.choice()).isEqualTo("cheapest: the lowest hourlyUsd, $7");
  }

  @Test
  void maxRuntimeAloneIsTheTotalsDuration() {
    var decision =
        router.route(
            spec((PlacementPolicy) null, null, "2h", false),
            List.of(quote("a", "3", false, 1, null)));
    assertThat(decision.rankedBy()).isEqualTo(RankingBasis.TOTAL);
    assertThat(decision.offers().get(0).estimatedTotalUsd()).isEqualByComparingTo("6");
  }

  @Test
  void equalCostsAreOrderedByBackendId() {
    var quotes = List.of(quote("b", "4", false, 1, null), quote("a", "4", false, 1, null));
    var decision = router.route(spec((PlacementPolicy) null, "3", null, false), quotes);
    assertThat(decision.offers()).extracting(Candidate::backendId).containsExactly("a", "b");
  }

  @Test
  void fastestPrefersFreeCapacityThenUnknownThenNoneAndBreaksTiesByCost() {
    var quotes =
        List.of(
            quote("cheap-full", "1", false, 1, 0),
            quote("unknown", "2", false, 1, null),
            quote("free-dear", "9", false, 1, 3),
            quote("free-cheap", "5", false, 1, 1));
    for (var policy : List.of(PlacementPolicy.FASTEST, PlacementPolicy.FASTEST_START)) {
      var decision = router.route(spec(policy, "1", null, false), quotes);
      assertThat(decision.offers())
          .extracting(Candidate::backendId)
          .containsExactly("free-cheap", "free-dear", "unknown", "cheap-full");
      assertThat(decision.choice())
          .isEqualTo(
              policy.wireName()
                  + ": earliest expected start (free-cheap: 1 instance(s) free now),"
                  + " ties by estimatedTotalUsd");
    }
  }

  @Test
  void fastestWithoutAnEstimateBreaksTiesByHourlyPrice() {
    var quotes = List.of(quote("b", "5", false, 1, null), quote("a", "6", false, 1, null));
    var decision = router.route(spec(PlacementPolicy.FASTEST, null, null, false), quotes);
    assertThat(decision.chosen()).isEqualTo("b");
    assertThat(decision.choice()).endsWith("ties by hourlyUsd");
  }

  @Test
  void cheapestWithinTakesTheFastestOfferNearTheCheapest() {
    var quotes =
        List.of(
            quote("cheapest", "10", false, 1, null),
            quote("near-free", "11.5", false, 1, 2),
            quote("far-free", "13", false, 1, 5));
    var decision = router.route(spec(PlacementPolicy.CHEAPEST_WITHIN, "2", null, false), quotes);
    assertThat(decision.offers())
        .extracting(Candidate::backendId)
        .containsExactly("near-free", "cheapest", "far-free");
    assertThat(decision.choice())
        .isEqualTo(
            "cheapest-within 1.2: the fastest (near-free: 2 instance(s) free now) of 2 offer(s)"
                + " with estimatedTotalUsd at most $24 (the cheapest is $20)");
  }

  @Test
  void cheapestWithinATighterFactorKeepsTheCheapest() {
    var quotes =
        List.of(quote("cheapest", "10", false, 1, null), quote("near-free", "11.5", false, 1, 2));
    var within =
        new PlacementSpec(
            PlacementPolicy.CHEAPEST_WITHIN, null, null, null, null, new BigDecimal("1.1"), null);
    var decision = router.route(spec(within, null, null, false), quotes);
    assertThat(decision.chosen()).isEqualTo("cheapest");
    assertThat(decision.rankedBy()).isEqualTo(RankingBasis.HOURLY);
  }

  /**
   * {@code fastest} (issue 20): fits now → fewest waiting ahead → unknown last → price. Each row:
   * offers as {@code id:usd:free:waiting} ({@code -} = not reported), and the expected order.
   */
  @org.junit.jupiter.params.ParameterizedTest(name = "{0} → {1}")
  @org.junit.jupiter.params.provider.CsvSource(
      delimiter = '|',
      value = {
        // free capacity beats a shorter queue
        "a:9:2:5, b:1:0:0                  | a, b",
        // none fits now: the fewest waiting ahead, whatever the price
        "a:9:0:1, b:1:0:4                  | a, b",
        // a known queue, even a long one, before an unknown one
        "a:1:-:-, b:9:-:7                  | b, a",
        // equal queues: the price decides
        "a:5:-:2, b:3:-:2, c:4:-:2         | b, c, a",
        // nothing reported anywhere: as before, by price
        "a:5:-:-, b:3:-:-                  | b, a",
        // among equals, unknown free capacity before none free, then price
        "a:1:0:0, b:9:-:0                  | b, a",
      })
  void fastestRanksFitsNowThenFewestWaitingThenUnknownThenPrice(String offers, String order) {
    var quotes = new java.util.ArrayList<BackendQuote>();
    for (var o : offers.split(",")) {
      var f = o.trim().split(":");
      var free = f[2].equals("-") ? null : Integer.valueOf(f[2]);
      var ahead =
          f[3].equals("-")
              ? io.trainyard.spi.WaitingAhead.unknown("not reported")
              : io.trainyard.spi.WaitingAhead.of(Integer.parseInt(f[3]), "pods", "test");
      quotes.add(quote(f[0], f[1], false, 1, free, ahead));
    }
    var decision = router.route(spec(PlacementPolicy.FASTEST, null, null, false), quotes);
    assertThat(decision.offers())
        .extracting(Candidate::backendId)
        .containsExactly(order.split(",\\s*"));
  }

  @Test
  void theChoiceAndTheNotesSayWhatWaitsAhead() {
    var quotes =
        List.of(
            quote("queued", "1", false, 1, 0, io.trainyard.spi.WaitingAhead.of(3, "pods", "src")),
            quote("empty", "2", false, 1, 0, io.trainyard.spi.WaitingAhead.of(0, "jobs", "mine")));
    var decision = router.route(spec(PlacementPolicy.FASTEST, null, null, false), quotes);
    assertThat(decision.chosen()).isEqualTo("empty");
    assertThat(decision.choice())
        .isEqualTo(
            "fastest: earliest expected start (empty: no free capacity, must wait, 0 jobs waiting"
                + " ahead (mine)), ties by hourlyUsd");
    assertThat(offer(decision, "queued").notes()).contains("start: 3 pods waiting ahead (src)");
  }

  @Test
  void noOfferNoChoice() {
    var decision = router.route(spec(PlacementPolicy.FASTEST, "1", null, false), List.of());
    assertThat(decision.chosen()).isNull();
    assertThat(decision.choice()).isNull();
  }

  private static Candidate offer(RoutingDecision decision, String backend) {
    return decision.offers().stream().filter(c -> c.backendId().equals(backend)).findFirst().get();
  }

  private static BackendQuote quote(
      String id, String usd, boolean spot, int nodes, Integer freeCapacity) {
    return quote(id, usd, spot, nodes, freeCapacity, null);
  }

  private static BackendQuote quote(
      String id,
      String usd,
      boolean spot,
      int nodes,
      Integer freeCapacity,
      io.trainyard.spi.WaitingAhead ahead) {
    var placement =
        new Placement(
            id,
            "aws",
            "ec2",
            "us-east-1",
            spot,
            List.of(new PlacementLine(List.of("worker"), "p4d.24xlarge", nodes, null, 0)),
            new BigDecimal(usd),
            null,
            freeCapacity,
            null,
            ahead);
    return new BackendQuote(
        id, "kubernetes", "us-east-1", false, null, Proposals.of(placement), null);
  }

  private static JobSpec spec(
      PlacementPolicy policy, String hours, String maxRuntime, boolean checkpoint) {
    return spec(
        policy == null ? (PlacementSpec) null : new PlacementSpec(policy, null, null, null, null),
        hours,
        maxRuntime,
        checkpoint);
  }

  private static JobSpec spec(
      PlacementSpec placement, String hours, String maxRuntime, boolean checkpoint) {
    return new JobSpec(
        Framework.PYTORCH,
        "img",
        List.of("python3"),
        null,
        null,
        null,
        null,
        null,
        Map.of("worker", 1),
        null,
        null,
        null,
        hours == null ? null : new BigDecimal(hours),
        maxRuntime,
        null,
        null,
        checkpoint ? new Checkpoint("s3://bucket/ckpt") : null,
        null,
        null,
        null,
        null,
        placement,
        null,
        null);
  }
}
