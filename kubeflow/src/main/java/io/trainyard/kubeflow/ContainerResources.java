package io.trainyard.kubeflow;

import static io.trainyard.kubeflow.NodeReader.at;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.trainyard.spi.spec.Quantities;
import io.trainyard.spi.spec.Resources;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * A container's {@code resources} block and the spec's per-replica {@link Resources}.
 *
 * <p>The spec's value is what the replica is guaranteed: the request, which Kubernetes takes from
 * {@code limits} when {@code requests} leaves it out. Written back, every value goes to {@code
 * limits} only (the training operator's own examples do so; Kubernetes then requests the same). A
 * block in that form, or with {@code requests} equal to its {@code limits}, converts exactly. Any
 * other block (requests without limits, requests below limits, extended resources Trainyard does
 * not count such as {@code ephemeral-storage} or network devices like {@code vpc.amazonaws.com/efa}
 * and {@code intel.com/sriov_netdevice}, DRA {@code claims}) still sets the spec's values from its
 * requests, and is also kept whole in the pod template's container entry so it renders back
 * unchanged (the job then runs on Kubernetes only).
 */
final class ContainerResources {
  static final String GPU = "nvidia.com/gpu";

  private static final Set<String> COUNTED = Set.of("cpu", "memory", GPU);

  /**
   * @param resources the spec's values; null when the block sets none of them
   * @param verbatim the document's block when {@code resources} cannot express it, else null
   */
  record Read(Resources resources, ObjectNode verbatim) {}

  private ContainerResources() {}

  static Read read(ObjectNode block, String path, NodeReader nodes) {
    nodes.onlyKnown(
        block, path, Set.of("limits", "requests", "claims"), Map.of(), "a container's resources");
    var limits = quantities(block.get("limits"), at(path, "limits"), nodes);
    var requests = quantities(block.get("requests"), at(path, "requests"), nodes);
    var exact = countedOnly(limits, requests, path, nodes) && !block.has("claims");
    for (var e : requests.entrySet()) {
      var limit = limits.get(e.getKey());
      exact &= limit != null && equalQuantities(limit, e.getValue());
    }
    var gpus = gpus(limits.get(GPU), requests.get(GPU), path, nodes);
    var cpu = requests.getOrDefault("cpu", limits.get("cpu"));
    var memory = memory(requests, limits, path, nodes);
    var cpus = cpu == null ? null : KubernetesQuantity.value(cpu).orElseThrow().doubleValue();
    var resources =
        gpus == null && cpus == null && memory == null
            ? null
            : new Resources(gpus, null, cpus, memory);
    return new Read(resources, exact ? null : block.deepCopy());
  }

  /** The block for a replica's spec resources, or null when there are none. */
  static ObjectNode write(Resources r) {
    if (r == null || (r.gpus() == null && r.cpus() == null && r.memory() == null)) {
      return null;
    }
    var limits = JsonNodeFactory.instance.objectNode();
    if (r.cpus() != null) {
      limits.set("cpu", KubernetesQuantity.cpu(r.cpus()));
    }
    if (r.memory() != null) {
      limits.set("memory", TextNode.valueOf(r.memory()));
    }
    if (r.gpus() != null) {
      limits.set(GPU, IntNode.valueOf(r.gpus()));
    }
    var block = JsonNodeFactory.instance.objectNode();
    block.set("limits", limits);
    return block;
  }

  /** Refuses resources Trainyard cannot account for; false when some are only carried. */
  private static boolean countedOnly(
      Map<String, JsonNode> limits, Map<String, JsonNode> requests, String path, NodeReader nodes) {
    var names = new LinkedHashSet<>(limits.keySet());
    names.addAll(requests.keySet());
    var counted = true;
    for (var name : names) {
      if (COUNTED.contains(name)) {
        continue;
      }
      if (carriedUncounted(name)) {
        counted = false;
      } else {
        var where = limits.containsKey(name) ? "limits" : "requests";
        nodes
            .findings()
            .refuse(
                at(at(path, where), name),
                "Trainyard prices and places replicas by cpu, memory and "
                    + GPU
                    + "; it cannot account for "
                    + name);
      }
    }
    return counted;
  }

  // Resources only Kubernetes can give a pod and that say nothing about its price or shape:
  // ephemeral storage, huge pages, and extended resources named with a domain (network devices
  // from device plugins: vpc.amazonaws.com/efa, rdma/*, intel.com/sriov_*, nvidia.com/hostdev,
  // ...), except accelerators, which change what a replica costs and where it can run.
  private static boolean carriedUncounted(String name) {
    return name.equals("ephemeral-storage")
        || name.startsWith("hugepages-")
        || (name.contains("/") && !isAccelerator(name));
  }

  /**
   * Extended resources that are compute devices: GPUs of every vendor, MIG slices and shared GPUs,
   * TPUs, Neuron, Gaudi, FPGAs. Trainyard could not price or place a replica using them.
   */
  static boolean isAccelerator(String name) {
    var domain = name.substring(0, name.indexOf('/')).toLowerCase(java.util.Locale.ROOT);
    var device = name.substring(name.indexOf('/') + 1).toLowerCase(java.util.Locale.ROOT);
    return domain.equals("nvidia.com") && !device.startsWith("hostdev")
        || domain.equals("habana.ai")
        || domain.endsWith("gpu.intel.com")
        || device.contains("gpu")
        || device.contains("tpu")
        || device.contains("neuron")
        || device.contains("fpga")
        || device.contains("gaudi");
  }

  private static Map<String, JsonNode> quantities(JsonNode node, String path, NodeReader nodes) {
    var result = new LinkedHashMap<String, JsonNode>();
    var object = nodes.object(node, path);
    if (object == null) {
      return result;
    }
    object
        .properties()
        .forEach(
            e -> {
              var value = KubernetesQuantity.value(e.getValue());
              if (value.isEmpty() || value.get().signum() < 0) {
                nodes
                    .findings()
                    .refuse(
                        at(path, e.getKey()),
                        "is not a quantity such as 500m, 8 or 32Gi (at most 64 characters, within 1e±30)");
              } else {
                result.put(e.getKey(), e.getValue());
              }
            });
    return result;
  }

  private static boolean equalQuantities(JsonNode a, JsonNode b) {
    return KubernetesQuantity.value(a)
            .orElseThrow()
            .compareTo(KubernetesQuantity.value(b).orElseThrow())
        == 0;
  }

  private static Integer gpus(JsonNode limit, JsonNode request, String path, NodeReader nodes) {
    if (limit == null) {
      if (request != null) {
        nodes
            .findings()
            .refuse(
                at(at(path, "requests"), GPU),
                "needs the same value in limits: Kubernetes cannot request GPUs without a limit");
      }
      return null;
    }
    BigDecimal count = KubernetesQuantity.value(limit).orElseThrow();
    if (count.stripTrailingZeros().scale() > 0
        || count.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) > 0) {
      nodes.findings().refuse(at(at(path, "limits"), GPU), "must be a whole number of GPUs");
      return null;
    }
    if (request != null && !equalQuantities(limit, request)) {
      nodes
          .findings()
          .refuse(at(at(path, "requests"), GPU), "must equal limits: GPUs cannot be overcommitted");
    }
    return count.stripTrailingZeros().intValueExact();
  }

  private static String memory(
      Map<String, JsonNode> requests, Map<String, JsonNode> limits, String path, NodeReader nodes) {
    var from = requests.containsKey("memory") ? "requests" : "limits";
    var node = requests.getOrDefault("memory", limits.get("memory"));
    if (node == null) {
      return null;
    }
    var text = KubernetesQuantity.text(node);
    try {
      Quantities.bytes(text);
      return text;
    } catch (IllegalArgumentException e) {
      nodes.findings().refuse(at(at(path, from), "memory"), e.getMessage());
      return null;
    }
  }
}
