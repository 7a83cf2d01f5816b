package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.trainyard.kubeflow.KubeflowKind;
import io.trainyard.kubeflow.TrainJobWriter;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One pod of a job, named as the SPI names replicas ({@code <role>-<index>}), with the container
 * whose logs are the replica's.
 *
 * <ul>
 *   <li>A v1 job's pods carry the training operator's {@code training.kubeflow.org/job-name},
 *       {@code replica-type} (lower-cased, as the operator writes it) and {@code replica-index}
 *       labels; the container is the framework's ({@code pytorch}, ...), an MPIJob's first (its
 *       operator wires up the first container, whatever its name).
 *   <li>A TrainJob's pods are its JobSet's (named as the TrainJob): {@code
 *       jobset.sigs.k8s.io/jobset-name}, {@code jobset.sigs.k8s.io/replicatedjob-name} ({@code
 *       node}, {@code dataset-initializer}, ...) and the Job controller's {@code
 *       batch.kubernetes.io/job-completion-index} (a label since Kubernetes 1.28, an annotation
 *       before); the replica is {@code node-0}, {@code node-1}, ... The container is the runtime's
 *       {@code node} when the pod has one, else the one named as its replicated job, else its
 *       first.
 * </ul>
 */
record ReplicaPod(String replica, int rank, int index, String podName, String container) {
  static final String JOB_NAME_LABEL = "training.kubeflow.org/job-name";
  static final String REPLICA_TYPE_LABEL = "training.kubeflow.org/replica-type";
  static final String REPLICA_INDEX_LABEL = "training.kubeflow.org/replica-index";
  static final String JOBSET_NAME_LABEL = "jobset.sigs.k8s.io/jobset-name";
  static final String REPLICATED_JOB_LABEL = "jobset.sigs.k8s.io/replicatedjob-name";
  static final String COMPLETION_INDEX = "batch.kubernetes.io/job-completion-index";

  /** A TrainJob's replicated jobs in the order they run: initializers, then the trainer. */
  private static final List<String> TRAIN_JOB_STEPS =
      List.of("dataset-initializer", "model-initializer", "launcher", TrainJobWriter.NODE);

  /** Replicas in the framework's rank order (master first), then by index. */
  static final Comparator<ReplicaPod> RANK_ORDER =
      Comparator.comparingInt(ReplicaPod::rank).thenComparingInt(ReplicaPod::index);

  /** The label every pod of a {@code kind} object carries with the object's name as value. */
  static String jobNameLabel(JobKind kind) {
    return kind.v1().isPresent() ? JOB_NAME_LABEL : JOBSET_NAME_LABEL;
  }

  /** The pod as a replica of {@code kind}, if it carries its controller's labels. */
  static Optional<ReplicaPod> of(JobKind kind, Pod pod) {
    var labels = pod.getMetadata().getLabels();
    if (labels == null) {
      return Optional.empty();
    }
    return kind.v1()
        .map(v1 -> operatorPod(v1, pod, labels))
        .orElseGet(() -> jobSetPod(pod, labels));
  }

  private static Optional<ReplicaPod> operatorPod(
      KubeflowKind kind, Pod pod, Map<String, String> labels) {
    var type = labels.get(REPLICA_TYPE_LABEL);
    var index = labels.get(REPLICA_INDEX_LABEL);
    if (type == null || !isIndex(index)) {
      return Optional.empty();
    }
    var role = type.toLowerCase(Locale.ROOT);
    // An MPIJob's operator wires up the first container, whatever the user named it.
    var container =
        kind == KubeflowKind.MPI_JOB
                && pod.getSpec() != null
                && !pod.getSpec().getContainers().isEmpty()
            ? pod.getSpec().getContainers().get(0).getName()
            : kind.containerName();
    return Optional.of(
        replica(role, kind.framework().roles().indexOf(role), index, pod, container));
  }

  private static Optional<ReplicaPod> jobSetPod(Pod pod, Map<String, String> labels) {
    var job = labels.get(REPLICATED_JOB_LABEL);
    var index = labels.get(COMPLETION_INDEX);
    var annotations = pod.getMetadata().getAnnotations();
    if (index == null && annotations != null) {
      index = annotations.get(COMPLETION_INDEX);
    }
    if (job == null || !isIndex(index)) {
      return Optional.empty();
    }
    return Optional.of(replica(job, TRAIN_JOB_STEPS.indexOf(job), index, pod, container(pod, job)));
  }

  private static String container(Pod pod, String job) {
    var names =
        pod.getSpec() == null
            ? List.<String>of()
            : pod.getSpec().getContainers().stream().map(Container::getName).toList();
    if (names.contains(TrainJobWriter.NODE)) {
      return TrainJobWriter.NODE;
    }
    if (names.contains(job) || names.isEmpty()) {
      return job;
    }
    return names.get(0);
  }

  private static boolean isIndex(String index) {
    return index != null && index.matches("[0-9]{1,6}");
  }

  private static ReplicaPod replica(
      String role, int rank, String index, Pod pod, String container) {
    return new ReplicaPod(
        role + "-" + index,
        rank < 0 ? Integer.MAX_VALUE : rank,
        Integer.parseInt(index),
        pod.getMetadata().getName(),
        container);
  }
}
