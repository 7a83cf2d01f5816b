package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.trainyard.cost.PriceCatalog;
import io.trainyard.kubeflow.KubeflowWriter.MpiOperator;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.Rejection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A cluster block's {@code mpiOperator}: which MPIJob an MPI job is rendered as, what the training
 * operator's v1 MPIJob refuses, and the MPI Operator v2's status conditions read as phases.
 */
class MpiOperatorV2Test {
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String MPI_V2_CLUSTER =
      TestJobs.AWS_POOLS.replace(
          "provider: aws\n", "provider: aws\nmpiOperator: mpi-operator-v2\n");
  private static final String INTEL_SPEC =
      """
      framework: mpi
      image: registry.example.com/imb:2021.12-intel
      command: [mpirun, -n, "8", IMB-MPI1]
      resources: {cpus: 4, memory: 8Gi}
      replicas: {launcher: 1, worker: 2}
      processesPerReplica: 4
      kubernetes:
        mpi: {implementation: Intel, launcherCreationPolicy: WaitForWorkersReady}
      """;

  @Test
  void anMpiOperatorV2ClusterCreatesAV2beta1MpiJob() {
    var cluster = TestJobs.config(MPI_V2_CLUSTER).settings();
    var job = job(cluster, INTEL_SPEC);

    var object = tree(new KubeflowJobRenderer(cluster).desired(job, job.placement()));

    assertThat(cluster.mpiOperator()).isEqualTo(MpiOperator.MPI_OPERATOR_V2);
    assertThat(new KubeflowJobRenderer(cluster).kind(job)).isEqualTo(JobKind.MPI_JOB_V2);
    assertThat(object.get("apiVersion").asText()).isEqualTo("kubeflow.org/v2beta1");
    assertThat(object.get("kind").asText()).isEqualTo("MPIJob");
    assertThat(object.at("/spec/slotsPerWorker").asInt()).isEqualTo(4);
    assertThat(object.at("/spec/mpiImplementation").asText()).isEqualTo("Intel");
    assertThat(object.at("/spec/launcherCreationPolicy").asText()).isEqualTo("WaitForWorkersReady");
    assertThat(object.at("/spec/sshAuthMountPath").asText()).isEqualTo("/root/.ssh");
    assertThat(object.at("/spec/mpiReplicaSpecs/Worker/replicas").asInt()).isEqualTo(2);
  }

  @Test
  void aTrainingOperatorClusterRendersTheV1MpiJob() {
    var cluster = TestJobs.config(TestJobs.AWS_POOLS).settings();
    var job = job(cluster, "framework: mpi\nimage: i\nreplicas: {launcher: 1, worker: 2}\n");

    var object = tree(new KubeflowJobRenderer(cluster).desired(job, job.placement()));

    assertThat(cluster.mpiOperator()).isEqualTo(MpiOperator.TRAINING_OPERATOR);
    assertThat(new KubeflowJobRenderer(cluster).kind(job)).isEqualTo(JobKind.MPI_JOB);
    assertThat(object.get("apiVersion").asText()).isEqualTo("kubeflow.org/v1");
    assertThat(object.path("spec").has("mpiImplementation")).isFalse();
  }

  @Test
  void aTrainingOperatorClusterRejectsWhatTheV1MpiJobCannotSayNamingTheField() {
    var cluster = TestJobs.config(TestJobs.AWS_POOLS).settings();

    var proposals =
        new KubernetesPlacements(cluster, PriceCatalog.embedded())
            .propose(TestJobs.spec(INTEL_SPEC));

    assertThat(proposals.placements()).isEmpty();
    assertThat(proposals.rejections())
        .extracting(Rejection::reason)
        .anySatisfy(r -> assertThat(r).startsWith("spec.kubernetes.mpi.implementation: "))
        .anySatisfy(r -> assertThat(r).startsWith("spec.kubernetes.mpi.launcherCreationPolicy: "));
  }

