package io.trainyard.cost;

import com.fasterxml.jackson.annotation.JsonValue;

/**
 * What the router compared offers by: the estimated cost of the whole job when the spec gives a
 * duration ({@code estimatedHours} or {@code maxRuntime}), the hourly price otherwise.
 */
public enum RankingBasis {
  TOTAL("estimatedTotalUsd"),
  HOURLY("hourlyUsd");

  private final String wireName;

  RankingBasis(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  public String wireName() {
    return wireName;
  }
}
