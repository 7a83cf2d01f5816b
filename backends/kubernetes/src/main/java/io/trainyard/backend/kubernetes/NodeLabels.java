package io.trainyard.backend.kubernetes;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The labels a pool's nodes are known to carry: the pool's configured {@code labels}, plus on a
 * cloud provider's cluster the well-known labels the platform puts on every node. A configured
 * label wins over a derived one. Nodes carry more labels than these (zones, host names, the
 * operator's own), so a label not listed here says nothing either way. Pure.
 *
 * <p>Sources:
 *
 * <ul>
 *   <li>{@code kubernetes.io/os}, {@code node.kubernetes.io/instance-type}, {@code
 *       topology.kubernetes.io/region}: set by the kubelet and the cloud provider —
 *       https://kubernetes.io/docs/reference/labels-annotations-taints/
 *   <li>{@code eks.amazonaws.com/capacityType} ({@code ON_DEMAND} or {@code SPOT}) on EKS managed
 *       node groups — https://docs.aws.amazon.com/eks/latest/userguide/managed-node-groups.html
 *   <li>{@code cloud.google.com/gke-spot: "true"} on GKE Spot VM nodes —
 *       https://cloud.google.com/kubernetes-engine/docs/concepts/spot-vms
 * </ul>
 *
 * On-prem ({@code provider: onprem}) nothing is derived: its instance types are the operator's own
 * names, not node labels.
 */
final class NodeLabels {
  static final String OS = "kubernetes.io/os";
  static final String INSTANCE_TYPE = "node.kubernetes.io/instance-type";
  static final String REGION = "topology.kubernetes.io/region";
  static final String EKS_CAPACITY_TYPE = "eks.amazonaws.com/capacityType";
  static final String GKE_SPOT = "cloud.google.com/gke-spot";

  private NodeLabels() {}

  static Map<String, String> of(NodePool pool, ClusterSettings cluster) {
    var labels = new LinkedHashMap<String, String>();
    switch (cluster.provider()) {
      case "aws" -> {
        cloud(labels, pool, cluster);
        labels.put(EKS_CAPACITY_TYPE, pool.isSpot() ? "SPOT" : "ON_DEMAND");
      }
      case "gcp" -> {
        cloud(labels, pool, cluster);
        if (pool.isSpot()) {
          labels.put(GKE_SPOT, "true");
        }
      }
      default -> {
        // on-prem: only what the operator configured
      }
    }
    labels.putAll(pool.labels());
    return labels;
  }

  private static void cloud(Map<String, String> labels, NodePool pool, ClusterSettings cluster) {
    labels.put(OS, "linux");
    labels.put(INSTANCE_TYPE, pool.instanceType());
    labels.put(REGION, cluster.region());
  }
}
