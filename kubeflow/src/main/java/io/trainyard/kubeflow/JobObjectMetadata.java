package io.trainyard.kubeflow;

import static io.trainyard.kubeflow.NodeReader.absent;
import static io.trainyard.kubeflow.NodeReader.at;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainyard.spi.spec.ObjectMeta;
import java.util.Map;
import java.util.Set;

/**
 * A job document's {@code metadata}, read alike for every kind ({@link KubeflowReader}'s {@code
 * kubeflow.org} jobs and {@link TrainJobReader}'s TrainJobs): {@code name}, or a {@code
 * generateName} the gateway completes once the document's hash is taken; a {@code namespace} is
 * left out with a warning (the job runs in its team's); the object's {@code labels} and {@code
 * annotations} are kept for {@code spec.kubernetes.jobLabels} / {@code jobAnnotations}, with a
 * warning for any under the gateway's own prefix. {@code finalizers} and {@code ownerReferences}
 * are refused. Server-set fields are expected to be gone already ({@link ReadBackFields}).
 *
 * @param meta the Trainyard job's metadata (name or generateName); null when refused
 * @param labels the object's labels, in order; never null
 * @param annotations the object's annotations, in order; never null
 */
record JobObjectMetadata(
    ObjectMeta meta, Map<String, String> labels, Map<String, String> annotations) {
  /** The gateway's own labels on every job object; a document's labels under it are replaced. */
  static final String GATEWAY_PREFIX = "trainyard.io/";

  private static final Set<String> FIELDS =
      Set.of("name", "generateName", "namespace", "labels", "annotations");
  private static final Map<String, String> REFUSED =
      Map.ofEntries(
          Map.entry("finalizers", "would keep Trainyard from deleting the job object"),
          Map.entry("ownerReferences", "the job object belongs to Trainyard, not to another"));

  static JobObjectMetadata read(JsonNode node, NodeReader nodes) {
    var meta = nodes.object(node, "metadata");
    if (meta == null) {
      nodes.findings().refuse("metadata.name", "is required");
      return new JobObjectMetadata(null, Map.of(), Map.of());
    }
    nodes.onlyKnown(meta, "metadata", FIELDS, REFUSED, "a job's metadata");
    var name = nodes.text(meta.get("name"), "metadata.name");
    var generateName = nodes.text(meta.get("generateName"), "metadata.generateName");
    if (name == null && generateName == null) {
      nodes.findings().refuse("metadata.name", "is required (or metadata.generateName)");
    } else if (name != null && generateName != null) {
      nodes.findings().warn("metadata.generateName", "is not used: metadata.name is set, and wins");
      generateName = null;
    }
    if (!absent(meta.get("namespace"))) {
      nodes
          .findings()
          .warn(
              "metadata.namespace",
              "'"
                  + meta.get("namespace").asText()
                  + "' is not used: the job runs in its team's namespace");
    }
    // A generateName stays one: the gateway makes the name once the document's hash is taken.
    return new JobObjectMetadata(
        new ObjectMeta(name, null, Map.of(), generateName),
        objectMap(meta, "labels", nodes),
        objectMap(meta, "annotations", nodes));
  }

  /** Labels or annotations of the object; those under the gateway's prefix are said to lose. */
  private static Map<String, String> objectMap(ObjectNode meta, String field, NodeReader nodes) {
    var path = at("metadata", field);
    var values = nodes.stringMap(meta.get(field), path);
    values.keySet().stream()
        .filter(k -> k.startsWith(GATEWAY_PREFIX))
        .forEach(
            k ->
                nodes
                    .findings()
                    .warn(
                        at(path, k),
                        "is under the gateway's own prefix "
                            + GATEWAY_PREFIX
                            + ": the gateway's value replaces it on the job object"));
    return values;
  }
}
