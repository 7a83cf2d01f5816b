package io.trainyard.spi.spec;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Gang-scheduling settings for Kubernetes backends, named as the Kubeflow operator's {@code
 * runPolicy.schedulingPolicy} names them, because only a Kubernetes batch scheduler (Volcano,
 * scheduler-plugins) can honour them. Job-wide: it lives in {@code spec.kubernetes}, never in a
 * role's override.
 *
 * @param minAvailable replicas that must be schedulable together before any starts
 * @param queue the batch scheduler's queue
 * @param minResources resources the whole gang needs, as Kubernetes quantities ({@code cpu: "64"})
 * @param priorityClass a Kubernetes PriorityClass name
 * @param scheduleTimeoutSeconds how long the gang may wait to be scheduled
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record Scheduling(
    Integer minAvailable,
    String queue,
    Map<String, String> minResources,
    String priorityClass,
    Integer scheduleTimeoutSeconds) {

  public Scheduling {
    minResources =
        minResources == null
            ? Map.of()
            : Collections.unmodifiableMap(new LinkedHashMap<>(minResources));
  }

  @JsonIgnore
  public boolean isEmpty() {
    return minAvailable == null
        && queue == null
        && minResources.isEmpty()
        && priorityClass == null
        && scheduleTimeoutSeconds == null;
  }
}
