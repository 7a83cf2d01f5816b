package io.trainyard.kubeflow;

import static io.trainyard.kubeflow.NodeReader.absent;
import static io.trainyard.kubeflow.NodeReader.at;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.trainyard.spi.spec.Elastic;
import io.trainyard.spi.spec.JobSpec;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fields one kind has at the top of its spec besides replica specs and runPolicy: PyTorch's
 * {@code nprocPerNode} (→ {@code processesPerReplica}) and {@code elasticPolicy} (→ {@code
 * elastic}), MPI's {@code slotsPerWorker} (→ {@code processesPerReplica}) and {@code
 * mainContainer}, TensorFlow's {@code successPolicy} and {@code enableDynamicWorker}, Paddle's
 * {@code elasticPolicy} (refused).
 */
final class FrameworkFields {
  private static final Map<String, String> ELASTIC_REFUSED =
      Map.of(
          "standalone",
          "starts a rendezvous on each replica's own host, which is no shared endpoint;"
              + " use rdzvBackend: c10d, or rdzvHost for your own store",
          "nProcPerNode",
          "is deprecated; use spec.nprocPerNode");

  /** What the kind's own fields set in the spec; either may be null. */
  record Values(Integer processesPerReplica, Elastic elastic) {}

  private FrameworkFields() {}

  /** The kind's own spec fields (the ones {@link #read} reads). */
  static Set<String> names(KubeflowKind kind) {
    return switch (kind) {
      case PYTORCH_JOB -> Set.of("nprocPerNode", "elasticPolicy");
      case MPI_JOB -> Set.of("slotsPerWorker", "mainContainer");
      case TF_JOB -> Set.of("successPolicy", "enableDynamicWorker");
      case XGBOOST_JOB, JAX_JOB -> Set.of();
      case PADDLE_JOB -> Set.of("elasticPolicy");
    };
  }

  /**
   * @param mainNames the names of the replicas' framework containers (an MPIJob's may be any)
   */
  static Values read(KubeflowKind kind, ObjectNode spec, Set<String> mainNames, NodeReader nodes) {
    return switch (kind) {
      case PYTORCH_JOB ->
          new Values(
              nprocPerNode(spec.get("nprocPerNode"), "spec.nprocPerNode", nodes),
              elastic(spec.get("elasticPolicy"), "spec.elasticPolicy", nodes));
      case MPI_JOB -> {
        // The operator's launcher runs `kubectl exec --container <mainContainer>` into the
        // workers, or without --container (their first container) when it is unset. Naming the
        // first container of every replica is therefore the same as leaving it out.
        var main = mainNames.size() == 1 ? mainNames.iterator().next() : kind.containerName();
        nodes.defaultOnly(
            spec.get("mainContainer"),
            "spec.mainContainer",
            TextNode.valueOf(main),
            "Trainyard runs the job in the first container of each replica"
                + (mainNames.size() == 1 ? " ('" + main + "')" : "")
                + "; name that one or leave it out");
        yield new Values(nodes.integer(spec.get("slotsPerWorker"), "spec.slotsPerWorker", 1), null);
      }
      case TF_JOB -> {
        nodes.defaultOnly(
            spec.get("successPolicy"),
            "spec.successPolicy",
            TextNode.valueOf(""),
            "Trainyard ends a TensorFlow job when its chief (or worker 0) ends; only the"
                + " default policy is supported");
        nodes.defaultOnly(
            spec.get("enableDynamicWorker"),
            "spec.enableDynamicWorker",
            BooleanNode.FALSE,
            "Trainyard prices a fixed number of workers; dynamic workers are not supported");
        yield new Values(null, null);
      }
      case XGBOOST_JOB, JAX_JOB -> new Values(null, null);
      case PADDLE_JOB -> {
        // PaddleElasticPolicy (min/maxReplicas, maxRestarts, HPA metrics) resizes the job under
        // an autoscaler; Trainyard prices and places a fixed number of replicas.
        nodes.defaultOnly(
            spec.get("elasticPolicy"),
            "spec.elasticPolicy",
            NullNode.getInstance(),
            "Trainyard runs a fixed number of Paddle replicas; elastic Paddle jobs are not"
                + " supported");
        yield new Values(null, null);
      }
    };
  }

