package io.trainyard.backend.kubernetes;

import io.trainyard.spi.InstanceShapes;
import io.trainyard.spi.spec.Quantities;
import java.util.Optional;

/**
 * A node pool with its node shape known: what one node has, from the configuration or else from the
 * price catalog, and what replicas may use of it (its allocatable size) after the node's reserve
 * ({@link NodeReserve}: the pool's {@code reserved}, or the provider's default).
 */
record PoolShape(
    NodePool pool,
    double vcpus,
    double memoryGiB,
    String gpuType,
    int gpus,
    NodeReserve.Amount reserved) {

  /** The pool's shape, or empty when it declares none and the catalog knows no such type. */
  static Optional<PoolShape> of(NodePool pool, ClusterSettings cluster, InstanceShapes shapes) {
    if (pool.declaresShape()) {
      return Optional.of(
          withGpus(pool, cluster.provider(), pool.cpus(), Quantities.gib(pool.memory()), null, 0));
    }
    return shapes
        .find(cluster.provider(), cluster.catalogService(), cluster.region(), pool.instanceType())
        .map(
            s ->
                withGpus(
                    pool, cluster.provider(), s.vcpus(), s.memoryGiB(), s.gpuType(), s.gpus()));
  }

  // What the pool says of its GPUs wins over the catalog's row (an n1 host has none of its own).
  private static PoolShape withGpus(
      NodePool pool,
      String provider,
      double vcpus,
      double memoryGiB,
      String catalogGpuType,
      int catalogGpus) {
    var reserve = NodeReserve.of(pool, provider, vcpus, memoryGiB);
    var accelerator = pool.accelerator();
    if (accelerator != null) {
      return new PoolShape(
          pool, vcpus, memoryGiB, accelerator.gpuType(), accelerator.gpus(), reserve);
    }
    if (pool.gpus() != null) {
      return new PoolShape(pool, vcpus, memoryGiB, pool.gpuType(), pool.gpus(), reserve);
    }
    return new PoolShape(pool, vcpus, memoryGiB, catalogGpuType, catalogGpus, reserve);
  }

  double allocatableCpus() {
    return Math.max(0, vcpus - reserved.cpus());
  }

  double allocatableMemoryGiB() {
    return Math.max(0, memoryGiB - reserved.memoryGiB());
  }

  boolean hasGpus() {
    return gpus > 0;
  }

  /**
   * e.g. {@code a10g (g5.12xlarge: 48 vCPUs, 192 GiB, 4x nvidia-a10g; allocatable 47.5 vCPUs, 190
   * GiB)}, for reasons.
   */
  String describe() {
    return pool.name() + " (" + pool.instanceType() + ": " + size() + ")";
  }

  /**
   * e.g. {@code pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.22 GiB (EKS AMI
   * kube-reserved for 110 pods + eviction + daemon sets)}, for the quote's notes.
   */
  String allocatableNote() {
    return "pool "
        + pool.name()
        + " ("
        + pool.instanceType()
        + "): "
        + size()
        + " ("
        + reserved.basis()
        + ")";
  }

  private String size() {
    return Wording.text(vcpus)
        + " vCPUs, "
        + Wording.text(memoryGiB)
        + " GiB"
        + (hasGpus() ? ", " + gpus + "x " + gpuType : "")
        + "; allocatable "
        + Wording.text(allocatableCpus())
        + " vCPUs, "
        + Wording.text(allocatableMemoryGiB())
        + " GiB";
  }
}
