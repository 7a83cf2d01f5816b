package io.trainyard.backend.vertex;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One machine type the backend may use, with the accelerators it carries. Written as a bare name
 * ({@code n1-standard-4}), whose shape comes from the price catalog, or as an object: {@code
 * {machineType: n1-standard-8, gpuType: nvidia-t4, gpus: 1}} attaches T4s to an N1 machine whose
 * vCPUs and memory come from the catalog; {@code {machineType: a3-highgpu-8g, vcpus: 208,
 * memoryGiB: 1872, gpuType: nvidia-h100-80gb, gpus: 8}} declares everything. {@code
 * acceleratorType} is Vertex's own name ({@code NVIDIA_TESLA_T4}); it follows from {@code gpuType}
 * for the GPUs Vertex offers.
 */
public record VertexMachineType(
    String machineType,
    Double vcpus,
    Double memoryGiB,
    String gpuType,
    Integer gpus,
    String acceleratorType) {

  /** Trainyard's GPU names (as in the price catalog) to Vertex's {@code AcceleratorType}. */
  static final Map<String, String> ACCELERATORS =
      Map.ofEntries(
          Map.entry("nvidia-k80", "NVIDIA_TESLA_K80"),
          Map.entry("nvidia-p100", "NVIDIA_TESLA_P100"),
          Map.entry("nvidia-p4", "NVIDIA_TESLA_P4"),
          Map.entry("nvidia-v100-16gb", "NVIDIA_TESLA_V100"),
          Map.entry("nvidia-t4", "NVIDIA_TESLA_T4"),
          Map.entry("nvidia-a100-40gb", "NVIDIA_TESLA_A100"),
          Map.entry("nvidia-a100-80gb", "NVIDIA_A100_80GB"),
          Map.entry("nvidia-l4", "NVIDIA_L4"),
          Map.entry("nvidia-h100-80gb", "NVIDIA_H100_80GB"),
          Map.entry("nvidia-h100-mega-80gb", "NVIDIA_H100_MEGA_80GB"),
          Map.entry("nvidia-h200-141gb", "NVIDIA_H200_141GB"),
          Map.entry("nvidia-b200", "NVIDIA_B200"));

  public VertexMachineType {
    Objects.requireNonNull(machineType, "machineTypes[].machineType");
    if ((vcpus == null) != (memoryGiB == null)) {
      throw new IllegalArgumentException(
          "machineTypes: " + machineType + " declares both vcpus and memoryGiB, or neither");
    }
    var count = gpus == null ? 0 : gpus;
    if (count > 0 && gpuType == null) {
      throw new IllegalArgumentException(
          "machineTypes: " + machineType + " has gpus but no gpuType");
    }
    if (gpuType != null && acceleratorType == null) {
      acceleratorType = ACCELERATORS.get(gpuType.toLowerCase(Locale.ROOT));
      if (acceleratorType == null) {
        throw new IllegalArgumentException(
            "machineTypes: "
                + machineType
                + ": no Vertex accelerator is known for gpuType "
                + gpuType
                + "; set acceleratorType (e.g. NVIDIA_TESLA_T4)");
      }
    }
  }

  /** A machine whose shape the catalog knows. */
  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public static VertexMachineType named(String machineType) {
    return new VertexMachineType(machineType, null, null, null, null, null);
  }

  @JsonCreator(mode = JsonCreator.Mode.PROPERTIES)
  static VertexMachineType declared(
      @JsonProperty("machineType") String machineType,
      @JsonProperty("vcpus") Double vcpus,
      @JsonProperty("memoryGiB") Double memoryGiB,
      @JsonProperty("gpuType") String gpuType,
      @JsonProperty("gpus") Integer gpus,
      @JsonProperty("acceleratorType") String acceleratorType) {
    return new VertexMachineType(machineType, vcpus, memoryGiB, gpuType, gpus, acceleratorType);
  }

  /** Whether this entry names its accelerators itself (else the catalog's built-in ones count). */
  boolean declaresGpus() {
    return gpuType != null;
  }

  int gpuCount() {
    return gpus == null ? 0 : gpus;
  }

  /** Vertex's accelerator name for a catalog GPU name, if Vertex offers that GPU. */
  static Optional<String> acceleratorOf(String gpuType) {
    return gpuType == null
        ? Optional.empty()
        : Optional.ofNullable(ACCELERATORS.get(gpuType.toLowerCase(Locale.ROOT)));
  }
}
