package io.trainyard.spi.spec;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;

/** Which pods a Kubernetes backend deletes when the job ends (Kubeflow's cleanPodPolicy). */
public enum CleanPodPolicy {
  RUNNING("running"),
  ALL("all"),
  NONE("none");

  private final String wireName;

  CleanPodPolicy(String wireName) {
    this.wireName = wireName;
  }

  @JsonValue
  public String wireName() {
    return wireName;
  }

  @JsonCreator
  public static CleanPodPolicy fromWireName(String value) {
    return WireEnums.parse(CleanPodPolicy.class, value, CleanPodPolicy::wireName);
  }

  @Override
  public String toString() {
    return wireName;
  }
}
