package io.trainyard.kubeflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.kubeflow.KubeflowWriter.MpiOperator;
import io.trainyard.kubeflow.KubeflowWriter.RenderOptions;
import io.trainyard.spi.spec.FieldError;
import io.trainyard.spi.spec.JobSpecValidator;
import io.trainyard.spi.spec.KubernetesOnly;
import io.trainyard.spi.spec.MpiOptions;
import io.trainyard.spi.spec.TrainingJob;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The MPI Operator v2's {@code kubeflow.org/v2beta1} MPIJob: what the reader makes of its own
 * fields, round trips through the writer on both operators, and what the training operator's v1
 * MPIJob cannot say.
 */
class MpiV2ReaderTest {
  private static final String INTEL = "golden/mpi-v2-intel-wait-for-workers/input.yaml";
  private static final String DEFAULTS = "golden/mpi-v2-openmpi-defaults/input.yaml";

  private final KubeflowReader reader = new KubeflowReader();
  private final KubeflowWriter writer = new KubeflowWriter();
  private final CrdSchemaChecker crd = new CrdSchemaChecker();

  @Test
  void carriesTheMpiSettingsAndSlotsPerWorker() {
    var spec = reader.read(TestDocuments.document(INTEL)).job().spec();

    assertThat(spec.processesPerReplica()).isEqualTo(4);
    assertThat(spec.kubernetes().mpi())
        .isEqualTo(new MpiOptions("Intel", "WaitForWorkersReady", "/home/mpiuser/.ssh"));
    assertThat(spec.maxRuntime()).isEqualTo("2h");
    assertThat(spec.maxRestarts()).isEqualTo(2);
    assertThat(spec.kubernetes().scheduling().queue()).isEqualTo("hpc");
  }

  @Test
  void theTrimmedV2beta1CrdIsTheOneCheckedAndCatchesWhatTheApiServerWould() {
    var bad = RefusalsTest.change("mpi2", "/spec/mpiImplementation", "MVAPICH");
    RefusalsTest.change(bad, "/spec/mainContainer", "mpi");

    assertThat(crd.check(bad))
        .containsExactlyInAnyOrder(
            "spec.mpiImplementation: must be one of [\"OpenMPI\",\"Intel\",\"MPICH\"]",
            "spec.mainContainer: is not in the schema");
  }

  /** The launcher as one of the hosts: the v2 operator runs it, the v1 MPIJob cannot say it. */
  @Test
  void aLauncherThatAlsoRunsRanksIsCarriedToTheV2OperatorOnly() {
    var document = RefusalsTest.change("mpi2", "/spec/runLauncherAsWorker", "true");
    var job = reader.read(document).job();
    assertThat(new JobSpecValidator().validate(job)).isEmpty();
    assertThat(job.spec().kubernetes().mpi().runLauncherAsWorker()).isTrue();
    assertThat(KubernetesOnly.reasons(job.spec()))
        .anySatisfy(
            r ->
                assertThat(r).contains("spec.kubernetes.mpi sets").contains("runLauncherAsWorker"));

    var v2 = writer.write(job, RenderOptions.DEFAULTS, MpiOperator.MPI_OPERATOR_V2);
    assertThat(v2.at("/spec/runLauncherAsWorker").asBoolean()).isTrue();
    assertThat(crd.check(v2)).isEmpty();
    assertThat(reader.read(v2).job()).isEqualTo(job);
    assertThat(KubeflowWriter.unsupported(job.spec(), MpiOperator.TRAINING_OPERATOR))
        .extracting(FieldError::field)
        .contains("spec.kubernetes.mpi.runLauncherAsWorker");
  }

