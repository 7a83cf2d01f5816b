package io.trainyard.backend.azureml;

import io.trainyard.spi.spec.Framework;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.RoleSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a spec's replicas become one Azure ML command job: how many nodes ({@code
 * resources.instanceCount}), which {@code distribution}, and which of our replicas runs on which
 * node. Pure.
 *
 * <ul>
 *   <li>pytorch: one node per replica (master first), {@code PyTorch} with {@code
 *       processCountPerInstance} = {@code processesPerReplica};
 *   <li>tensorflow: one node per replica, {@code TensorFlow} with {@code workerCount} = chief +
 *       workers (Azure ML's worker 0 is the chief) and {@code parameterServerCount} = ps;
 *   <li>mpi: one node per worker, {@code Mpi} with {@code processCountPerInstance} = {@code
 *       processesPerReplica}; the launcher is Azure ML's own {@code mpirun} on the first node;
 *   <li>xgboost: a single replica, no distribution (Azure ML has none for XGBoost).
 * </ul>
 *
 * @param nodes replica names per node, in rank order: node 0 first
 * @param distribution the ARM {@code distribution} object, or null for none
 */
record AzureMlTopology(List<String> nodes, Map<String, Object> distribution) {
  AzureMlTopology {
    nodes = List.copyOf(nodes);
  }

  static AzureMlTopology of(JobSpec spec) {
    var nodes = new ArrayList<String>();
    var roles = spec.roleSpecs();
    var ppn = spec.effectiveProcessesPerReplica();
    Map<String, Object> distribution = new LinkedHashMap<>();
    switch (spec.framework()) {
      case PYTORCH -> {
        roles.forEach(r -> addReplicas(r, nodes));
        distribution.put("distributionType", "PyTorch");
        distribution.put("processCountPerInstance", ppn);
      }
      case TENSORFLOW -> {
        roles.forEach(r -> addReplicas(r, nodes));
        distribution.put("distributionType", "TensorFlow");
        distribution.put("workerCount", count(roles, "chief") + count(roles, "worker"));
        distribution.put("parameterServerCount", count(roles, "ps"));
      }
      case MPI -> {
        roles.stream().filter(r -> r.name().equals("worker")).forEach(r -> addReplicas(r, nodes));
        if (nodes.isEmpty()) {
          nodes.add("launcher-0");
        }
        distribution.put("distributionType", "Mpi");
        distribution.put("processCountPerInstance", ppn);
      }
      case XGBOOST -> {
        roles.forEach(r -> addReplicas(r, nodes));
        distribution = null;
      }
      default -> throw new IllegalStateException("unknown framework " + spec.framework());
    }
    return new AzureMlTopology(nodes, distribution);
  }

  /** Why this spec's roles cannot be one Azure ML command job; empty when they can. */
  static List<String> reasonsAgainst(JobSpec spec) {
    var reasons = new ArrayList<String>();
    if (spec.framework() == Framework.PADDLE || spec.framework() == Framework.JAX) {
      // Its distributions (PyTorch, TensorFlow, Mpi) set none of the variables the training
      // operator's PaddleJob and JAXJob give their pods.
      reasons.add(
          "framework "
              + spec.framework()
              + ": Azure ML has no distribution that sets up a "
              + spec.framework()
              + " job's rendezvous (the training operator's "
              + (spec.framework() == Framework.PADDLE
                  ? "PADDLE_* variables"
                  : "COORDINATOR_* variables")
              + "); run it on a Kubernetes or local backend");
    }
    if (spec.framework() == Framework.XGBOOST && spec.totalReplicas() > 1) {
      reasons.add(
          "Azure ML has no distribution for XGBoost: run it as one replica (master: 1) or on a"
              + " Kubernetes backend");
    }
    if (spec.framework() == Framework.TENSORFLOW && count(spec.roleSpecs(), "evaluator") > 0) {
      reasons.add(
          "Azure ML's TensorFlow distribution has workers and parameter servers only, no"
              + " evaluator role");
    }
    return reasons;
  }

  int instanceCount() {
    return nodes.size();
  }

  /** The replica that runs on node {@code index}, or {@code node-<index>} past the end. */
  String replicaOfNode(int index) {
    return index >= 0 && index < nodes.size() ? nodes.get(index) : "node-" + index;
  }

  private static void addReplicas(RoleSpec role, List<String> nodes) {
    for (int i = 0; i < role.replicas(); i++) {
      nodes.add(role.name() + "-" + i);
    }
  }

  private static int count(List<RoleSpec> roles, String name) {
    return roles.stream().filter(r -> r.name().equals(name)).mapToInt(RoleSpec::replicas).sum();
  }
}
