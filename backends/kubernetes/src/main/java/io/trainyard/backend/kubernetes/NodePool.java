package io.trainyard.backend.kubernetes;

import io.trainyard.spi.spec.Quantities;
import java.math.BigDecimal;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One node pool of a cluster, as configured:
 *
 * <pre>{@code
 * - {name: dgx, instanceType: dgx-a100, cpus: 128, memory: 1Ti, gpuType: nvidia-a100-40gb, gpus: 8,
 *    usdPerNodeHour: 12.0, maxNodes: 4}
 * - {name: cpu, instanceType: m5.2xlarge, maxNodes: 20, reserved: {cpus: 0.5, memory: 2Gi}}
 * - {name: a10g, instanceType: g5.12xlarge, maxNodes: 8, spot: true, labels: {pool: a10g},
 *    taints: [{key: nvidia.com/gpu, effect: NoSchedule}]}
 * - {name: t4, instanceType: n1-standard-8, accelerator: {gpuType: nvidia-t4, gpus: 1}, maxNodes: 10}
 * }</pre>
 *
 * A pool without {@code cpus}/{@code memory} takes its shape from the price catalog (the backend's
 * {@code provider}: {@code aws} → EC2 rows, {@code gcp} → GCE rows, in the backend's region).
 *
 * @param accelerator GPUs attached to a host type that has none of its own (GCE n1 + T4)
 * @param usdPerNodeHour the operator's price of one node (on-prem); null to price from the catalog
 * @param maxNodes the most nodes the pool can have; a job needing more is not placed on it
 * @param labels the pool's node labels: rendered as the pods' node selector
 * @param taints the pool's node taints: rendered as the pods' tolerations
 * @param reserved what each node keeps from pods (kubelet, OS, eviction threshold and daemon sets
 *     together); null for the provider's default ({@link NodeReserve}). Replicas are packed into
 *     the rest, the node's allocatable size.
 * @param maxPods pods per node, for the EKS formula of the default reserve (memory grows with it);
 *     null for the instance type's ENI limit on {@code aws} ({@link EniMaxPods}), else {@value
 *     NodeReserve#DEFAULT_MAX_PODS}
 * @param daemonSets what the cluster's daemon sets request on each node, added to the default
 *     reserve (not to an explicit {@code reserved}); null for {@link NodeReserve}'s allowance
 */
public record NodePool(
    String name,
    String instanceType,
    Double cpus,
    String memory,
    String gpuType,
    Integer gpus,
    Accelerator accelerator,
    BigDecimal usdPerNodeHour,
    Integer maxNodes,
    Boolean spot,
    Map<String, String> labels,
    List<Taint> taints,
    Reserved reserved,
    Integer maxPods,
    Reserved daemonSets) {

  public NodePool {
    require(name, "name");
    require(instanceType, "instanceType");
    spot = Boolean.TRUE.equals(spot);
    labels = labels == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(labels));
    taints = taints == null ? List.of() : List.copyOf(taints);
    if (maxPods != null && maxPods < 1) {
      throw new IllegalArgumentException("nodePools." + name + ".maxPods must be at least 1");
    }
    if (maxNodes == null || maxNodes < 1) {
      throw new IllegalArgumentException("nodePools." + name + ".maxNodes must be at least 1");
    }
    if ((cpus == null) != (memory == null)) {
      throw new IllegalArgumentException(
          "nodePools." + name + ": cpus and memory go together (or leave both to the catalog)");
    }
    if (cpus != null && cpus <= 0) {
      throw new IllegalArgumentException("nodePools." + name + ".cpus must be more than 0");
    }
    if (memory != null) {
      quantity(name, "memory", memory);
    }
    if (gpus != null && gpus < 0) {
      throw new IllegalArgumentException("nodePools." + name + ".gpus must be 0 or more");
    }
    if (accelerator != null && (gpus != null || gpuType != null)) {
      throw new IllegalArgumentException(
          "nodePools." + name + ": gpus/gpuType and accelerator are two ways to say one thing");
    }
    if (usdPerNodeHour != null && usdPerNodeHour.signum() < 0) {
      throw new IllegalArgumentException("nodePools." + name + ".usdPerNodeHour must be 0 or more");
    }
  }

  /** Pods per node as configured, else the kubelet's default (see {@link NodeReserve#maxPods}). */
  public int effectiveMaxPods() {
    return maxPods == null ? NodeReserve.DEFAULT_MAX_PODS : maxPods;
  }

  /** Whether the pool's nodes are spot / preemptible capacity. */
  public boolean isSpot() {
    return spot;
  }

  /** Whether the operator prices the pool ({@code usdPerNodeHour}) rather than the catalog. */
  public boolean operatorPriced() {
    return usdPerNodeHour != null;
  }

  /** Whether the configuration declares the shape, so no catalog lookup is needed. */
  public boolean declaresShape() {
    return cpus != null;
  }

  /**
   * GPUs attached to a host that has none of its own.
   *
   * @param gpuType e.g. {@code nvidia-t4}
   */
  public record Accelerator(String gpuType, Integer gpus) {
    public Accelerator {
      require(gpuType, "accelerator.gpuType");
      if (gpus == null || gpus < 1) {
        throw new IllegalArgumentException("accelerator.gpus must be at least 1");
      }
    }
  }

  /**
   * A node taint; rendered as a toleration ({@code operator: Exists} without a value).
   *
   * @param effect {@code NoSchedule}, {@code PreferNoSchedule} or {@code NoExecute}
   */
  public record Taint(String key, String value, String effect) {
    public Taint {
      require(key, "taints[].key");
    }

    /** The toleration that lets a pod onto a node with this taint. */
    public Map<String, Object> toleration() {
      var t = new LinkedHashMap<String, Object>();
      t.put("key", key);
      t.put("operator", value == null ? "Exists" : "Equal");
      if (value != null) {
        t.put("value", value);
      }
      if (effect != null) {
        t.put("effect", effect);
      }
      return t;
    }
  }

  /** CPU and memory each node keeps from pods (kubelet, OS, daemon sets). */
  public record Reserved(Double cpus, String memory) {
    public static final Reserved NONE = new Reserved(null, null);

    public Reserved {
      if (cpus != null && cpus < 0) {
        throw new IllegalArgumentException("reserved.cpus must be 0 or more");
      }
      if (memory != null) {
        quantity("reserved", "memory", memory);
      }
    }

    public double cpuCount() {
      return cpus == null ? 0 : cpus;
    }

    public double memoryGiB() {
      return memory == null ? 0 : Quantities.gib(memory);
    }
  }

  private static void quantity(String pool, String field, String value) {
    try {
      Quantities.bytes(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("nodePools." + pool + "." + field + ": " + e.getMessage());
    }
  }

  private static void require(String value, String field) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("nodePools[]." + field + " is required");
    }
  }
}
