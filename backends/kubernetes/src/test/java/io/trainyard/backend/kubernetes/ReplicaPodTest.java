package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.trainyard.kubeflow.KubeflowKind;
import org.junit.jupiter.api.Test;

class ReplicaPodTest {
  @Test
  void anMpiJobsLogsComeFromItsFirstContainerWhateverItsName() {
    var replica = ReplicaPod.of(JobKind.of(KubeflowKind.MPI_JOB), pod("launcher", "mpi-launcher"));
    assertThat(replica).get().extracting(ReplicaPod::container).isEqualTo("mpi-launcher");
    assertThat(replica).get().extracting(ReplicaPod::replica).isEqualTo("launcher-0");
  }

  @Test
  void aPyTorchJobsLogsComeFromItsPytorchContainer() {
    var replica = ReplicaPod.of(JobKind.of(KubeflowKind.PYTORCH_JOB), pod("worker", "proxy"));
    assertThat(replica).get().extracting(ReplicaPod::container).isEqualTo("pytorch");
  }

  @Test
  void paddleAndJaxJobsLogsComeFromTheContainerTheOperatorWiresUp() {
    var paddle = ReplicaPod.of(JobKind.PADDLE_JOB, pod("master", "proxy"));
    var jax = ReplicaPod.of(JobKind.JAX_JOB, pod("worker", "proxy"));
    assertThat(paddle).get().extracting(ReplicaPod::container).isEqualTo("paddle");
    assertThat(paddle).get().extracting(ReplicaPod::replica).isEqualTo("master-0");
    assertThat(jax).get().extracting(ReplicaPod::container).isEqualTo("jax");
    assertThat(jax).get().extracting(ReplicaPod::replica).isEqualTo("worker-0");
  }

  private static Pod pod(String type, String firstContainer) {
    return new PodBuilder()
        .withNewMetadata()
        .withName("ty-job-a1-" + type + "-0")
        .addToLabels(ReplicaPod.REPLICA_TYPE_LABEL, type)
        .addToLabels(ReplicaPod.REPLICA_INDEX_LABEL, "0")
        .endMetadata()
        .withNewSpec()
        .addNewContainer()
        .withName(firstContainer)
        .withImage("horovod/horovod:0.28.1")
        .endContainer()
        .addNewContainer()
        .withName("pytorch")
        .withImage("pytorch/pytorch:2.3.0")
        .endContainer()
        .endSpec()
        .build();
  }
}
