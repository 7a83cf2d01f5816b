package io.trainyard.backend.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * Keeps an attempt's pods until the gateway has archived their logs, then hands cleanup back to the
 * operator as the job asked for it.
 *
 * <p>A pod's log lives only as long as the pod. The job object is therefore created with {@code
 * runPolicy.cleanPodPolicy: None} and without {@code ttlSecondsAfterFinished}; what the job asked
 * for is kept in two annotations. {@link #restore} (the backend's {@code cleanup}, called once the
 * logs are archived) writes the asked-for values back with one merge patch. The operator cleans up
 * finished jobs on every reconcile — pods by {@code cleanPodPolicy}, the object once {@code
 * ttlSecondsAfterFinished} has passed since completion — so the patch is all it takes, and a field
 * the job left unset goes back to the operator's default (removed, not written).
 */
final class PodCleanup {
  static final String CLEAN_POD_POLICY = "trainyard.io/clean-pod-policy";
  static final String TTL_SECONDS = "trainyard.io/ttl-seconds-after-finished";

  /** The annotation value for "the job left it unset". */
  static final String UNSET = "";

  private static final ObjectMapper JSON = new ObjectMapper();

  private PodCleanup() {}

  /** Makes the rendered {@code job} keep its pods; records what it asked for in annotations. */
  static void holdPods(ObjectNode job) {
    var spec = (ObjectNode) job.path("spec");
    var runPolicy =
        spec.has("runPolicy") ? (ObjectNode) spec.get("runPolicy") : spec.putObject("runPolicy");
    var annotations = job.with("metadata").with("annotations");
    annotations.put(CLEAN_POD_POLICY, text(runPolicy.remove("cleanPodPolicy")));
    annotations.put(TTL_SECONDS, text(runPolicy.remove("ttlSecondsAfterFinished")));
    runPolicy.put("cleanPodPolicy", "None");
  }

  /**
   * The merge patch that gives the operator back the job's own cleanup settings; null when the
   * object was not created by {@link #holdPods} (nothing to restore).
   */
  static String restorePatch(Map<String, String> annotations) {
    if (annotations == null || !annotations.containsKey(CLEAN_POD_POLICY)) {
      return null;
    }
    var patch = JSON.createObjectNode();
    var runPolicy = patch.putObject("spec").putObject("runPolicy");
    put(runPolicy, "cleanPodPolicy", annotations.get(CLEAN_POD_POLICY), false);
    put(runPolicy, "ttlSecondsAfterFinished", annotations.get(TTL_SECONDS), true);
    return patch.toString();
  }

  private static void put(ObjectNode node, String field, String value, boolean number) {
    if (value == null || value.equals(UNSET)) {
      node.putNull(field); // a merge patch's null removes the field: the operator's default
    } else if (number) {
      node.put(field, Long.parseLong(value));
    } else {
      node.put(field, value);
    }
  }

  private static String text(JsonNode value) {
    return value == null || value.isNull() ? UNSET : value.asText();
  }
}
