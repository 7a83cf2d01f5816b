package io.trainyard.backend.azureml;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trainyard.spi.InstanceShape;
import java.util.Objects;

/**
 * One Azure VM size the backend may use. Written as a bare name ({@code Standard_NC24ads_A100_v4}),
 * whose shape comes from this module's size table ({@link AzureVmSizes}) or the price catalog, or
 * as an object that declares the shape, for a size neither knows: {@code {size:
 * Standard_NC48ads_A100_v4, vcpus: 48, memoryGiB: 440, gpuType: nvidia-a100-80gb, gpus: 2}}.
 *
 * @param vcpus null to take the shape from the size table or the catalog
 * @param gpuType null for a CPU-only size
 */
public record AzureMlVmSize(
    String size, Double vcpus, Double memoryGiB, String gpuType, Integer gpus) {

  public AzureMlVmSize {
    Objects.requireNonNull(size, "vmSizes[].size");
    if (!size.startsWith("Standard_")) {
      throw new IllegalArgumentException(
          "vmSizes: " + size + " is not an Azure VM size (they start with Standard_)");
    }
    if ((vcpus == null) != (memoryGiB == null)) {
      throw new IllegalArgumentException(
          "vmSizes: " + size + " declares a shape with both vcpus and memoryGiB, or neither");
    }
  }

  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public static AzureMlVmSize named(String size) {
    return new AzureMlVmSize(size, null, null, null, null);
  }

  @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
  static AzureMlVmSize declared(
      @JsonProperty("size") String size,
      @JsonProperty("vcpus") Double vcpus,
      @JsonProperty("memoryGiB") Double memoryGiB,
      @JsonProperty("gpuType") String gpuType,
      @JsonProperty("gpus") Integer gpus) {
    return new AzureMlVmSize(size, vcpus, memoryGiB, gpuType, gpus);
  }

  /** The shape this entry declares, if it declares one. */
  InstanceShape declaredShape() {
    if (vcpus == null) {
      return null;
    }
    var gpuCount = gpus == null ? 0 : gpus;
    return new InstanceShape(size, vcpus, memoryGiB, gpuCount > 0 ? gpuType : null, gpuCount, 0);
  }
}
