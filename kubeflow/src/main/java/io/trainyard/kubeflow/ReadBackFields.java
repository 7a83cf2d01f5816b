package io.trainyard.kubeflow;

import static io.trainyard.kubeflow.NodeReader.at;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * What a document read back from a cluster ({@code kubectl get -o yaml}) or serialised by a Go
 * client carries besides what its author wrote: fields the API server and the operator set ({@code
 * metadata.uid}, {@code resourceVersion}, {@code generation}, {@code creationTimestamp}, {@code
 * managedFields}, {@code selfLink}, {@code deletionTimestamp}, {@code deletionGracePeriodSeconds},
 * kubectl's {@code last-applied-configuration} annotation, {@code status}) and the empty values Go
 * writes for unset fields ({@code creationTimestamp: null}, {@code status: {}}). They say nothing
 * about the job to run, so they are left out, each kind with one warning.
 */
final class ReadBackFields {
  static final String LAST_APPLIED = "kubectl.kubernetes.io/last-applied-configuration";

  private static final List<String> SERVER_SET =
      List.of(
          "uid",
          "resourceVersion",
          "generation",
          "creationTimestamp",
          "managedFields",
          "selfLink",
          "deletionTimestamp",
          "deletionGracePeriodSeconds");

  private ReadBackFields() {}

  /** A copy of {@code root} without those fields; the warnings go to {@code findings}. */
  static ObjectNode strip(ObjectNode root, Findings findings) {
    var copy = root.deepCopy();
    var serverSet = new ArrayList<String>();
    var nulls = new ArrayList<String>();
    if (copy.get("metadata") instanceof ObjectNode meta) {
      for (var field : SERVER_SET) {
        var value = meta.get(field);
        if (value == null) {
          continue;
        }
        (value.isNull() ? nulls : serverSet).add(at("metadata", field));
        meta.remove(field);
      }
      if (meta.get("annotations") instanceof ObjectNode annotations
          && annotations.has(LAST_APPLIED)) {
        annotations.remove(LAST_APPLIED);
        serverSet.add("metadata.annotations." + LAST_APPLIED);
        if (annotations.isEmpty()) {
          meta.remove("annotations");
        }
      }
    }
    var status = copy.get("status");
    if (status != null && !(status.isObject() && status.isEmpty()) && !status.isNull()) {
      serverSet.add("status");
      copy.remove("status");
    } else if (status != null) {
      copy.remove("status");
      findings.warn(
          "status", "is empty (" + status + "), as clients write an unset status; left out");
    }
    templateTimestamps(copy.get("spec"), nulls);
    if (!serverSet.isEmpty()) {
      findings.warn(
          "(document)",
          "was read back from a cluster (kubectl get -o yaml): left out what the API server and"
              + " the operator set, "
              + String.join(", ", serverSet));
    }
    if (!nulls.isEmpty()) {
      findings.warn(
          String.join(", ", nulls), "null, as Go clients write a time they do not have; left out");
    }
    return copy;
  }

  /** Null creationTimestamps in replica pod templates ({@code spec.*ReplicaSpecs.*.template}). */
  private static void templateTimestamps(JsonNode spec, List<String> nulls) {
    if (!(spec instanceof ObjectNode object)) {
      return;
    }
    object
        .properties()
        .forEach(
            specs -> {
              if (!specs.getKey().endsWith("ReplicaSpecs") || !specs.getValue().isObject()) {
                return;
              }
              specs
                  .getValue()
                  .properties()
                  .forEach(
                      type -> {
                        var meta = type.getValue().path("template").path("metadata");
                        if (meta instanceof ObjectNode m
                            && m.has("creationTimestamp")
                            && m.get("creationTimestamp").isNull()) {
                          m.remove("creationTimestamp");
                          nulls.add(
                              at(
                                  at(at(at("spec", specs.getKey()), type.getKey()), "template"),
                                  "metadata.creationTimestamp"));
                        }
                      });
            });
  }
}
