package io.trainyard.backend.kubernetes;

import io.trainyard.backend.kubernetes.NodePacking.Replica;
import io.trainyard.spi.InstanceShapes;
import io.trainyard.spi.spec.RoleSpec;
import io.trainyard.spi.spec.SpotPolicy;
import java.util.ArrayList;
import java.util.List;

/**
 * A cluster's pools as one quote sees them: those whose shape is known, those the job's spot policy
 * allows, and why a role fits none of them.
 */
final class PoolCatalog {
  private final ClusterSettings cluster;
  private final SpotPolicy spot;
  private final List<PoolShape> known = new ArrayList<>();
  private final List<String> unknown = new ArrayList<>();
  private final List<PoolShape> allowed;

  PoolCatalog(ClusterSettings cluster, InstanceShapes shapes, SpotPolicy spot) {
    this.cluster = cluster;
    this.spot = spot;
    for (var pool : cluster.nodePools()) {
      PoolShape.of(pool, cluster, shapes)
          .ifPresentOrElse(known::add, () -> unknown.add(pool.name()));
    }
    this.allowed =
        known.stream()
            .filter(
                s ->
                    switch (spot) {
                      case NEVER -> !s.pool().isSpot();
                      case REQUIRED -> s.pool().isSpot();
                      case ALLOWED -> true;
                    })
            .toList();
  }

  List<PoolShape> allowed() {
    return allowed;
  }

  /** Why no allowed pool takes a replica of {@code role}, in words for the quote table. */
  String whyNoPool(RoleSpec role) {
    var replica = Replica.one(role);
    String reason;
    if (known.isEmpty()) {
      reason = "no node pool of " + cluster.backendId() + " has a known shape";
    } else if (allowed.isEmpty()) {
      reason =
          spot == SpotPolicy.REQUIRED
              ? "no node pool of " + cluster.backendId() + " is spot (spot: required)"
              : "every node pool of " + cluster.backendId() + " is spot (spot: never)";
    } else if (replica.gpus() > 0) {
      reason = whyNoGpuPool(role, replica);
    } else {
      reason =
          "a "
              + role.name()
              + " replica ("
              + replica.describe()
              + ") is bigger than any node of "
              + cluster.backendId()
              + ": "
              + describe(allowed);
    }
    return reason + unknownSuffix();
  }

  private String whyNoGpuPool(RoleSpec role, Replica replica) {
    var type = role.resources().gpuType();
    var words = type == null ? "GPUs" : type + " GPUs";
    var typed = allowed.stream().filter(s -> KubernetesPlacements.gpuMatches(role, s)).toList();
    if (typed.isEmpty()) {
      var excluded = known.stream().anyMatch(s -> KubernetesPlacements.gpuMatches(role, s));
      return "no node pool of "
          + cluster.backendId()
          + " has "
          + words
          + (excluded ? " (spot: " + spot.wireName() + " leaves those pools out)" : "")
          + " (pools: "
          + describe(known)
          + ")";
    }
    return "a "
        + role.name()
        + " replica ("
        + replica.describe()
        + ") is bigger than any node with "
        + words
        + ": "
        + describe(typed);
  }

  private String unknownSuffix() {
    if (unknown.isEmpty()) {
      return "";
    }
    return " (no shape known for pool"
        + (unknown.size() > 1 ? "s " : " ")
        + String.join(", ", unknown)
        + " in the "
        + cluster.provider()
        + " catalog for "
        + cluster.region()
        + ": declare cpus and memory)";
  }

  private static String describe(List<PoolShape> shapes) {
    return shapes.isEmpty()
        ? "none"
        : String.join(", ", shapes.stream().map(PoolShape::describe).toList());
  }
}
