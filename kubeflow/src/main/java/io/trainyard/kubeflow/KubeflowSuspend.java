package io.trainyard.kubeflow;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * {@code suspend: true} beside a {@code kueue.x-k8s.io/queue-name} label, as Kueue's own examples
 * write a job for it: Kueue's webhook suspends such a job at creation anyway and un-suspends it
 * when its queue admits it, so the field says nothing Trainyard must carry; the label, carried on
 * the object, is what makes Kueue hold the job. Any other {@code suspend: true} is a job nobody
 * would start, and its reader refuses it.
 */
final class KubeflowSuspend {
  static final String KUEUE_QUEUE_LABEL = "kueue.x-k8s.io/queue-name";

  private KubeflowSuspend() {}

  /**
   * True, with a warning, when {@code node} is {@code true} and {@code jobLabels} name a Kueue
   * queue: the caller then reads nothing more of it.
   */
  static boolean forKueue(
      JsonNode node, Map<String, String> jobLabels, String path, NodeReader nodes) {
    var queue = jobLabels.get(KUEUE_QUEUE_LABEL);
    if (node == null || !node.isBoolean() || !node.booleanValue() || queue == null) {
      return false;
    }
    nodes
        .findings()
        .warn(
            path,
            "true beside the "
                + KUEUE_QUEUE_LABEL
                + " label: left to Kueue, which suspends the job when it is created and starts it"
                + " once queue "
                + queue
                + " admits it");
    return true;
  }
}
