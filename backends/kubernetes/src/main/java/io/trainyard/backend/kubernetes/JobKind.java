package io.trainyard.backend.kubernetes;

import io.trainyard.kubeflow.KubeflowKind;
import io.trainyard.kubeflow.TrainJobWriter;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The kinds of job object this backend creates and follows: the training operator's four {@code
 * kubeflow.org/v1} kinds (flavor {@code kubeflow-v1}) and Kubeflow Trainer's {@code
 * trainer.kubeflow.org/v1alpha1} {@code TrainJob} (flavor {@code trainer-v2}). Each knows its API
 * coordinates, how its controller writes status ({@link JobStatusReader}) and how its pods are
 * labelled ({@link ReplicaPod}).
 */
enum JobKind {
  PYTORCH_JOB(KubeflowKind.PYTORCH_JOB),
  TF_JOB(KubeflowKind.TF_JOB),
  MPI_JOB(KubeflowKind.MPI_JOB),
  XGBOOST_JOB(KubeflowKind.XGBOOST_JOB),
  TRAIN_JOB("trainer.kubeflow.org", "v1alpha1", TrainJobWriter.KIND, null);

  private final String group;
  private final String version;
  private final String kind;
  private final KubeflowKind v1;

  JobKind(KubeflowKind v1) {
    this("kubeflow.org", "v1", v1.kind(), v1);
  }

  JobKind(String group, String version, String kind, KubeflowKind v1) {
    this.group = group;
    this.version = version;
    this.kind = kind;
    this.v1 = v1;
  }

  String group() {
    return group;
  }

  String version() {
    return version;
  }

  String kind() {
    return kind;
  }

  /** The resource's plural, as both CRDs name it: {@code pytorchjobs}, {@code trainjobs}. */
  String plural() {
    return kind.toLowerCase(Locale.ROOT) + "s";
  }

  /** The training operator's kind, for a v1 job; empty for a TrainJob. */
  Optional<KubeflowKind> v1() {
    return Optional.ofNullable(v1);
  }

  /** How this kind's controller writes {@code status}. */
  JobStatusReader status() {
    return v1 != null ? OperatorStatus.READER : TrainJobStatus.READER;
  }

  static JobKind of(KubeflowKind kind) {
    return Arrays.stream(values()).filter(k -> k.v1 == kind).findFirst().orElseThrow();
  }

  static Optional<JobKind> fromKind(String kind) {
    return Arrays.stream(values()).filter(k -> k.kind.equals(kind)).findFirst();
  }
}
