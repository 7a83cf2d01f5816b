package io.trainyard.cost;

import io.trainyard.spi.spec.PlacementPolicy;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Orders offers by a placement policy and says why the first one won. Pure, thread-safe.
 *
 * <ul>
 *   <li>{@code cheapest} (and {@code pinned}): the lowest cost by the {@link RankingBasis}.
 *   <li>{@code fastest} ({@code fastest-start} is an alias): the earliest expected start. An offer
 *       that fits now (its backend reports free instances, {@code Placement.freeCapacity}) first;
 *       then the fewest waiting ahead ({@code Placement.waitingAhead}: pending pods, queued jobs);
 *       offers whose queue is unknown last; among equals, unknown free capacity before none free,
 *       then the cost, then the backend id.
 *   <li>{@code cheapest-within}: the offers whose cost is at most {@code within} × the cheapest's,
 *       fastest first; then the others, cheapest first.
 * </ul>
 */
final class OfferRanking {
  private OfferRanking() {}

  /** The offers in preference order, and the sentence that explains the first. */
  record Ranked(List<Candidate> offers, String reason) {}

  static Ranked rank(
      PlacementPolicy policy, BigDecimal within, RankingBasis basis, List<Candidate> offers) {
    var cheapest = byCost(basis);
    var fastest = byStart().thenComparing(cheapest);
    var sorted = new ArrayList<>(offers);
    if (sorted.isEmpty()) {
      return new Ranked(sorted, null);
    }
    switch (policy) {
      case FASTEST, FASTEST_START -> {
        sorted.sort(fastest);
        return new Ranked(
            sorted,
            policy.wireName()
                + ": earliest expected start ("
                + start(sorted.get(0))
                + "), ties by "
                + basis.wireName());
      }
      case CHEAPEST_WITHIN -> {
        sorted.sort(cheapest);
        var floor = cost(sorted.get(0), basis);
        var limit = floor.multiply(within);
        var near = new ArrayList<Candidate>();
        var far = new ArrayList<Candidate>();
        for (var c : sorted) {
          (cost(c, basis).compareTo(limit) <= 0 ? near : far).add(c);
        }
        near.sort(fastest);
        near.addAll(far);
        return new Ranked(
            near,
            "cheapest-within "
                + within.stripTrailingZeros().toPlainString()
                + ": the fastest ("
                + start(near.get(0))
                + ") of "
                + (sorted.size() - far.size())
                + " offer(s) with "
                + basis.wireName()
                + " at most $"
                + limit
                    .setScale(4, java.math.RoundingMode.HALF_UP)
                    .stripTrailingZeros()
                    .toPlainString()
                + " (the cheapest is $"
                + floor.stripTrailingZeros().toPlainString()
                + ")");
      }
      default -> {
        sorted.sort(cheapest);
        return new Ranked(
            sorted,
            policy.wireName()
                + ": the lowest "
                + basis.wireName()
                + ", $"
                + cost(sorted.get(0), basis).stripTrailingZeros().toPlainString());
      }
    }
  }

  static BigDecimal cost(Candidate c, RankingBasis basis) {
    return basis == RankingBasis.TOTAL && c.estimatedTotalUsd() != null
        ? c.estimatedTotalUsd()
        : c.hourlyUsd();
  }

  private static Comparator<Candidate> byCost(RankingBasis basis) {
    return Comparator.comparing((Candidate c) -> cost(c, basis))
        .thenComparing(Candidate::backendId);
  }

  /** Fits now, then fewest waiting ahead, unknown last; unknown free capacity before none. */
  private static Comparator<Candidate> byStart() {
    return Comparator.comparingInt((Candidate c) -> fitsNow(c) ? 0 : 1)
        .thenComparingLong(OfferRanking::waiting)
        .thenComparingInt(c -> free(c) == null ? 0 : free(c) > 0 ? 0 : 1);
  }

  private static Integer free(Candidate c) {
    return c.placement() == null ? null : c.placement().freeCapacity();
  }

  private static boolean fitsNow(Candidate c) {
    var free = free(c);
    return free != null && free > 0;
  }

  /** Known counts in order; unknown after every known one. */
  private static long waiting(Candidate c) {
    var ahead = c.placement() == null ? null : c.placement().waitingAhead();
    return ahead == null || !ahead.known() ? Long.MAX_VALUE : ahead.count();
  }

  private static String start(Candidate c) {
    var free = free(c);
    var ahead = c.placement() == null ? null : c.placement().waitingAhead();
    return c.backendId()
        + (free == null
            ? ": free capacity not reported"
            : free > 0 ? ": " + free + " instance(s) free now" : ": no free capacity, must wait")
        + (ahead == null ? "" : ", " + ahead.describe());
  }
}