  @Test
  void settingsAtTheOperatorsDefaultsAreLeftOut() {
    var document = RefusalsTest.change("mpi2", "/spec/mpiImplementation", "OpenMPI");
    RefusalsTest.change(document, "/spec/launcherCreationPolicy", "AtStartup");
    RefusalsTest.change(document, "/spec/sshAuthMountPath", "/root/.ssh");

    var spec = reader.read(document).job().spec();

    assertThat(spec.kubernetes().mpi()).isNull();
    assertThat(KubernetesOnly.reasons(spec)).noneMatch(r -> r.contains("spec.kubernetes.mpi"));
  }

  @ParameterizedTest
  @CsvSource({INTEL, DEFAULTS, "golden/mpi-launcher-worker/input.yaml"})
  void readOfWriteIsTheSpecOnAnMpiOperatorV2Cluster(String resource) {
    var job = reader.read(TestDocuments.document(resource)).job();

    var rendered = writer.write(job, RenderOptions.DEFAULTS, MpiOperator.MPI_OPERATOR_V2);

    assertThat(rendered.path("apiVersion").asText()).isEqualTo("kubeflow.org/v2beta1");
    assertThat(crd.check(rendered)).isEmpty();
    assertThat(reader.read(rendered).job()).isEqualTo(job);
  }

  @Test
  void aV2DocumentWithoutV2SettingsRendersAsV1OnATrainingOperatorCluster() {
    var job = reader.read(TestDocuments.document(DEFAULTS)).job();

    var rendered = writer.write(job, RenderOptions.DEFAULTS, MpiOperator.TRAINING_OPERATOR);

    assertThat(rendered.path("apiVersion").asText()).isEqualTo("kubeflow.org/v1");
    assertThat(rendered.path("spec").has("mpiImplementation")).isFalse();
    assertThat(crd.check(rendered)).isEmpty();
    assertThat(reader.read(rendered).job()).isEqualTo(job);
  }

  @Test
  void theV1MpiJobRefusesWhatItCannotSayNamingTheField() {
    var job = reader.read(TestDocuments.document(INTEL)).job();

    assertThatThrownBy(() -> writer.write(job))
        .isInstanceOfSatisfying(
            KubeflowConversionException.class,
            e ->
                assertThat(e.errors())
                    .extracting(FieldError::field)
                    .containsExactly(
                        "spec.kubernetes.mpi.implementation",
                        "spec.kubernetes.mpi.launcherCreationPolicy",
                        "spec.kubernetes.mpi.sshAuthMountPath"));
    assertThat(KubeflowWriter.unsupported(job.spec(), MpiOperator.TRAINING_OPERATOR))
        .first()
        .extracting(FieldError::message)
        .asString()
        .contains("mpiOperator: mpi-operator-v2");
  }

  @Test
  void managedBackendsAreToldWhatOnlyTheMpiOperatorCanDo() {
    var spec = reader.read(TestDocuments.document(INTEL)).job().spec();

    assertThat(KubernetesOnly.reasons(spec))
        .contains(
            "spec.kubernetes.mpi sets implementation, launcherCreationPolicy, sshAuthMountPath,"
                + " which only the MPI Operator v2 (a Kubernetes cluster with mpiOperator:"
                + " mpi-operator-v2) can honour");
  }

  @Test
  void theSpecValidatorNamesEachBadMpiField() throws Exception {
    var tree =
        (com.fasterxml.jackson.databind.node.ObjectNode)
            TestDocuments.tree(reader.read(TestDocuments.document(DEFAULTS)).job());
    ((com.fasterxml.jackson.databind.node.ObjectNode) tree.get("spec"))
        .putObject("kubernetes")
        .putObject("mpi")
        .put("implementation", "MVAPICH")
        .put("launcherCreationPolicy", "Later")
        .put("sshAuthMountPath", "ssh");
    var bad = TestDocuments.SPECS.treeToValue(tree, TrainingJob.class);

    assertThat(new JobSpecValidator().validate(bad))
        .extracting(FieldError::field)
        .contains(
            "spec.kubernetes.mpi.implementation",
            "spec.kubernetes.mpi.launcherCreationPolicy",
            "spec.kubernetes.mpi.sshAuthMountPath");
  }
}
