package io.trainyard.backend.kubernetes;

import io.trainyard.spi.spec.Quantities;
import io.trainyard.spi.spec.RoleSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/**
 * Packs replicas onto the nodes of one pool, first fit by decreasing size over GPUs, CPUs and
 * memory: the number of nodes the scheduler would need at least, near enough for a price (first fit
 * decreasing is within 11/9 of the optimum; the scheduler spreads no better). Pure.
 */
final class NodePacking {
  // Quantities read from decimal text: compare with a little slack, never refuse 0.1 + 0.2.
  private static final double SLACK = 1e-9;

  /** What one replica requests. */
  record Replica(String role, double cpus, double memoryGiB, int gpus) {
    /** Every replica of {@code role}. */
    static List<Replica> of(RoleSpec role) {
      return Collections.nCopies(role.replicas(), one(role));
    }

    /** What any one replica of {@code role} requests. */
    static Replica one(RoleSpec role) {
      var r = role.resources();
      var memory = r.memory() == null ? 0 : Quantities.gib(r.memory());
      return new Replica(role.name(), r.cpuCount(), memory, r.gpuCount());
    }

    boolean fitsOn(PoolShape shape) {
      return gpus <= shape.gpus()
          && cpus <= shape.allocatableCpus() + SLACK
          && memoryGiB <= shape.allocatableMemoryGiB() + SLACK;
    }

    String describe() {
      var parts = new ArrayList<String>();
      if (gpus > 0) {
        parts.add(gpus + (gpus == 1 ? " GPU" : " GPUs"));
      }
      parts.add(Wording.text(cpus) + " vCPUs");
      parts.add(Wording.text(memoryGiB) + " GiB");
      return String.join(", ", parts);
    }
  }

  private NodePacking() {}

  /**
   * Nodes of {@code shape} that hold every replica; each replica must fit on one node ({@link
   * Replica#fitsOn}).
   */
  static int nodes(List<Replica> replicas, PoolShape shape) {
    var sorted = new ArrayList<>(replicas);
    sorted.sort(
        Comparator.comparingInt(Replica::gpus)
            .thenComparingDouble(Replica::cpus)
            .thenComparingDouble(Replica::memoryGiB)
            .reversed());
    var free = new ArrayList<double[]>(); // per open node: {gpus, cpus, memory} left
    for (var replica : sorted) {
      if (!replica.fitsOn(shape)) {
        throw new IllegalArgumentException(replica.role() + " does not fit on " + shape.describe());
      }
      var node = free.stream().filter(f -> fits(replica, f)).findFirst().orElse(null);
      if (node == null) {
        node = new double[] {shape.gpus(), shape.allocatableCpus(), shape.allocatableMemoryGiB()};
        free.add(node);
      }
      node[0] -= replica.gpus();
      node[1] -= replica.cpus();
      node[2] -= replica.memoryGiB();
    }
    return free.size();
  }

  private static boolean fits(Replica r, double[] free) {
    return r.gpus() <= free[0] + SLACK
        && r.cpus() <= free[1] + SLACK
        && r.memoryGiB() <= free[2] + SLACK;
  }
}
