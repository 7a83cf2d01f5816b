package io.trainyard.spi;

import java.util.Optional;

/**
 * Looks up what an instance type offers. Backends know shapes, not prices; the gateway backs this
 * with the price catalog. Thread-safe.
 */
public interface InstanceShapes {

  /**
   * @param provider e.g. {@code aws}, {@code gcp}
   * @param service e.g. {@code ec2}, {@code sagemaker}, {@code gce}, {@code vertex}
   * @param region e.g. {@code us-east-1}
   * @param instanceType e.g. {@code g5.12xlarge}
   */
  Optional<InstanceShape> find(String provider, String service, String region, String instanceType);

  /** A lookup that knows no shapes, for backends whose configuration declares them. */
  InstanceShapes NONE = (provider, service, region, instanceType) -> Optional.empty();
}