  @Test
  void anUnknownMpiOperatorIsRefusedWhenTheBlockIsRead() {
    assertThatThrownBy(
            () ->
                TestJobs.config(
                    TestJobs.AWS_POOLS.replace(
                        "provider: aws\n", "provider: aws\nmpiOperator: mpi-operator-v1\n")))
        .hasStackTraceContaining(
            "mpiOperator must be training-operator or mpi-operator-v2, not mpi-operator-v1");
  }

  @Test
  void theReferenceOfAV2beta1AttemptNamesItsVersion() {
    var at = new Attempt(JobKind.MPI_JOB_V2, "nlp-jobs", "ty-x-a1");

    assertThat(Attempt.of(at.ref("k8s"))).isEqualTo(at);
    var v1 = new Attempt(JobKind.MPI_JOB, "nlp-jobs", "ty-x-a1");
    assertThat(Attempt.of(v1.ref("k8s"))).isEqualTo(v1);
    assertThat(v1.ref("k8s").attributes()).doesNotContainKey("apiVersion");
  }

  /** The MPI Operator v2's conditions, with its own reasons and messages. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "created | created | ADMITTING | MPIJob n/j is created.",
        "running | created running | RUNNING | MPIJob n/j is running.",
        "succeeded | created ran succeeded | SUCCEEDED | MPIJob n/j successfully completed.",
        "failed | created ran failed | FAILED | MPIJob n/j has failed",
        "suspended | created suspended | SUSPENDED | MPIJob n/j is suspended.",
      })
  void theMpiOperatorV2sConditionsMapToPhases(
      String name, String conditions, BackendPhase phase, String reason) {
    var byName =
        java.util.Map.of(
            "created", cond("Created", "True", "MPIJobCreated", "MPIJob n/j is created."),
            "running", cond("Running", "True", "MPIJobRunning", "MPIJob n/j is running."),
            "ran", cond("Running", "False", "MPIJobRunning", "MPIJob n/j is running."),
            "succeeded",
                cond("Succeeded", "True", "MPIJobSucceeded", "MPIJob n/j successfully completed."),
            "failed", cond("Failed", "True", "MPIJobFailed", "MPIJob n/j has failed"),
            "suspended", cond("Suspended", "True", "MPIJobSuspended", "MPIJob n/j is suspended."));
    var expanded =
        "["
            + java.util.Arrays.stream(conditions.split(" "))
                .map(byName::get)
                .collect(java.util.stream.Collectors.joining(", "))
            + "]";
    var job =
        Serialization.unmarshal(
            "apiVersion: kubeflow.org/v2beta1\nkind: MPIJob\nmetadata: {name: j, namespace: n,"
                + " creationTimestamp: '2026-01-05T09:59:58Z'}\nstatus: {conditions: "
                + expanded
                + "}\n",
            GenericKubernetesResource.class);

    var status = JobKind.MPI_JOB_V2.status().of(job);

    assertThat(status.phase()).isEqualTo(phase);
    assertThat(status.reason()).isEqualTo(reason);
  }

  private static String cond(String type, String status, String reason, String message) {
    return "{type: "
        + type
        + ", status: '"
        + status
        + "', reason: "
        + reason
        + ", message: '"
        + message
        + "', lastTransitionTime: '2026-01-05T10:00:00Z'}";
  }

  private static BackendJob job(ClusterSettings cluster, String specYaml) {
    var spec = TestJobs.spec(specYaml);
    var proposals = new KubernetesPlacements(cluster, PriceCatalog.embedded()).propose(spec);
    assertThat(proposals.rejections()).isEmpty();
    return TestJobs.job(
        "01hzx3kq7v8m2n4p6r8t0w2y4a", spec, "ab".repeat(32), proposals.placements().get(0));
  }

  private static JsonNode tree(Object resource) {
    try {
      return JSON.readTree(Serialization.asJson(resource));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
