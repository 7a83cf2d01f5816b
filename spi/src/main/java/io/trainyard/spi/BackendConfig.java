package io.trainyard.spi;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.trainyard.spi.spec.Framework;
import java.math.BigDecimal;
import java.util.Map;

/**
 * The fields every backend configuration block has. Blocks are polymorphic by {@code type:}; the
 * gateway registers each {@link BackendFactory#configClass()} under its {@link
 * BackendFactory#kind()}, so the gateway's configuration never lists backend fields.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
public interface BackendConfig {

  /** Instance name, unique in the gateway, used in quotes, audit and object labels. */
  String id();

  /** The region (or data-centre name) jobs run in; what residency constraints match. */
  String region();

  /** Whether the operator attests the backend may process PHI (HIPAA). */
  boolean hipaaEligible();

  /** A negotiated discount, applied last to every price of this backend; 0 when none. */
  BigDecimal discountPct();

  /**
   * Kubeflow Trainer runtimes this backend's cluster declares beyond Trainer's built-in ones, by
   * name, with the framework each runs. The gateway accepts a submitted TrainJob whose {@code
   * spec.runtimeRef.name} is a built-in runtime or one that some configured backend declares here.
   * Empty for backends that run no Kubeflow Trainer (the default).
   */
  default Map<String, Framework> trainerRuntimes() {
    return Map.of();
  }
}
