package io.trainyard.spi.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.math.BigDecimal;
import java.util.List;

/**
 * The job's routing constraints.
 *
 * @param policy how to choose among offers that qualify (default {@code cheapest})
 * @param backends allow-list of backend ids; empty = any the team may use
 * @param regions data residency: only these regions; empty = any
 * @param spot whether spot capacity may be used (default {@code allowed})
 * @param maxHourlyUsd refuse offers above this hourly price
 * @param within with policy {@code cheapest-within}: how much dearer than the cheapest an offer may
 *     be (1.2 = 20%); null = {@value #DEFAULT_WITHIN}
 * @param spotNeedsCheckpointAfter a spot offer for a job expected to run longer than this needs a
 *     checkpoint location ({@code spec.checkpoint}); null = {@value #DEFAULT_SPOT_NEEDS_CHECKPOINT}
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record PlacementSpec(
    PlacementPolicy policy,
    List<String> backends,
    List<String> regions,
    SpotPolicy spot,
    BigDecimal maxHourlyUsd,
    BigDecimal within,
    String spotNeedsCheckpointAfter) {
  public static final String DEFAULT_WITHIN = "1.2";
  public static final String DEFAULT_SPOT_NEEDS_CHECKPOINT = "1h";

  public static final PlacementSpec DEFAULT = new PlacementSpec(null, null, null, null, null);

  /** Constraints with the defaults of {@code within} and {@code spotNeedsCheckpointAfter}. */
  public PlacementSpec(
      PlacementPolicy policy,
      List<String> backends,
      List<String> regions,
      SpotPolicy spot,
      BigDecimal maxHourlyUsd) {
    this(policy, backends, regions, spot, maxHourlyUsd, null, null);
  }

  public PlacementSpec {
    backends = backends == null ? List.of() : List.copyOf(backends);
    regions = regions == null ? List.of() : List.copyOf(regions);
  }

  public PlacementPolicy effectivePolicy() {
    return policy == null ? PlacementPolicy.CHEAPEST : policy;
  }

  public SpotPolicy effectiveSpot() {
    return spot == null ? SpotPolicy.ALLOWED : spot;
  }

  public BigDecimal effectiveWithin() {
    return within == null ? new BigDecimal(DEFAULT_WITHIN) : within;
  }

  public String effectiveSpotNeedsCheckpointAfter() {
    return spotNeedsCheckpointAfter == null
        ? DEFAULT_SPOT_NEEDS_CHECKPOINT
        : spotNeedsCheckpointAfter;
  }
}
