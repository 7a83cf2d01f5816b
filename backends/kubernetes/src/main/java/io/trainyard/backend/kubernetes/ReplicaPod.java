package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.api.model.Pod;
import io.trainyard.kubeflow.KubeflowKind;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;

/**
 * One pod of a job, named as the SPI names replicas: {@code <role>-<index>} from the operator's
 * {@code training.kubeflow.org/replica-type} (lower-cased, as the operator writes it) and {@code
 * training.kubeflow.org/replica-index} labels.
 */
record ReplicaPod(String replica, int rank, int index, String podName) {
  static final String JOB_NAME_LABEL = "training.kubeflow.org/job-name";
  static final String REPLICA_TYPE_LABEL = "training.kubeflow.org/replica-type";
  static final String REPLICA_INDEX_LABEL = "training.kubeflow.org/replica-index";

  /** Replicas in the framework's rank order (master first), then by index. */
  static final Comparator<ReplicaPod> RANK_ORDER =
      Comparator.comparingInt(ReplicaPod::rank).thenComparingInt(ReplicaPod::index);

  /** The pod as a replica of {@code kind}, if it carries the operator's labels. */
  static Optional<ReplicaPod> of(KubeflowKind kind, Pod pod) {
    var labels = pod.getMetadata().getLabels();
    if (labels == null) {
      return Optional.empty();
    }
    var type = labels.get(REPLICA_TYPE_LABEL);
    var index = labels.get(REPLICA_INDEX_LABEL);
    if (type == null || index == null || !index.matches("[0-9]{1,6}")) {
      return Optional.empty();
    }
    var role = type.toLowerCase(Locale.ROOT);
    var rank = kind.framework().roles().indexOf(role);
    return Optional.of(
        new ReplicaPod(
            role + "-" + index,
            rank < 0 ? Integer.MAX_VALUE : rank,
            Integer.parseInt(index),
            pod.getMetadata().getName()));
  }
}
