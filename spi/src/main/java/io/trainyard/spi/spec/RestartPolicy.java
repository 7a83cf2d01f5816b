package io.trainyard.spi.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** How a failed replica is restarted (the Kubeflow operator's restart policies). */
public enum RestartPolicy {
  ON_FAILURE("OnFailure"),
  NEVER("Never"),
  EXIT_CODE("ExitCode"),
  ALWAYS("Always");

  private final String wireName;

  RestartPolicy(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  public String wireName() {
    return wireName;
  }

  @JsonCreator
  public static RestartPolicy fromWireName(String value) {
    return WireEnums.parse(RestartPolicy.class, value, RestartPolicy::wireName);
  }

  @Override
  public String toString() {
    return wireName;
  }
}
