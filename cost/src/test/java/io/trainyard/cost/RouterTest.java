package io.trainyard.cost;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.Placement;
import io.trainyard.spi.PlacementLine;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.Rejection;
import io.trainyard.spi.spec.Compliance;
import io.trainyard.spi.spec.DataClassification;
import io.trainyard.spi.spec.Framework;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.PlacementPolicy;
import io.trainyard.spi.spec.PlacementSpec;
import io.trainyard.spi.spec.SpotPolicy;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RouterTest {
  private final Router router = new Router(PriceBook.OPERATOR, BigDecimal.ONE);

  @Test
  void cheapestWinsAndEveryOtherBackendIsListedWithItsReason() {
    var decision =
        router.route(
            spec(null, null),
            List.of(
                quote("dear", "us-east-1", false, "12.50", false),
                quote("cheap", "us-east-1", false, "3.20", false),
                BackendQuote.unavailable("down", "kubernetes", "eu", "unhealthy: 401 from API"),
                new BackendQuote(
                    "nogpu",
                    "local",
                    "local",
                    false,
                    null,
                    Proposals.rejected("nogpu", "the local backend has no GPUs"),
                    null)));
    assertThat(decision.chosen()).isEqualTo("cheap");
    assertThat(decision.offers()).extracting(Candidate::backendId).containsExactly("cheap", "dear");
    assertThat(decision.candidates())
        .filteredOn(c -> !c.isOffer())
        .extracting(Candidate::backendId, Candidate::rejected)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("down", "unhealthy: 401 from API"),
            org.assertj.core.groups.Tuple.tuple("nogpu", "the local backend has no GPUs"));
    assertThat(decision.candidates().get(0).chosen()).isTrue();
    assertThat(decision.candidates().get(1).chosen()).isFalse();
  }

  @Test
  void constraintsRejectWithReasons() {
    var placement =
        new PlacementSpec(
            null, List.of(), List.of("us-east-1"), SpotPolicy.NEVER, new BigDecimal("10"));
    var decision =
        router.route(
            spec(placement, DataClassification.PHI),
            List.of(
                quote("eu", "eu-west-1", true, "1", false),
                quote("nohipaa", "us-east-1", false, "1", false),
                quote("spot", "us-east-1", true, "1", true),
                quote("pricey", "us-east-1", true, "10.01", false),
                quote("ok", "us-east-1", true, "9.99", false)));
    assertThat(decision.chosen()).isEqualTo("ok");
    assertThat(decision.candidates())
        .filteredOn(c -> !c.isOffer())
        .extracting(Candidate::rejected)
        .containsExactly(
            "region eu-west-1 is not in spec.placement.regions",
            "not HIPAA-eligible, and the job's data is phi",
            "$10.0100/h is over spec.placement.maxHourlyUsd $10",
            "spot capacity, and spec.placement.spot is never");
  }

  @Test
  void spotRequiredRefusesOnDemand() {
    var placement = new PlacementSpec(null, null, null, SpotPolicy.REQUIRED, null);
    var decision =
        router.route(
            spec(placement, null),
            List.of(quote("od", "r", false, "1", false), quote("sp", "r", false, "2", true)));
    assertThat(decision.chosen()).isEqualTo("sp");
    assertThat(decision.candidates().get(1).rejected())
        .isEqualTo("on-demand capacity, and spec.placement.spot is required");
  }

  @Test
  void pinnedTakesOnlyItsBackendEvenWhenDearer() {
    var placement = new PlacementSpec(PlacementPolicy.PINNED, List.of("dear"), null, null, null);
    var decision =
        router.route(
            spec(placement, null),
            List.of(quote("cheap", "r", false, "1", false), quote("dear", "r", false, "5", false)));
    assertThat(decision.chosen()).isEqualTo("dear");
    assertThat(decision.candidates().get(1).rejected()).isEqualTo("not the pinned backend");
  }

  @Test
  void discountIsAppliedLastAndTheEstimateUsesTheSpecHours() {
    var quote =
        new BackendQuote(
            "b",
            "kubernetes",
            "r",
            false,
            new BigDecimal("20"),
            Proposals.of(placement("b", "r", "10", false)),
            null);
    var spec = spec(null, null);
    var withHours =
        new JobSpec(
            spec.framework(),
            spec.image(),
            null,
            null,
            null,
            null,
            null,
            null,
            spec.replicas(),
            null,
            null,
            null,
            new BigDecimal("3"),
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null);
    var offer = router.route(withHours, List.of(quote)).offers().get(0);
    assertThat(offer.hourlyUsd()).isEqualByComparingTo("8");
    assertThat(offer.estimatedUsd()).isEqualByComparingTo("24");
  }

  @Test
  void theEstimateNeverRunsPastMaxRuntime() {
    var quote = quote("b", "r", false, "10", false);
    var spec = spec(null, null);
    var capped =
        new JobSpec(
            spec.framework(),
            spec.image(),
            null,
            null,
            null,
            null,
            null,
            null,
            spec.replicas(),
            null,
            null,
            null,
            new BigDecimal("5"),
            "90m",
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null);
    assertThat(router.route(capped, List.of(quote)).offers().get(0).estimatedUsd())
        .isEqualByComparingTo("15");
  }

  @Test
  void aPlacementWithoutAKnownPriceIsRejectedNotPricedAtZero() {
    var unpriced =
        new Placement(
            "k",
            "aws",
            "ec2",
            "r",
            false,
            List.of(new PlacementLine(List.of("worker"), "x9.huge", 2, null, 0)),
            null,
            null,
            null,
            null);
    var decision =
        router.route(
            spec(null, null),
            List.of(new BackendQuote("k", "eks", "r", false, null, Proposals.of(unpriced), null)));
    assertThat(decision.chosen()).isNull();
    assertThat(decision.candidates().get(0).rejected())
        .isEqualTo("no operator price for 2 × x9.huge");
  }

  @Test
  void fastestStartPrefersKnownFreeCapacityThenPrice() {
    var placement = new PlacementSpec(PlacementPolicy.FASTEST_START, null, null, null, null);
    var full = withCapacity(placement("full", "r", "1", false), 0);
    var free = withCapacity(placement("free", "r", "3", false), 2);
    var unknown = placement("unknown", "r", "2", false);
    var decision =
        router.route(
            spec(placement, null),
            List.of(
                new BackendQuote("full", "k", "r", false, null, Proposals.of(full), null),
                new BackendQuote("free", "k", "r", false, null, Proposals.of(free), null),
                new BackendQuote("unknown", "k", "r", false, null, Proposals.of(unknown), null)));
    assertThat(decision.offers())
        .extracting(Candidate::backendId)
        .containsExactly("free", "unknown", "full");
  }

  @Test
  void rejectionsOfPartsOfABackendStillShowBesideItsOffers() {
    var quote =
        new BackendQuote(
            "k",
            "eks",
            "r",
            false,
            null,
            new Proposals(
                List.of(placement("k", "r", "4", false)),
                List.of(new Rejection("k", "pool a100: no nvidia-h100 GPUs"))),
            null);
    var decision = router.route(spec(null, null), List.of(quote));
    assertThat(decision.candidates()).hasSize(2);
    assertThat(decision.candidates().get(1).rejected()).isEqualTo("pool a100: no nvidia-h100 GPUs");
  }

  private static Placement withCapacity(Placement p, int free) {
    return new Placement(
        p.backendId(),
        p.provider(),
        p.service(),
        p.region(),
        p.spot(),
        p.lines(),
        p.operatorUsdPerHour(),
        p.clusterFeeUsdPerHour(),
        free,
        p.notes());
  }

  private static BackendQuote quote(
      String id, String region, boolean hipaa, String usd, boolean spot) {
    return new BackendQuote(
        id,
        "kubernetes",
        region,
        hipaa,
        null,
        Proposals.of(placement(id, region, usd, spot)),
        null);
  }

  @Test
  void eachRejectionSaysWhetherWaitingCouldHelp() {
    var down =
        BackendQuote.unavailable("down", "k", "r", "unhealthy: timeout", Rejection.Kind.NOT_NOW);
    var forbidden = BackendQuote.unavailable("other", "k", "r", "not allowed for team nlp");
    var full =
        new BackendQuote(
            "full", "k", "r", false, null, Proposals.notNow("full", "no free job slot"), null);
    var small =
        new BackendQuote(
            "small", "k", "r", false, null, Proposals.rejected("small", "no pool fits"), null);
    var decision = router.route(spec(null, null), List.of(down, forbidden, full, small));

    assertThat(decision.candidates())
        .extracting(Candidate::backendId, c -> c.rejectedKind().wireName())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("down", "not-now"),
            org.assertj.core.groups.Tuple.tuple("full", "not-now"),
            org.assertj.core.groups.Tuple.tuple("other", "never"),
            org.assertj.core.groups.Tuple.tuple("small", "never"));
    assertThat(decision.neverRunnable()).isFalse();
    assertThat(decision.notNowReasons())
        .containsExactly("down: unhealthy: timeout", "full: no free job slot");

    var never = router.route(spec(null, null), List.of(forbidden, small));
    assertThat(never.neverRunnable()).isTrue();
    assertThat(never.notNowReasons()).isEmpty();
  }

  @Test
  void theSpecsOwnChoicesAreNeverEvenOnADownBackend() {
    var pinned = new PlacementSpec(PlacementPolicy.PINNED, List.of("up"), null, null, null);
    var down = BackendQuote.unavailable("down", "k", "r", "unhealthy", Rejection.Kind.NOT_NOW);
    var decision = router.route(spec(pinned, null), List.of(down));
    // Unhealthy is said first, but waiting could help only if the spec allowed the backend.
    assertThat(decision.candidates().get(0).rejected()).isEqualTo("unhealthy");
    assertThat(decision.candidates().get(0).rejectedKind()).isEqualTo(Rejection.Kind.NEVER);
    assertThat(decision.neverRunnable()).isTrue();
  }

  private static Placement placement(String id, String region, String usd, boolean spot) {
    return new Placement(
        id,
        "onprem",
        "kubernetes",
        region,
        spot,
        List.of(new PlacementLine(List.of("master", "worker"), "node", 1, null, 0)),
        new BigDecimal(usd),
        null,
        null,
        null);
  }

  private static JobSpec spec(PlacementSpec placement, DataClassification classification) {
    return new JobSpec(
        Framework.PYTORCH,
        "img",
        List.of("python3"),
        null,
        null,
        null,
        null,
        null,
        Map.of("master", 1),
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        placement,
        classification == null ? null : new Compliance(classification),
        null);
  }
}
