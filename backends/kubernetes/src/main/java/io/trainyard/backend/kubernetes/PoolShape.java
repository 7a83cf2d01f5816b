package io.trainyard.backend.kubernetes;

import io.trainyard.spi.InstanceShapes;
import io.trainyard.spi.spec.Quantities;
import java.util.Optional;

/**
 * A node pool with its node shape known: what one node offers, from the configuration or else from
 * the price catalog, and what replicas may use of it after the pool's {@code reserved}.
 */
record PoolShape(NodePool pool, double vcpus, double memoryGiB, String gpuType, int gpus) {

  /** The pool's shape, or empty when it declares none and the catalog knows no such type. */
  static Optional<PoolShape> of(NodePool pool, ClusterSettings cluster, InstanceShapes shapes) {
    if (pool.declaresShape()) {
      return Optional.of(withGpus(pool, pool.cpus(), Quantities.gib(pool.memory()), null, 0));
    }
    return shapes
        .find(cluster.provider(), cluster.catalogService(), cluster.region(), pool.instanceType())
        .map(s -> withGpus(pool, s.vcpus(), s.memoryGiB(), s.gpuType(), s.gpus()));
  }

  // What the pool says of its GPUs wins over the catalog's row (an n1 host has none of its own).
  private static PoolShape withGpus(
      NodePool pool, double vcpus, double memoryGiB, String catalogGpuType, int catalogGpus) {
    var accelerator = pool.accelerator();
    if (accelerator != null) {
      return new PoolShape(pool, vcpus, memoryGiB, accelerator.gpuType(), accelerator.gpus());
    }
    if (pool.gpus() != null) {
      return new PoolShape(pool, vcpus, memoryGiB, pool.gpuType(), pool.gpus());
    }
    return new PoolShape(pool, vcpus, memoryGiB, catalogGpuType, catalogGpus);
  }

  double allocatableCpus() {
    return vcpus - pool.reserved().cpuCount();
  }

  double allocatableMemoryGiB() {
    return memoryGiB - pool.reserved().memoryGiB();
  }

  boolean hasGpus() {
    return gpus > 0;
  }

  /** e.g. {@code a10g (g5.12xlarge: 47.5 vCPUs, 190 GiB, 4x nvidia-a10g)}, for reasons. */
  String describe() {
    return pool.name()
        + " ("
        + pool.instanceType()
        + ": "
        + Wording.text(allocatableCpus())
        + " vCPUs, "
        + Wording.text(allocatableMemoryGiB())
        + " GiB"
        + (hasGpus() ? ", " + gpus + "x " + gpuType : "")
        + ")";
  }
}