  /** Writes the kind's own fields for {@code spec} into {@code target}. */
  static void write(KubeflowKind kind, JobSpec spec, ObjectNode target) {
    if (kind == KubeflowKind.PYTORCH_JOB && spec.processesPerReplica() != null) {
      target.put("nprocPerNode", spec.processesPerReplica().toString());
    }
    if (kind == KubeflowKind.MPI_JOB && spec.processesPerReplica() != null) {
      target.put("slotsPerWorker", spec.processesPerReplica());
    }
    var e = spec.elastic();
    if (kind == KubeflowKind.PYTORCH_JOB && e != null) {
      var policy = target.putObject("elasticPolicy");
      if (e.minReplicas() != null) {
        policy.put("minReplicas", e.minReplicas());
      }
      if (e.maxReplicas() != null) {
        policy.put("maxReplicas", e.maxReplicas());
      }
      if (e.maxRestarts() != null) {
        policy.put("maxRestarts", e.maxRestarts());
      }
      if (e.rdzvBackend() != null) {
        policy.put("rdzvBackend", e.rdzvBackend());
      }
      if (e.rdzvHost() != null) {
        policy.put("rdzvHost", e.rdzvHost());
      }
      if (e.rdzvPort() != null) {
        policy.put("rdzvPort", e.rdzvPort());
      }
      if (e.rdzvId() != null) {
        policy.put("rdzvId", e.rdzvId());
      }
      if (e.rdzvConf() != null) {
        var conf = policy.putArray("rdzvConf");
        e.rdzvConf().forEach((key, value) -> conf.addObject().put("key", key).put("value", value));
      }
      if (e.metrics() != null) {
        var metrics = policy.putArray("metrics");
        e.metrics().forEach(m -> metrics.add(PodTemplateTrees.toTree(m)));
      }
    }
  }

  private static Integer nprocPerNode(JsonNode node, String path, NodeReader nodes) {
    if (absent(node)) {
      return null;
    }
    if (node.isIntegralNumber()) {
      nodes
          .findings()
          .warn(path, "is a number where the operator expects a string; written \"" + node + "\"");
      return nodes.integer(node, path, 1);
    }
    var text = nodes.text(node, path);
    if (text == null) {
      return null;
    }
    if (!text.matches("[1-9][0-9]{0,5}")) {
      nodes
          .findings()
          .refuse(
              path,
              "'"
                  + text
                  + "': Trainyard needs the number of processes per replica to plan ranks and"
                  + " GPUs; write it, e.g. \"4\"");
      return null;
    }
    return Integer.valueOf(text);
  }

  private static Elastic elastic(JsonNode node, String path, NodeReader nodes) {
    var policy = nodes.object(node, path);
    if (policy == null) {
      return null;
    }
    nodes.onlyKnown(
        policy,
        path,
        Set.of(
            "minReplicas",
            "maxReplicas",
            "maxRestarts",
            "rdzvBackend",
            "rdzvHost",
            "rdzvPort",
            "rdzvId",
            "rdzvConf",
            "metrics"),
        ELASTIC_REFUSED,
        "elasticPolicy");
    return new Elastic(
        nodes.integer(policy.get("minReplicas"), at(path, "minReplicas"), 1),
        nodes.integer(policy.get("maxReplicas"), at(path, "maxReplicas"), 1),
        nodes.integer(policy.get("maxRestarts"), at(path, "maxRestarts"), 0),
        nodes.text(policy.get("rdzvBackend"), at(path, "rdzvBackend")),
        nodes.text(policy.get("rdzvHost"), at(path, "rdzvHost")),
        nodes.integer(policy.get("rdzvPort"), at(path, "rdzvPort"), 1),
        nodes.text(policy.get("rdzvId"), at(path, "rdzvId")),
        rdzvConf(policy.get("rdzvConf"), at(path, "rdzvConf"), nodes),
        metrics(policy.get("metrics"), at(path, "metrics"), nodes));
  }

  /** The operator's {@code [{key, value}]} list, in order. */
  private static Map<String, String> rdzvConf(JsonNode node, String path, NodeReader nodes) {
    if (NodeReader.absent(node)) {
      return null;
    }
    if (!node.isArray()) {
      nodes.findings().refuse(path, "must be a list of {key, value} entries");
      return null;
    }
    var result = new java.util.LinkedHashMap<String, String>();
    for (int i = 0; i < node.size(); i++) {
      var entry = nodes.object(node.get(i), at(path, i));
      if (entry == null) {
        continue;
      }
      nodes.onlyKnown(entry, at(path, i), Set.of("key", "value"), Map.of(), "an rdzvConf entry");
      var key = nodes.text(entry.get("key"), at(at(path, i), "key"));
      var value = nodes.text(entry.get("value"), at(at(path, i), "value"));
      if (key == null) {
        nodes.findings().refuse(at(at(path, i), "key"), "is required");
      } else if (result.put(key, value == null ? "" : value) != null) {
        nodes.findings().refuse(at(at(path, i), "key"), "'" + key + "' is set twice");
      }
    }
    return result;
  }

  /** HorizontalPodAutoscaler metrics: carried as written, for the operator's autoscaler. */
  private static List<Map<String, Object>> metrics(JsonNode node, String path, NodeReader nodes) {
    if (NodeReader.absent(node)) {
      return null;
    }
    if (!node.isArray()) {
      nodes.findings().refuse(path, "must be a list of HorizontalPodAutoscaler metrics");
      return null;
    }
    var result = new java.util.ArrayList<Map<String, Object>>();
    for (int i = 0; i < node.size(); i++) {
      var metric = nodes.object(node.get(i), at(path, i));
      if (metric == null) {
        continue;
      }
      if (!metric.path("type").isTextual()) {
        nodes
            .findings()
            .refuse(at(at(path, i), "type"), "is required: Resource, Pods, Object, External, ...");
        continue;
      }
      result.add(PodTemplateTrees.toMap(metric));
    }
    return result;
  }
}
