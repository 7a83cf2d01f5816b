package io.trainyard.spi.spec;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What one replica needs. Any field may be null in an override, meaning "as the default".
 *
 * @param gpus GPUs per replica
 * @param gpuType e.g. {@code nvidia-a100-40gb}; null means any GPU type will do (a Kubeflow
 *     document's {@code nvidia.com/gpu: 1} names no type), so backends may offer any GPU they have
 * @param cpus vCPUs per replica, fractions allowed
 * @param memory a Kubernetes quantity, e.g. {@code 32Gi}
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Resources(Integer gpus, String gpuType, Double cpus, String memory) {

  public static final Resources NONE = new Resources(null, null, null, null);

  /** This, with every null field taken from {@code defaults}. */
  public Resources over(Resources defaults) {
    if (defaults == null) {
      return this;
    }
    return new Resources(
        gpus != null ? gpus : defaults.gpus,
        gpuType != null ? gpuType : defaults.gpuType,
        cpus != null ? cpus : defaults.cpus,
        memory != null ? memory : defaults.memory);
  }

  public int gpuCount() {
    return gpus == null ? 0 : gpus;
  }

  public double cpuCount() {
    return cpus == null ? 0 : cpus;
  }

  /** Memory in bytes, 0 when unset. */
  public long memoryBytes() {
    return memory == null ? 0 : Quantities.bytes(memory);
  }
}
