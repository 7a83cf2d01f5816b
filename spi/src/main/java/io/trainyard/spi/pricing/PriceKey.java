package io.trainyard.spi.pricing;

import java.util.Objects;

/**
 * One catalog row: an instance type, or (with {@code gpuType} set and no instance type) an
 * accelerator attached per GPU.
 */
public record PriceKey(
    String provider, String service, String region, String instanceType, String gpuType) {
  public PriceKey {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(region, "region");
    if ((instanceType == null) == (gpuType == null)) {
      throw new IllegalArgumentException("a key names an instance type or an accelerator");
    }
  }

  public static PriceKey instance(
      String provider, String service, String region, String instanceType) {
    return new PriceKey(provider, service, region, instanceType, null);
  }

  public boolean accelerator() {
    return gpuType != null;
  }

  @Override
  public String toString() {
    return provider + "/" + service + "/" + region + "/" + (accelerator() ? gpuType : instanceType);
  }
}
