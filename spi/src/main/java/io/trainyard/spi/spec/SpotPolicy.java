package io.trainyard.spi.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Whether a job may, must or must not run on spot / preemptible capacity. */
public enum SpotPolicy {
  NEVER("never"),
  ALLOWED("allowed"),
  REQUIRED("required");

  private final String wireName;

  SpotPolicy(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  public String wireName() {
    return wireName;
  }

  @JsonCreator
  public static SpotPolicy fromWireName(String value) {
    return WireEnums.parse(SpotPolicy.class, value, SpotPolicy::wireName);
  }

  @Override
  public String toString() {
    return wireName;
  }
}
