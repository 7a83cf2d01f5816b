package io.trainyard.kubeflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The documented differences between a document and the same document read and written back (see
 * {@link KubeflowReader}), applied to a copy so two trees can be compared for equality:
 *
 * <ul>
 *   <li>the warned adjustments: {@code metadata.namespace} left out; a top-level {@code
 *       spec.volumes} added to every replica's pod volumes; a top-level {@code spec.cleanPodPolicy}
 *       moved into {@code runPolicy}; {@code runPolicy.suspend: false} and {@code managedBy}'s
 *       default left out; the MPI Operator v2's {@code runLauncherAsWorker: false} left out;
 *   <li>the silent ones of the MPI Operator v2's MPIJob: its defaults for {@code
 *       mpiImplementation}, {@code launcherCreationPolicy}, {@code sshAuthMountPath} written out;
 *   <li>the silent ones: a number {@code nprocPerNode} written as the string the CRD types it as;
 *       {@code replicas} defaulted to 1; {@code requests} equal to {@code limits} left to
 *       Kubernetes; quantities compared by value; env entries without a value get {@code ""}; empty
 *       objects and lists dropped.
 * </ul>
 */
final class RoundTripNormalization {
  private RoundTripNormalization() {}

  static JsonNode normalize(JsonNode document) {
    var doc = (ObjectNode) document.deepCopy();
    ((ObjectNode) doc.path("metadata")).remove("namespace");
    var spec = (ObjectNode) doc.get("spec");
    if (spec.path("nprocPerNode").isNumber()) {
      spec.put("nprocPerNode", spec.get("nprocPerNode").asText());
    }
    var volumes = (ArrayNode) spec.remove("volumes");
    var cleanPodPolicy = spec.remove("cleanPodPolicy");
    if (cleanPodPolicy != null) {
      spec.withObjectProperty("runPolicy").set("cleanPodPolicy", cleanPodPolicy);
    }
    if (spec.has("runPolicy")) {
      var policy = (ObjectNode) spec.get("runPolicy");
      if (BooleanNode.FALSE.equals(policy.get("suspend"))) {
        policy.remove("suspend");
      }
      if (TextNode.valueOf(RunPolicyMapping.DEFAULT_MANAGER).equals(policy.get("managedBy"))
          || TextNode.valueOf(MpiV2Fields.MANAGER).equals(policy.get("managedBy"))) {
        policy.remove("managedBy");
      }
      quantities(policy.path("schedulingPolicy").path("minResources"));
    }
    if (doc.path("apiVersion").asText().equals(KubeflowKind.MPI_V2_API_VERSION)) {
      // The MPI Operator v2's defaults, which the writer writes out and the reader leaves out.
      if (BooleanNode.FALSE.equals(spec.get("runLauncherAsWorker"))) {
        spec.remove("runLauncherAsWorker");
      }
      spec.putIfAbsent("mpiImplementation", TextNode.valueOf("OpenMPI"));
      spec.putIfAbsent("launcherCreationPolicy", TextNode.valueOf("AtStartup"));
      spec.putIfAbsent("sshAuthMountPath", TextNode.valueOf("/root/.ssh"));
    }
    for (var name :
        List.of(
            "pytorchReplicaSpecs",
            "tfReplicaSpecs",
            "mpiReplicaSpecs",
            "xgbReplicaSpecs",
            "paddleReplicaSpecs",
            "jaxReplicaSpecs")) {
      if (spec.has(name)) {
        spec.get(name).forEach(replica -> replica((ObjectNode) replica, volumes));
      }
    }
    dropEmpty(doc);
    return doc;
  }

  /**
   * {@code document} less what the reader leaves out with a warning as written by a server or a Go
   * client rather than by the user: {@code status}, the server-set metadata and the last-applied
   * annotation, {@code creationTimestamp} of job and pod templates, pod-level {@code
   * restartPolicy}.
   */
  static JsonNode withoutArtefacts(JsonNode document) {
    var doc = (ObjectNode) document.deepCopy();
    doc.remove("status");
    var metadata = (ObjectNode) doc.path("metadata");
    metadata.remove(
        List.of(
            "uid",
            "resourceVersion",
            "generation",
            "creationTimestamp",
            "managedFields",
            "selfLink",
            "deletionTimestamp",
            "deletionGracePeriodSeconds"));
    if (metadata.path("annotations") instanceof ObjectNode annotations) {
      annotations.remove("kubectl.kubernetes.io/last-applied-configuration");
    }
    for (var specs : doc.path("spec")) {
      if (specs.isObject()) {
        for (var replica : specs) {
          if (replica.path("template") instanceof ObjectNode template) {
            if (template.path("metadata") instanceof ObjectNode podMetadata) {
              podMetadata.remove("creationTimestamp");
            }
            if (template.path("spec") instanceof ObjectNode pod) {
              pod.remove("restartPolicy");
            }
          }
        }
      }
    }
    return doc;
  }

  private static void replica(ObjectNode replica, ArrayNode volumes) {
    replica.putIfAbsent("replicas", replica.numberNode(1));
    var pod = (ObjectNode) replica.path("template").path("spec");
    if (volumes != null) {
      pod.withArray("volumes").addAll(volumes.deepCopy());
    }
    for (var container : pod.path("containers")) {
      for (var env : container.path("env")) {
        if (!env.has("value") && !env.has("valueFrom")) {
          ((ObjectNode) env).put("value", "");
        }
      }
      var resources = container.path("resources");
      if (resources.isObject()) {
        quantities(resources.path("limits"));
        quantities(resources.path("requests"));
        if (resources.has("requests")) {
          var requests = (ObjectNode) resources.get("requests");
          var redundant = new ArrayList<String>();
          requests
              .properties()
              .forEach(
                  e -> {
                    if (e.getValue().equals(resources.path("limits").get(e.getKey()))) {
                      redundant.add(e.getKey());
                    }
                  });
          requests.remove(redundant);
        }
      }
    }
  }

  private static void quantities(JsonNode map) {
    if (map instanceof ObjectNode object) {
      object
          .properties()
          .forEach(
              e ->
                  e.setValue(
                      TextNode.valueOf(
                          KubernetesQuantity.value(e.getValue())
                              .orElseThrow()
                              .stripTrailingZeros()
                              .toPlainString())));
    }
  }

  private static void dropEmpty(JsonNode node) {
    if (node instanceof ObjectNode object) {
      object.forEach(RoundTripNormalization::dropEmpty);
      var empty = new ArrayList<String>();
      object
          .properties()
          .forEach(
              e -> {
                if (e.getValue().isContainerNode() && e.getValue().isEmpty()) {
                  empty.add(e.getKey());
                }
              });
      object.remove(empty);
    } else if (node instanceof ArrayNode array) {
      array.forEach(RoundTripNormalization::dropEmpty);
    }
  }
}
