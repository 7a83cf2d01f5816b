package io.trainyard.cost;

import io.trainyard.spi.Placement;
import io.trainyard.spi.Rejection;
import io.trainyard.spi.spec.DataClassification;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.PlacementPolicy;
import io.trainyard.spi.spec.PlacementSpec;
import io.trainyard.spi.spec.SpotPolicy;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Turns backends' proposals into priced candidates and picks one by the job's placement policy.
 * Pure: the same inputs give the same decision. Thread-safe.
 */
public final class Router {
  private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

  private final PriceBook prices;
  private final BigDecimal defaultEstimatedHours;
  private final JobTotalEstimator totals;

  /**
   * @param defaultEstimatedHours used for the estimate when a spec does not say
   */
  public Router(PriceBook prices, BigDecimal defaultEstimatedHours) {
    this(prices, defaultEstimatedHours, JobTotalEstimator.DEFAULTS);
  }

  /**
   * @param totals estimates each offer's whole-job cost (spot interruption rates per backend)
   */
  public Router(PriceBook prices, BigDecimal defaultEstimatedHours, JobTotalEstimator totals) {
    this.prices = Objects.requireNonNull(prices, "prices");
    this.defaultEstimatedHours = Objects.requireNonNull(defaultEstimatedHours);
    this.totals = Objects.requireNonNull(totals, "totals");
  }

  public RoutingDecision route(JobSpec spec, List<BackendQuote> quotes) {
    var placement = spec.effectivePlacement();
    var hours = estimatedHours(spec);
    // Once per decision, not once per offer: maxRuntime is parsed from its text each time.
    var totalHours = totalHours(spec);
    var spotCheckpoint = SpotCheckpointRule.reasonAgainstSpot(spec);
    var offers = new ArrayList<Candidate>();
    var rejected = new ArrayList<Candidate>();
    for (var quote : quotes) {
      var reason = backendReason(spec, placement, quote);
      if (reason != null) {
        // Only the backend's own state can lift (unhealthy); the spec's choices never do, so a
        // down backend the spec excludes anyway is never.
        var kind =
            quote.unavailable() != null && specReason(spec, placement, quote) == null
                ? quote.unavailableKind()
                : Rejection.Kind.NEVER;
        rejected.add(row(quote, null, null, hours).reject(reason, kind));
        continue;
      }
      for (var r : quote.proposals().rejections()) {
        rejected.add(row(quote, null, null, hours).reject(r.reason(), r.kind()));
      }
      for (var p : quote.proposals().placements()) {
        var priced = prices.price(p);
        var candidate = withTotal(spec, totalHours, row(quote, p, priced.price(), hours));
        var why =
            priced.price() == null ? priced.missing() : placementReason(placement, p, candidate);
        if (why == null && p.spot()) {
          why = spotCheckpoint;
        }
        (why == null ? offers : rejected).add(why == null ? candidate : candidate.reject(why));
      }
    }
    var basis = totalHours != null ? RankingBasis.TOTAL : RankingBasis.HOURLY;
    var ranked =
        OfferRanking.rank(placement.effectivePolicy(), placement.effectiveWithin(), basis, offers);
    offers = new ArrayList<>(ranked.offers());
    rejected.sort(Comparator.comparing(Candidate::backendId));
    var all = new ArrayList<Candidate>();
    if (!offers.isEmpty()) {
      offers.set(0, offers.get(0).choose());
    }
    all.addAll(offers);
    all.addAll(rejected);
    return new RoutingDecision(
        placement.effectivePolicy(),
        offers.isEmpty() ? null : offers.get(0).backendId(),
        all,
        prices.asOf(),
        basis,
        ranked.reason());
  }

  /**
   * The hours a whole-job total is for: {@code estimatedHours} (never past {@code maxRuntime}),
   * else {@code maxRuntime}; null when the spec gives neither, and offers rank by hourly price.
   */
  static BigDecimal totalHours(JobSpec spec) {
    var cap = maxRuntimeHours(spec);
    if (spec.estimatedHours() != null) {
      return cap == null ? spec.estimatedHours() : spec.estimatedHours().min(cap);
    }
    return cap;
  }

