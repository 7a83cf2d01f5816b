package io.trainyard.backend.kubernetes;

import io.trainyard.kubeflow.KubeflowKind;
import io.trainyard.kubeflow.KubeflowWriter.MpiOperator;
import io.trainyard.kubeflow.TrainJobWriter;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The kinds of job object this backend creates and follows: the training operator's six {@code
 * kubeflow.org/v1} kinds (flavor {@code kubeflow-v1}), the MPI Operator v2's {@code
 * kubeflow.org/v2beta1} MPIJob (a cluster with {@code mpiOperator: mpi-operator-v2}) and Kubeflow
 * Trainer's {@code trainer.kubeflow.org/v1alpha1} {@code TrainJob} (flavor {@code trainer-v2}).
 * Each knows its API coordinates, how its controller writes status ({@link JobStatusReader}) and
 * how its pods are labelled ({@link ReplicaPod}).
 */
enum JobKind {
  PYTORCH_JOB(KubeflowKind.PYTORCH_JOB),
  TF_JOB(KubeflowKind.TF_JOB),
  MPI_JOB(KubeflowKind.MPI_JOB),
  /**
   * The MPI Operator v2's MPIJob (kubeflow/mpi-operator {@code pkg/apis/kubeflow/v2beta1}): the
   * same CRD {@code mpijobs.kubeflow.org}, served at {@code v2beta1}; its status conditions and pod
   * labels ({@code training.kubeflow.org/job-name}, {@code replica-type}, {@code replica-index})
   * are the training operator's.
   */
  MPI_JOB_V2("kubeflow.org", "v2beta1", KubeflowKind.MPI_JOB.kind(), KubeflowKind.MPI_JOB),
  XGBOOST_JOB(KubeflowKind.XGBOOST_JOB),
  PADDLE_JOB(KubeflowKind.PADDLE_JOB),
  JAX_JOB(KubeflowKind.JAX_JOB),
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

  /**
   * The training operator's kind, for a v1 job (and the MPI Operator v2's); empty for a TrainJob.
   */
  Optional<KubeflowKind> v1() {
    return Optional.ofNullable(v1);
  }

  /** How this kind's controller writes {@code status}. */
  JobStatusReader status() {
    return v1 != null ? OperatorStatus.READER : TrainJobStatus.READER;
  }

  /** The training operator's kind; for MPI, its v1 MPIJob. */
  static JobKind of(KubeflowKind kind) {
    return Arrays.stream(values()).filter(k -> k.v1 == kind).findFirst().orElseThrow();
  }

  /** The kind of object {@code kind} is on a cluster whose MPIJobs {@code mpiOperator} serves. */
  static JobKind of(KubeflowKind kind, MpiOperator mpiOperator) {
    return kind == KubeflowKind.MPI_JOB && mpiOperator == MpiOperator.MPI_OPERATOR_V2
        ? MPI_JOB_V2
        : of(kind);
  }

  /** {@code group/version}. */
  String apiVersion() {
    return group + "/" + version;
  }

  /** The first kind so named: for {@code MPIJob}, the training operator's v1. */
  static Optional<JobKind> fromKind(String kind) {
    return Arrays.stream(values()).filter(k -> k.kind.equals(kind)).findFirst();
  }

  /**
   * The kind so named at {@code apiVersion}; a null apiVersion (references made before the MPI
   * Operator v2 was supported) is {@link #fromKind}.
   */
  static Optional<JobKind> fromKind(String kind, String apiVersion) {
    if (apiVersion == null) {
      return fromKind(kind);
    }
    return Arrays.stream(values())
        .filter(k -> k.kind.equals(kind) && k.apiVersion().equals(apiVersion))
        .findFirst();
  }
}
