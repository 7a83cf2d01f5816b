package io.trainyard.cost;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.trainyard.spi.Rejection;
import io.trainyard.spi.spec.PlacementPolicy;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;

/**
 * The router's answer: every candidate, the offers first in the order the policy prefers them (the
 * chosen one first, the rest are the failover order), then every rejection with its reason.
 *
 * @param chosen the chosen backend's id; null when no offer qualifies
 * @param pricesAsOf when the prices used were compiled or refreshed; null when unknown
 * @param rankedBy what offers were compared by: {@code estimatedTotalUsd} when the spec gives a
 *     duration, else {@code hourlyUsd}
 * @param choice why the policy chose the first offer; null when there is none
 */
public record RoutingDecision(
    PlacementPolicy policy,
    String chosen,
    List<Candidate> candidates,
    LocalDate pricesAsOf,
    RankingBasis rankedBy,
    String choice) {
  public RoutingDecision {
    candidates = List.copyOf(candidates);
  }

  /** The offers in preference order; index 0 is the chosen one. */
  @JsonIgnore
  public List<Candidate> offers() {
    return candidates.stream().filter(Candidate::isOffer).toList();
  }

  /**
   * No offer, and no rejection that could lift: no backend could ever run the job as it stands (the
   * gateway answers 422). False when there is an offer or any {@code not-now} rejection.
   */
  @JsonIgnore
  public boolean neverRunnable() {
    return offers().isEmpty()
        && candidates.stream().noneMatch(c -> c.rejectedKind() == Rejection.Kind.NOT_NOW);
  }

  /** The rejections that could lift, as "backend: reason": why a queued job waits. */
  @JsonIgnore
  public List<String> notNowReasons() {
    return candidates.stream()
        .filter(c -> c.rejectedKind() == Rejection.Kind.NOT_NOW)
        .map(c -> c.backendId() + ": " + c.rejected())
        .distinct()
        .toList();
  }

  /** The offer at {@code index} of {@link #offers()}, if there is one (failover walks these). */
  public Optional<Candidate> offer(int index) {
    var offers = offers();
    return index < offers.size() ? Optional.of(offers.get(index)) : Optional.empty();
  }
}
