package io.trainyard.kubeflow;

import static io.trainyard.kubeflow.NodeReader.absent;
import static io.trainyard.kubeflow.NodeReader.at;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainyard.spi.spec.Resources;
import io.trainyard.spi.spec.SecretRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a TrainJob's nodes run, read for {@link TrainJobReader}: the {@code trainer} block, and the
 * one pod patch for the runtime's {@value TrainJobWriter#NODE} job that a pod template can say
 * (what {@link TrainJobWriter} writes from the spec's pod template). Stateless.
 */
final class TrainJobNodes {
  private TrainJobNodes() {}

  /** The trainer's values; {@code podTemplate} gets a resources block the spec cannot say. */
  record Node(
      String image,
      List<String> command,
      List<String> args,
      Map<String, String> env,
      Map<String, SecretRef> secretEnv,
      int numNodes,
      Resources resources,
      Integer processes) {}

  /**
   * The trainer's values. Without {@code trainer.image} the nodes run the runtime's, when it is
   * known ({@link TrainerRuntimes}); {@code container} is the spec's name for the trainer's
   * container ({@code pytorch}, {@code xgboost}, {@code jax}).
   */
  static Node trainer(
      ObjectNode trainer,
      ObjectNode podTemplate,
      NodeReader nodes,
      TrainerRuntimes.Runtime runtime,
      String container) {
    var path = "spec.trainer";
    var image = nodes.text(trainer.get("image"), at(path, "image"));
    if (absent(trainer.get("image")) && runtime.image() != null) {
      image = runtime.image();
      nodes
          .findings()
          .warn(
              at(path, "image"),
              "absent: the nodes run runtime "
                  + runtime.name()
                  + "'s image, "
                  + image
                  + " (Kubeflow Trainer's manifests); set it to pin another");
    } else if (image == null || image.isBlank()) {
      nodes
          .findings()
          .refuse(
              at(path, "image"),
              "is required: runtime "
                  + runtime.name()
                  + " is one a cluster declares, and Trainyard, which runs the image on any"
                  + " backend, does not know its image");
    }
    var env = new LinkedHashMap<String, String>();
    var secretEnv = new LinkedHashMap<String, SecretRef>();
    new ContainerReader(nodes).env(trainer.get("env"), at(path, "env"), env, secretEnv);
    var numNodes = nodes.integer(trainer.get("numNodes"), at(path, "numNodes"), 1);
    if (absent(trainer.get("numNodes"))) {
      nodes
          .findings()
          .warn(
              at(path, "numNodes"), "absent: read as 1, the built-in runtimes' mlPolicy.numNodes");
    }
    Resources resources = null;
    var block = nodes.object(trainer.get("resourcesPerNode"), at(path, "resourcesPerNode"));
    if (block != null) {
      var read = ContainerResources.read(block, at(path, "resourcesPerNode"), nodes);
      resources = read.resources();
      if (read.verbatim() != null) {
        framework(podTemplate, container).set("resources", read.verbatim());
      }
    }
    return new Node(
        image,
        nodes.strings(trainer.get("command"), at(path, "command")),
        nodes.strings(trainer.get("args"), at(path, "args")),
        env,
        secretEnv,
        numNodes == null ? 1 : numNodes,
        resources,
        processes(trainer.get("numProcPerNode"), at(path, "numProcPerNode"), nodes));
  }

  private static Integer processes(JsonNode node, String path, NodeReader nodes) {
    // An IntOrString (v2.1): "4" is the number 4.
    if (node != null && node.isTextual() && node.textValue().matches("[0-9]{1,6}")) {
      return nodes.integer(IntNode.valueOf(Integer.parseInt(node.textValue())), path, 1);
    }
    if (node != null && node.isTextual()) {
      nodes
          .findings()
          .refuse(
              path,
              "'"
                  + node.textValue()
                  + "' leaves the process count to the runtime; Trainyard prices and places by"
                  + " it: give a whole number");
      return null;
    }
    return nodes.integer(node, path, 1);
  }

  /**
   * Moves the one patch that targets only the {@value TrainJobWriter#NODE} job into {@code
   * podTemplate} when a pod template can say all of it (what {@link TrainJobWriter} writes from a
   * pod template reads back so); returns the patches that stay TrainJob-only.
   */
  static List<ObjectNode> podTemplateFromPatches(
      List<ObjectNode> patches, ObjectNode podTemplate, String container) {
    var kept = new ArrayList<>(patches);
    var forNode =
        patches.stream()
            .filter(
                p ->
                    p.get("targetJobs").size() == 1
                        && TrainJobWriter.NODE.equals(
                            p.get("targetJobs").get(0).path("name").asText()))
            .toList();
    if (forNode.size() != 1 || !fitsPodTemplate(forNode.get(0))) {
      return kept;
    }
    var patch = forNode.get(0);
    kept.remove(patch);
    if (patch.has("metadata")) {
      podTemplate.set("metadata", patch.get("metadata").deepCopy());
    }
    var spec = patch.has("spec") ? (ObjectNode) patch.get("spec").deepCopy() : null;
    if (spec != null) {
      var containers = spec.remove("containers");
      podTemplate.setAll(spec);
      if (containers != null) {
        var main = framework(podTemplate, container);
        var node = (ObjectNode) containers.get(0).deepCopy();
        node.remove("name");
        main.setAll(node);
      }
    }
    // Written in the writer's order: metadata, pod fields, then the container entry.
    var containers = podTemplate.remove("containers");
    if (containers != null) {
      podTemplate.set("containers", containers);
    }
    return kept;
  }

  /** Whether a pod template can carry the patch: fields it has, only the trainer's container. */
  private static boolean fitsPodTemplate(ObjectNode patch) {
    var spec = patch.path("spec");
    var fields = spec.fieldNames();
    while (fields.hasNext()) {
      if (!TrainJobLimits.POD_FIELDS.contains(fields.next())) {
        return false;
      }
    }
    var containers = spec.path("containers");
    if (containers.isMissingNode()) {
      return true;
    }
    return containers.isArray()
        && containers.size() == 1
        && containers.get(0).isObject()
        && TrainJobWriter.NODE.equals(containers.get(0).path("name").asText())
        && !containers.get(0).has("env");
  }

  /** The framework container's entry of {@code podTemplate}, created when absent. */
  private static ObjectNode framework(ObjectNode podTemplate, String container) {
    var containers = podTemplate.withArray("containers");
    for (var c : containers) {
      if (container.equals(c.path("name").asText())) {
        return (ObjectNode) c;
      }
    }
    return containers.addObject().put("name", container);
  }
}