  /** The offer with its whole-job total and the notes that say how it was made. */
  private Candidate withTotal(JobSpec spec, BigDecimal hours, Candidate offer) {
    if (hours == null || offer.hourlyUsd() == null || offer.placement() == null) {
      return offer;
    }
    var total =
        totals.estimate(
            offer.backendId(),
            offer.placement(),
            offer.hourlyUsd(),
            hours,
            spec.checkpoint() != null);
    return offer.withTotal(total);
  }

  /** The estimate's hours: the spec's or the default, never past {@code maxRuntime}. */
  private BigDecimal estimatedHours(JobSpec spec) {
    var hours = spec.estimatedHours() != null ? spec.estimatedHours() : defaultEstimatedHours;
    var cap = maxRuntimeHours(spec);
    return cap == null ? hours : hours.min(cap);
  }

  /** {@code maxRuntime} in hours; null when the spec has none. */
  private static BigDecimal maxRuntimeHours(JobSpec spec) {
    return spec.maxRuntimeDuration().map(d -> hours(d)).orElse(null);
  }

  static BigDecimal hours(Duration duration) {
    return BigDecimal.valueOf(duration.toSeconds())
        .divide(BigDecimal.valueOf(3600), 6, RoundingMode.HALF_UP);
  }

  private static String backendReason(JobSpec spec, PlacementSpec placement, BackendQuote quote) {
    if (quote.unavailable() != null) {
      return quote.unavailable();
    }
    return specReason(spec, placement, quote);
  }

  /** Why the spec itself rules the backend out (allow-list, regions, data class); null if not. */
  private static String specReason(JobSpec spec, PlacementSpec placement, BackendQuote quote) {
    if (!placement.backends().isEmpty() && !placement.backends().contains(quote.backendId())) {
      return placement.effectivePolicy() == PlacementPolicy.PINNED
          ? "not the pinned backend"
          : "not in spec.placement.backends";
    }
    if (!placement.regions().isEmpty() && !placement.regions().contains(quote.region())) {
      return "region " + quote.region() + " is not in spec.placement.regions";
    }
    if (spec.dataClassification() == DataClassification.PHI && !quote.hipaaEligible()) {
      return "not HIPAA-eligible, and the job's data is phi";
    }
    return null;
  }

  private static String placementReason(PlacementSpec placement, Placement p, Candidate candidate) {
    if (p.spot() && placement.effectiveSpot() == SpotPolicy.NEVER) {
      return "spot capacity, and spec.placement.spot is never";
    }
    if (!p.spot() && placement.effectiveSpot() == SpotPolicy.REQUIRED) {
      return "on-demand capacity, and spec.placement.spot is required";
    }
    if (placement.maxHourlyUsd() != null
        && candidate.hourlyUsd().compareTo(placement.maxHourlyUsd()) > 0) {
      return "$"
          + candidate.hourlyUsd().toPlainString()
          + "/h is over spec.placement.maxHourlyUsd $"
          + placement.maxHourlyUsd().toPlainString();
    }
    return null;
  }

  private static Candidate row(BackendQuote quote, Placement p, Price price, BigDecimal hours) {
    BigDecimal hourly = null;
    BigDecimal total = null;
    if (price != null) {
      var factor = BigDecimal.ONE.subtract(quote.discountPct().divide(HUNDRED));
      hourly = money(price.usdPerHour().multiply(factor));
      total = money(hourly.multiply(hours));
    }
    return new Candidate(
        quote.backendId(),
        quote.kind(),
        p != null ? p.region() : quote.region(),
        p != null && p.spot(),
        hourly,
        total,
        null,
        price != null && price.estimated(),
        false,
        null,
        null,
        notes(p, price),
        p);
  }

  /** The placement's notes, then what the price is made of and where it comes from. */
  private static List<String> notes(Placement p, Price price) {
    var notes = new ArrayList<String>(p != null ? p.notes() : List.of());
    if (p != null && p.waitingAhead() != null) {
      notes.add("start: " + p.waitingAhead().describe());
    }
    if (price != null) {
      notes.add("price: " + price.source());
    }
    return notes;
  }

  private static BigDecimal money(BigDecimal usd) {
    return usd.setScale(4, RoundingMode.HALF_UP);
  }
}
