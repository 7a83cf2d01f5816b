package io.trainyard.kubeflow;

import static io.trainyard.kubeflow.NodeReader.absent;
import static io.trainyard.kubeflow.NodeReader.at;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.MpiOptions;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The MPI Operator v2's {@code kubeflow.org/v2beta1} MPIJob spec, both ways. Its API, as of
 * kubeflow/mpi-operator commit caa3c47fc42eb762635f78045ec0fcd1a89eb038: {@code
 * pkg/apis/kubeflow/v2beta1/types.go} ({@code MPIJobSpec}: {@code slotsPerWorker}, {@code
 * runLauncherAsWorker}, {@code runPolicy}, {@code mpiReplicaSpecs}, {@code sshAuthMountPath},
 * {@code launcherCreationPolicy}, {@code mpiImplementation}) and {@code default.go} (slotsPerWorker
 * 1, sshAuthMountPath {@code /root/.ssh}, mpiImplementation {@code OpenMPI}, launcherCreationPolicy
 * {@code AtStartup}, cleanPodPolicy {@code None}, Launcher replicas 1, Worker replicas 0).
 *
 * <p>Read: {@code slotsPerWorker} → {@code processesPerReplica}; {@code runPolicy} as the v1 reader
 * reads it ({@code managedBy} only at this operator's own {@code kubeflow.org/mpi-operator});
 * {@code mpiImplementation}, {@code launcherCreationPolicy}, {@code sshAuthMountPath} → {@code
 * spec.kubernetes.mpi} when they differ from the operator's defaults (at a default they are left
 * out silently: the writer writes the defaults, and they change nothing the operator runs); {@code
 * runLauncherAsWorker: true} (the launcher pod also runs ranks, with the resources its own template
 * asks for, which are priced as written) → {@code spec.kubernetes.mpi.runLauncherAsWorker}, its
 * default {@code false} left out with a warning; a Worker without {@code replicas} is refused (this
 * operator defaults it to 0, the v1 operator to 1: the author's intent is unclear).
 */
final class MpiV2Fields {
  static final String MANAGER = "kubeflow.org/mpi-operator";

  private static final Set<String> SPEC_FIELDS =
      Set.of(
          "slotsPerWorker",
          "runLauncherAsWorker",
          "runPolicy",
          "mpiReplicaSpecs",
          "sshAuthMountPath",
          "launcherCreationPolicy",
          "mpiImplementation");

  private MpiV2Fields() {}

  static JobSpec spec(
      ObjectNode spec,
      Map<String, String> jobLabels,
      Map<String, String> jobAnnotations,
      NodeReader nodes) {
    var kind = KubeflowKind.MPI_JOB;
    nodes.onlyKnown(spec, "spec", SPEC_FIELDS, Map.of(), "a kubeflow.org/v2beta1 MPIJob spec");
    if (spec.path("mpiReplicaSpecs").path("Worker").isObject()
        && absent(spec.path("mpiReplicaSpecs").path("Worker").get("replicas"))) {
      nodes
          .findings()
          .refuse(
              "spec.mpiReplicaSpecs.Worker.replicas",
              "is required: the MPI Operator v2 defaults it to 0 (no workers), the training"
                  + " operator to 1; write the number of workers");
    }
    var replicas = new ReplicaSpecsReader(kind, nodes).read(spec);
    var runPolicy =
        RunPolicyMapping.read(spec.get("runPolicy"), "spec.runPolicy", jobLabels, nodes, MANAGER);
    var launcherAsWorker = launcherAsWorker(spec.get("runLauncherAsWorker"), nodes);
    var slots = nodes.integer(spec.get("slotsPerWorker"), "spec.slotsPerWorker", 1);
    var mpi =
        new MpiOptions(
            oneOf(
                spec.get("mpiImplementation"),
                "spec.mpiImplementation",
                MpiOptions.IMPLEMENTATIONS,
                MpiOptions.DEFAULT_IMPLEMENTATION,
                nodes),
            oneOf(
                spec.get("launcherCreationPolicy"),
                "spec.launcherCreationPolicy",
                MpiOptions.LAUNCHER_CREATION_POLICIES,
                MpiOptions.DEFAULT_LAUNCHER_CREATION_POLICY,
                nodes),
            sshAuthMountPath(spec.get("sshAuthMountPath"), nodes),
            launcherAsWorker);
    if (replicas.isEmpty() || nodes.findings().hasErrors()) {
      return null;
    }
    return KubeflowReader.jobSpec(
        kind,
        replicas,
        runPolicy,
        runPolicy.pods(),
        slots,
        null,
        jobLabels,
        jobAnnotations,
        mpi.equals(new MpiOptions(null, null, null)) ? null : mpi);
  }

  /** {@code true}, or null for the operator's default (said in a warning when written). */
  private static Boolean launcherAsWorker(JsonNode node, NodeReader nodes) {
    if (node != null && node.isBoolean() && node.booleanValue()) {
      return Boolean.TRUE;
    }
    nodes.defaultOnly(
        node, "spec.runLauncherAsWorker", BooleanNode.FALSE, "must be a boolean (true or false)");
    return null;
  }

  /** The value, or null when absent or at the operator's default; refused when not one of. */
  private static String oneOf(
      JsonNode node, String path, Set<String> allowed, String defaultValue, NodeReader nodes) {
    var text = nodes.text(node, path);
    if (text == null || text.equals(defaultValue)) {
      return null;
    }
    if (!allowed.contains(text)) {
      nodes
          .findings()
          .refuse(
              path, "'" + text + "' must be one of " + String.join(", ", new TreeSet<>(allowed)));
      return null;
    }
    return text;
  }

  private static String sshAuthMountPath(JsonNode node, NodeReader nodes) {
    var path = "spec.sshAuthMountPath";
    var text = nodes.text(node, path);
    if (text == null || text.equals(MpiOptions.DEFAULT_SSH_AUTH_MOUNT_PATH)) {
      return null;
    }
    var errors = new MpiOptions(null, null, text).validate("spec");
    if (!errors.isEmpty()) {
      nodes.findings().refuse(path, errors.get(0).message());
      return null;
    }
    return text;
  }

  /**
   * The v2beta1-only spec fields of {@code spec} into {@code target}: the MPI settings (each
   * written, at the operator's default when unset, so the document says what runs).
   */
  static void write(JobSpec spec, ObjectNode target) {
    var mpi =
        spec.kubernetes() == null || spec.kubernetes().mpi() == null
            ? new MpiOptions(null, null, null)
            : spec.kubernetes().mpi();
    target.put(
        "mpiImplementation",
        mpi.implementation() == null ? MpiOptions.DEFAULT_IMPLEMENTATION : mpi.implementation());
    target.put(
        "launcherCreationPolicy",
        mpi.launcherCreationPolicy() == null
            ? MpiOptions.DEFAULT_LAUNCHER_CREATION_POLICY
            : mpi.launcherCreationPolicy());
    target.put(
        "sshAuthMountPath",
        mpi.sshAuthMountPath() == null
            ? MpiOptions.DEFAULT_SSH_AUTH_MOUNT_PATH
            : mpi.sshAuthMountPath());
    if (Boolean.TRUE.equals(mpi.runLauncherAsWorker())) {
      target.put("runLauncherAsWorker", true);
    }
  }

  /** A path under {@code spec.kubernetes.mpi}. */
  static String field(String name) {
    return at("spec.kubernetes.mpi", name);
  }
}
