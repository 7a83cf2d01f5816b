package io.trainyard.backend.sagemaker;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.trainyard.spi.InstanceShape;
import java.util.Objects;

/**
 * One {@code ml.*} type the backend may use. Written as a bare name ({@code ml.g5.xlarge}), whose
 * shape comes from the price catalog, or as an object that declares the shape, for a type or region
 * the catalog lacks: {@code {type: ml.g5.2xlarge, vcpus: 8, memoryGiB: 32, gpuType: nvidia-a10g,
 * gpus: 1}}.
 *
 * @param vcpus null to take the shape from the catalog
 * @param gpuType null for a CPU-only type
 */
public record SageMakerInstanceType(
    String type, Double vcpus, Double memoryGiB, String gpuType, Integer gpus) {

  public SageMakerInstanceType {
    Objects.requireNonNull(type, "instanceTypes[].type");
    if (!type.startsWith("ml.")) {
      throw new IllegalArgumentException(
          "instanceTypes: " + type + " is not a SageMaker type (they start with ml.)");
    }
    if ((vcpus == null) != (memoryGiB == null)) {
      throw new IllegalArgumentException(
          "instanceTypes: " + type + " declares a shape with both vcpus and memoryGiB, or neither");
    }
  }

  /** A type whose shape the catalog knows. */
  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public static SageMakerInstanceType named(String type) {
    return new SageMakerInstanceType(type, null, null, null, null);
  }

  @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
  static SageMakerInstanceType declared(
      @JsonProperty("type") String type,
      @JsonProperty("vcpus") Double vcpus,
      @JsonProperty("memoryGiB") Double memoryGiB,
      @JsonProperty("gpuType") String gpuType,
      @JsonProperty("gpus") Integer gpus) {
    return new SageMakerInstanceType(type, vcpus, memoryGiB, gpuType, gpus);
  }

  /** The shape this entry declares, if it declares one. */
  InstanceShape declaredShape() {
    if (vcpus == null) {
      return null;
    }
    var gpuCount = gpus == null ? 0 : gpus;
    return new InstanceShape(type, vcpus, memoryGiB, gpuCount > 0 ? gpuType : null, gpuCount, 0);
  }
}
