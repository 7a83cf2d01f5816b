package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.BackendPhase;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A cluster whose {@code mpijobs.kubeflow.org} is the MPI Operator v2's ({@code v2beta1} only, as
 * on such a cluster) and whose block says {@code mpiOperator: mpi-operator-v2}: an MPI job is
 * created as a {@code kubeflow.org/v2beta1} MPIJob and followed by watch to its end.
 */
class MpiOperatorV2IT extends CrudServerTest {
  private static final String MPI_SPEC =
      """
      framework: mpi
      image: registry.example.com/imb:2021.12-intel
      command: [mpirun, -n, "8", IMB-MPI1]
      resources: {cpus: 4, memory: 8Gi}
      replicas: {launcher: 1, worker: 2}
      processesPerReplica: 4
      kubernetes:
        mpi: {implementation: Intel, sshAuthMountPath: /home/mpiuser/.ssh}
      """;

  @Override
  boolean mpiOperatorV2() {
    return true;
  }

  @Override
  String configYaml() {
    return MpiOperatorV2Test.MPI_V2_CLUSTER;
  }

  @Test
  void anMpiJobIsCreatedAsAV2beta1MpiJobAndFollowedToSucceeded() {
    var ref = submit(job(MPI_SPEC));
    var at = Attempt.of(ref);
    assertThat(at.kind()).isEqualTo(JobKind.MPI_JOB_V2);

    var stored = operator.get(at);
    assertThat(stored.getApiVersion()).isEqualTo("kubeflow.org/v2beta1");
    @SuppressWarnings("unchecked")
    var spec = (Map<String, Object>) stored.getAdditionalProperties().get("spec");
    assertThat(spec)
        .containsEntry("slotsPerWorker", 4)
        .containsEntry("mpiImplementation", "Intel")
        .containsEntry("sshAuthMountPath", "/home/mpiuser/.ssh")
        .containsKey("runPolicy");
    assertThat(backend.status(ref).phase()).isEqualTo(BackendPhase.ADMITTING);

    operator.created(at);
    operator.running(at, Map.of("Launcher", 1, "Worker", 2));
    awaitPhase(ref, BackendPhase.RUNNING);
    operator.succeeded(at);
    var done = awaitPhase(ref, BackendPhase.SUCCEEDED);
    assertThat(done.endedAt()).isNotNull();
  }
}
