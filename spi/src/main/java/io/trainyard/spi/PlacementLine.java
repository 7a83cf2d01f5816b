package io.trainyard.spi;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Objects;

/**
 * A group of replicas on {@code count} instances of one type, e.g. two workers on one {@code
 * g5.12xlarge}. Mixed roles (a CPU launcher + GPU workers) are separate lines.
 *
 * @param roles the roles whose replicas share these instances
 * @param gpuType null for CPU-only lines
 * @param gpus GPUs used on each instance
 * @param pool the node pool of a Kubernetes cluster these instances are in; null elsewhere
 */
public record PlacementLine(
    List<String> roles,
    String instanceType,
    int count,
    String gpuType,
    int gpus,
    @JsonInclude(JsonInclude.Include.NON_NULL) String pool) {
  public PlacementLine {
    roles = List.copyOf(roles);
    Objects.requireNonNull(instanceType, "instanceType");
    if (count < 1) {
      throw new IllegalArgumentException("count must be at least 1");
    }
  }

  /** A line of a backend without node pools. */
  public PlacementLine(
      List<String> roles, String instanceType, int count, String gpuType, int gpus) {
    this(roles, instanceType, count, gpuType, gpus, null);
  }
}
