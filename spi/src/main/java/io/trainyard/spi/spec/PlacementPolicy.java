package io.trainyard.spi.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** How the router picks among offers that meet every constraint. */
public enum PlacementPolicy {
  CHEAPEST("cheapest"),
  FASTEST_START("fastest-start"),
  /** The earliest expected start (queue depth, pending pods, free capacity the backends report). */
  FASTEST("fastest"),
  /** The fastest offer whose cost is within {@code placement.within} of the cheapest's. */
  CHEAPEST_WITHIN("cheapest-within"),
  PINNED("pinned");

  private final String wireName;

  PlacementPolicy(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  public String wireName() {
    return wireName;
  }

  @JsonCreator
  public static PlacementPolicy fromWireName(String value) {
    return WireEnums.parse(PlacementPolicy.class, value, PlacementPolicy::wireName);
  }

  @Override
  public String toString() {
    return wireName;
  }
}
