package io.trainyard.kubeflow;

import static io.trainyard.kubeflow.NodeReader.at;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.trainyard.spi.spec.CleanPodPolicy;
import io.trainyard.spi.spec.Cleanup;
import io.trainyard.spi.spec.InputLimits;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.Quantities;
import io.trainyard.spi.spec.Scheduling;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The operator's {@code runPolicy} and the spec's fields for it, both ways:
 *
 * <ul>
 *   <li>{@code cleanPodPolicy} ↔ {@code cleanup.pods}; {@code ttlSecondsAfterFinished} ↔ {@code
 *       cleanup.ttlAfterFinished}; {@code activeDeadlineSeconds} ↔ {@code maxRuntime} (durations
 *       such as {@code 1h30m}, exact to the second); {@code backoffLimit} ↔ {@code maxRestarts};
 *   <li>{@code schedulingPolicy} ↔ {@code kubernetes.scheduling}, field for field;
 *   <li>{@code suspend} and {@code managedBy} only at their defaults ({@code false}, {@code
 *       kubeflow.org/training-operator}), which are left out with a warning: Trainyard decides when
 *       a job starts and which controller runs it.
 * </ul>
 */
final class RunPolicyMapping {
  static final String DEFAULT_MANAGER = "kubeflow.org/training-operator";

  private static final Set<String> FIELDS =
      Set.of(
          "activeDeadlineSeconds",
          "backoffLimit",
          "cleanPodPolicy",
          "managedBy",
          "schedulingPolicy",
          "suspend",
          "ttlSecondsAfterFinished");
  private static final Set<String> SCHEDULING_FIELDS =
      Set.of("minAvailable", "queue", "minResources", "priorityClass", "scheduleTimeoutSeconds");

  /** What a runPolicy sets in the spec; any field may be null. */
  record Values(
      CleanPodPolicy pods,
      String ttlAfterFinished,
      String maxRuntime,
      Integer maxRestarts,
      Scheduling scheduling) {

    Cleanup cleanup() {
      return pods == null && ttlAfterFinished == null ? null : new Cleanup(pods, ttlAfterFinished);
    }
  }

  private RunPolicyMapping() {}

  static Values read(
      JsonNode runPolicy, String path, Map<String, String> jobLabels, NodeReader nodes) {
    return read(runPolicy, path, jobLabels, nodes, DEFAULT_MANAGER);
  }

  /**
   * @param jobLabels the job object's labels: {@code suspend: true} is Kueue's beside its
   *     queue-name label ({@link KubeflowSuspend})
   * @param defaultManager the operator's own {@code managedBy} value ({@code
   *     kubeflow.org/mpi-operator} for the MPI Operator v2)
   */
  static Values read(
      JsonNode runPolicy,
      String path,
      Map<String, String> jobLabels,
      NodeReader nodes,
      String defaultManager) {
    var policy = nodes.object(runPolicy, path);
    if (policy == null) {
      return new Values(null, null, null, null, null);
    }
    nodes.onlyKnown(policy, path, FIELDS, Map.of(), "runPolicy");
    if (!KubeflowSuspend.forKueue(policy.get("suspend"), jobLabels, at(path, "suspend"), nodes)) {
      nodes.defaultOnly(
          policy.get("suspend"),
          at(path, "suspend"),
          BooleanNode.FALSE,
          "Trainyard starts the job itself; leave it out (a cluster's kueueQueue, or a "
              + KubeflowSuspend.KUEUE_QUEUE_LABEL
              + " label, holds the job until Kueue admits it)");
    }
    nodes.defaultOnly(
        policy.get("managedBy"),
        at(path, "managedBy"),
        TextNode.valueOf(defaultManager),
        "Trainyard's Kubernetes backend decides which controller runs the job; leave it out");
    var ttl =
        nodes.integer(
            policy.get("ttlSecondsAfterFinished"), at(path, "ttlSecondsAfterFinished"), 0);
    var deadline =
        nodes.longInteger(
            policy.get("activeDeadlineSeconds"), at(path, "activeDeadlineSeconds"), 1);
    if (ttl != null
        && withinMaxDuration(ttl.longValue(), at(path, "ttlSecondsAfterFinished"), nodes) == null) {
      ttl = null;
    }
    deadline = withinMaxDuration(deadline, at(path, "activeDeadlineSeconds"), nodes);
    return new Values(
        cleanPodPolicy(policy.get("cleanPodPolicy"), at(path, "cleanPodPolicy"), nodes),
        ttl == null ? null : duration(ttl),
        deadline == null ? null : duration(deadline),
        nodes.integer(policy.get("backoffLimit"), at(path, "backoffLimit"), 0),
        scheduling(policy.get("schedulingPolicy"), at(path, "schedulingPolicy"), nodes));
  }

