package io.trainyard.kubeflow;

import io.trainyard.spi.spec.Framework;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The six {@code kubeflow.org/v1} job kinds of the Kubeflow training operator: their replica-spec
 * field, the container name the operator wires up (it injects rendezvous variables and ports into
 * that container only, and its webhook refuses a replica without one), and their replica types in
 * the framework's rank order, which is also the order of {@link Framework#roles()}.
 */
public enum KubeflowKind {
  PYTORCH_JOB(
      "PyTorchJob",
      Framework.PYTORCH,
      "pytorchReplicaSpecs",
      "pytorch",
      List.of("Master", "Worker")),
  TF_JOB(
      "TFJob",
      Framework.TENSORFLOW,
      "tfReplicaSpecs",
      "tensorflow",
      List.of("Chief", "PS", "Worker", "Evaluator")),
  MPI_JOB("MPIJob", Framework.MPI, "mpiReplicaSpecs", "mpi", List.of("Launcher", "Worker")),
  XGBOOST_JOB(
      "XGBoostJob", Framework.XGBOOST, "xgbReplicaSpecs", "xgboost", List.of("Master", "Worker")),
  // training-operator v1.9.0 (6f74c7f6b2ed6c27aabd82d0a316b23f0646059c),
  // pkg/apis/kubeflow.org/v1/paddlepaddle_types.go: container "paddle", port "master" 36543.
  PADDLE_JOB(
      "PaddleJob", Framework.PADDLE, "paddleReplicaSpecs", "paddle", List.of("Master", "Worker")),
  // Same commit, pkg/apis/kubeflow.org/v1/jax_types.go: container "jax", port "jaxjob-port" 6666.
  JAX_JOB("JAXJob", Framework.JAX, "jaxReplicaSpecs", "jax", List.of("Worker"));

  public static final String API_VERSION = "kubeflow.org/v1";

  /**
   * The MPI Operator v2's MPIJob (kubeflow/mpi-operator {@code pkg/apis/kubeflow/v2beta1}). It
   * shares the CRD {@code mpijobs.kubeflow.org} with the training operator's v1 MPIJob, so a
   * cluster runs one or the other.
   */
  public static final String MPI_V2_API_VERSION = "kubeflow.org/v2beta1";

  private final String kind;
  private final Framework framework;
  private final String replicaSpecsField;
  private final String containerName;
  private final List<String> replicaTypes;

  KubeflowKind(
      String kind,
      Framework framework,
      String replicaSpecsField,
      String containerName,
      List<String> replicaTypes) {
    this.kind = kind;
    this.framework = framework;
    this.replicaSpecsField = replicaSpecsField;
    this.containerName = containerName;
    this.replicaTypes = replicaTypes;
  }

  public String kind() {
    return kind;
  }

  public Framework framework() {
    return framework;
  }

  public String replicaSpecsField() {
    return replicaSpecsField;
  }

  public String containerName() {
    return containerName;
  }

  public List<String> replicaTypes() {
    return replicaTypes;
  }

  /** The spec's role for a replica type ({@code PS} → {@code ps}), if the type is this kind's. */
  public Optional<String> role(String replicaType) {
    var i = replicaTypes.indexOf(replicaType);
    return i < 0 ? Optional.empty() : Optional.of(framework.roles().get(i));
  }

  /** The replica type of one of the framework's roles ({@code ps} → {@code PS}). */
  public String replicaType(String role) {
    var i = framework.roles().indexOf(role);
    if (i < 0) {
      throw new IllegalArgumentException("no role '" + role + "' in " + framework);
    }
    return replicaTypes.get(i);
  }

  public static Optional<KubeflowKind> fromKind(String kind) {
    return Arrays.stream(values()).filter(k -> k.kind.equals(kind)).findFirst();
  }

  public static KubeflowKind of(Framework framework) {
    return Arrays.stream(values())
        .filter(k -> k.framework == framework)
        .findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no Kubeflow kind for " + framework));
  }
}
