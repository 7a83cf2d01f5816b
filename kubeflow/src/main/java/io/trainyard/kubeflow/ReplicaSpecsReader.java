package io.trainyard.kubeflow;

import static io.trainyard.kubeflow.NodeReader.at;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainyard.spi.spec.RestartPolicy;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a kind's replica specs ({@code spec.pytorchReplicaSpecs}, ...): each replica type's count
 * (the operator's default 1 when absent), restart policy (absent stays absent, so the operator's
 * default applies) and pod template.
 */
final class ReplicaSpecsReader {
  private final KubeflowKind kind;
  private final NodeReader nodes;

  ReplicaSpecsReader(KubeflowKind kind, NodeReader nodes) {
    this.kind = kind;
    this.nodes = nodes;
  }

  /** The replica types of {@code spec}, in the framework's rank order. */
  List<Replica> read(ObjectNode spec) {
    var path = at("spec", kind.replicaSpecsField());
    var specs = nodes.object(spec.get(kind.replicaSpecsField()), path);
    var result = new ArrayList<Replica>();
    if (specs == null || specs.isEmpty()) {
      nodes
          .findings()
          .refuse(path, "is required: one entry per replica type (" + kind.replicaTypes() + ")");
      return result;
    }
    var roles = new HashSet<String>();
    specs
        .properties()
        .forEach(
            e -> {
              var at = at(path, e.getKey());
              var role = role(e.getKey(), at, specs);
              if (role != null && roles.add(role)) {
                var replica = replica(role, e.getValue(), at);
                if (replica != null) {
                  result.add(replica);
                }
              }
            });
    if (kind == KubeflowKind.MPI_JOB && !specs.has("Launcher")) {
      nodes.findings().refuse(at(path, "Launcher"), "is required: an MPI job has one launcher");
    }
    result.sort(Comparator.comparingInt(r -> kind.framework().roles().indexOf(r.role())));
    return result;
  }

  private String role(String type, String path, ObjectNode specs) {
    var role = kind.role(type);
    if (role.isPresent()) {
      return role.get();
    }
    if (kind == KubeflowKind.TF_JOB && type.equals("Master") && !specs.has("Chief")) {
      nodes.findings().warn(path, "read as Chief, which the operator treats alike");
      return "chief";
    }
    nodes
        .findings()
        .refuse(
            path,
            "is not a "
                + kind.kind()
                + " replica type; one of "
                + String.join(", ", kind.replicaTypes()));
    return null;
  }

  private Replica replica(String role, JsonNode node, String path) {
    var spec = nodes.object(node, path);
    if (spec == null) {
      return null;
    }
    nodes.onlyKnown(
        spec, path, Set.of("replicas", "restartPolicy", "template"), Map.of(), "a replica spec");
    var count = nodes.integer(spec.get("replicas"), at(path, "replicas"), 0);
    if (count != null && count == 0) {
      nodes.findings().warn(at(path, "replicas"), "is 0: the replica type is left out");
      return null;
    }
    count = count == null ? 1 : count; // the operator's default
    if (count > 1 && kind.framework().isSingleton(role)) {
      nodes
          .findings()
          .refuse(
              at(path, "replicas"),
              "must be 1: a " + kind.kind() + " has one " + kind.replicaType(role));
    }
    var template = nodes.object(spec.get("template"), at(path, "template"));
    if (template == null) {
      nodes.findings().refuse(at(path, "template"), "is required");
      return null;
    }
    var read = new PodTemplateReader(nodes, kind).read(template, at(path, "template"));
    return read == null
        ? null
        : new Replica(
            role,
            count,
            restartPolicy(spec.get("restartPolicy"), at(path, "restartPolicy")),
            read.main(),
            read.podTemplate());
  }

  private RestartPolicy restartPolicy(JsonNode node, String path) {
    var text = nodes.text(node, path);
    try {
      return text == null ? null : RestartPolicy.fromWireName(text);
    } catch (IllegalArgumentException e) {
      nodes.findings().refuse(path, e.getMessage());
      return null;
    }
  }
}
