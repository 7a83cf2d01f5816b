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
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record PlacementSpec(
    PlacementPolicy policy,
    List<String> backends,
    List<String> regions,
    SpotPolicy spot,
    BigDecimal maxHourlyUsd) {

  public static final PlacementSpec DEFAULT = new PlacementSpec(null, null, null, null, null);

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
}
