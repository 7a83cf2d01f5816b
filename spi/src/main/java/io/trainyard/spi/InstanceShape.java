package io.trainyard.spi;

import java.util.Objects;

/**
 * What one instance (a node, an {@code ml.*} instance) offers.
 *
 * @param gpuType null when the instance has no GPUs
 * @param gpuMemoryGiB per GPU; 0 when unknown or none
 */
public record InstanceShape(
    String instanceType,
    double vcpus,
    double memoryGiB,
    String gpuType,
    int gpus,
    double gpuMemoryGiB) {
  public InstanceShape {
    Objects.requireNonNull(instanceType, "instanceType");
  }
}