  /** The seconds, or null (refused at {@code path}) when they pass the spec's longest duration. */
  private static Long withinMaxDuration(Long seconds, String path, NodeReader nodes) {
    if (seconds != null && seconds > InputLimits.MAX_DURATION.getSeconds()) {
      nodes
          .findings()
          .refuse(
              path, "must be at most " + InputLimits.MAX_DURATION.getSeconds() + " (3650 days)");
      return null;
    }
    return seconds;
  }

  /** A cleanPodPolicy value, from runPolicy or from the older place at the top of spec. */
  static CleanPodPolicy cleanPodPolicy(JsonNode node, String path, NodeReader nodes) {
    var text = nodes.text(node, path);
    if (text == null) {
      return null;
    }
    return switch (text) {
      case "None" -> CleanPodPolicy.NONE;
      case "Running" -> CleanPodPolicy.RUNNING;
      case "All" -> CleanPodPolicy.ALL;
      default -> {
        nodes.findings().refuse(path, "must be one of None, Running, All");
        yield null;
      }
    };
  }

  /** The runPolicy for a spec, or null when it sets none. */
  static ObjectNode write(JobSpec spec) {
    var policy = JsonNodeFactory.instance.objectNode();
    var cleanup = spec.cleanup();
    if (cleanup != null && cleanup.pods() != null) {
      policy.put("cleanPodPolicy", cleanPodPolicyName(cleanup.pods()));
    }
    if (cleanup != null && cleanup.ttlAfterFinished() != null) {
      var seconds = Quantities.duration(cleanup.ttlAfterFinished()).getSeconds();
      policy.put("ttlSecondsAfterFinished", Math.toIntExact(seconds));
    }
    spec.maxRuntimeDuration().ifPresent(d -> policy.put("activeDeadlineSeconds", d.getSeconds()));
    if (spec.maxRestarts() != null) {
      policy.put("backoffLimit", spec.maxRestarts());
    }
    var scheduling = spec.kubernetes() == null ? null : spec.kubernetes().scheduling();
    if (scheduling != null && !scheduling.isEmpty()) {
      policy.set("schedulingPolicy", schedulingPolicy(scheduling));
    }
    return policy.isEmpty() ? null : policy;
  }

  private static String cleanPodPolicyName(CleanPodPolicy pods) {
    return switch (pods) {
      case NONE -> "None";
      case RUNNING -> "Running";
      case ALL -> "All";
    };
  }

  private static Scheduling scheduling(JsonNode node, String path, NodeReader nodes) {
    var policy = nodes.object(node, path);
    if (policy == null) {
      return null;
    }
    nodes.onlyKnown(policy, path, SCHEDULING_FIELDS, Map.of(), "schedulingPolicy");
    var minResources = new LinkedHashMap<String, String>();
    var resources = nodes.object(policy.get("minResources"), at(path, "minResources"));
    if (resources != null) {
      resources
          .properties()
          .forEach(
              e -> {
                if (KubernetesQuantity.value(e.getValue()).isEmpty()) {
                  nodes
                      .findings()
                      .refuse(
                          at(at(path, "minResources"), e.getKey()),
                          "is not a quantity such as 500m, 8 or 32Gi (at most 64 characters, within 1e±30)");
                } else {
                  minResources.put(e.getKey(), KubernetesQuantity.text(e.getValue()));
                }
              });
    }
    return new Scheduling(
        nodes.integer(policy.get("minAvailable"), at(path, "minAvailable"), 1),
        nodes.text(policy.get("queue"), at(path, "queue")),
        minResources,
        nodes.text(policy.get("priorityClass"), at(path, "priorityClass")),
        nodes.integer(policy.get("scheduleTimeoutSeconds"), at(path, "scheduleTimeoutSeconds"), 1));
  }

  private static ObjectNode schedulingPolicy(Scheduling s) {
    var policy = JsonNodeFactory.instance.objectNode();
    if (s.minAvailable() != null) {
      policy.put("minAvailable", s.minAvailable());
    }
    if (s.queue() != null) {
      policy.put("queue", s.queue());
    }
    if (!s.minResources().isEmpty()) {
      var resources = policy.putObject("minResources");
      s.minResources().forEach(resources::put);
    }
    if (s.priorityClass() != null) {
      policy.put("priorityClass", s.priorityClass());
    }
    if (s.scheduleTimeoutSeconds() != null) {
      policy.put("scheduleTimeoutSeconds", s.scheduleTimeoutSeconds());
    }
    return policy;
  }

  /** Seconds as the spec writes durations: {@code 90} → {@code 1m30s}, {@code 0} → {@code 0s}. */
  static String duration(long seconds) {
    if (seconds == 0) {
      return "0s";
    }
    var text = new StringBuilder();
    long[] units = {86_400, 3_600, 60, 1};
    String[] names = {"d", "h", "m", "s"};
    for (int i = 0; i < units.length; i++) {
      if (seconds >= units[i]) {
        text.append(seconds / units[i]).append(names[i]);
        seconds %= units[i];
      }
    }
    return text.toString();
  }
}
