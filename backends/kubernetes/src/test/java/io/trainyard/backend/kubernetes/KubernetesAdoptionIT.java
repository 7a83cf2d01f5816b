package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendJob;
import org.junit.jupiter.api.Test;

/** Submit is idempotent per attempt: a restarted gateway adopts its own object and no other. */
class KubernetesAdoptionIT extends CrudServerTest {
  private static final String WITH_DEEPSPEED =
      SPEC + "deepspeed: {zero_optimization: {stage: 2}, fp16: {enabled: true}}\n";

  @Test
  void aRestartedGatewayAdoptsTheObjectOfTheSameAttemptAndCreatesNothingTwice() {
    var job = job(WITH_DEEPSPEED);
    var ref = submit(job);
    var restarted = newBackend();
    assertThat(restarted.submit(job)).isEqualTo(ref);
    assertThat(restarted.submit(job)).isEqualTo(ref);

    var jobs =
        cluster
            .client()
            .genericKubernetesResources(KubeflowJobApi.context(JobKind.PYTORCH_JOB))
            .inNamespace("nlp-jobs")
            .list()
            .getItems();
    assertThat(jobs).hasSize(1);
    var configs = cluster.client().configMaps().inNamespace("nlp-jobs").list().getItems();
    assertThat(configs).hasSize(1);
    var config = configs.get(0);
    assertThat(config.getMetadata().getName()).isEqualTo(job.objectName() + "-deepspeed");
    assertThat(config.getMetadata().getOwnerReferences())
        .singleElement()
        .satisfies(
            owner -> {
              assertThat(owner.getKind()).isEqualTo("PyTorchJob");
              assertThat(owner.getName()).isEqualTo(job.objectName());
              assertThat(owner.getUid()).isEqualTo(jobs.get(0).getMetadata().getUid());
            });
    assertThat(config.getData().get("ds_config.json"))
        .contains("\"zero_optimization\"", "\"stage\" : 2");
  }

  @Test
  void anObjectOfTheSameNameWithAnotherSpecHashIsNotAdopted() {
    var job = job(SPEC);
    submit(job);
    var edited =
        new BackendJob(
            job.jobId(),
            job.attempt(),
            job.team(),
            job.owner(),
            job.name(),
            job.spec(),
            "f".repeat(64),
            job.placement(),
            job.settings());
    assertThatThrownBy(() -> newBackend().submit(edited))
        .isInstanceOf(BackendException.Rejected.class)
        .hasMessageContaining("already exists and is not this attempt")
        .hasMessageContaining("spec-hash " + "0".repeat(63));
  }

  @Test
  void anObjectOfTheSameNameMadeByOthersIsNotAdopted() {
    var job = job(SPEC);
    cluster
        .client()
        .genericKubernetesResources(KubeflowJobApi.context(JobKind.PYTORCH_JOB))
        .inNamespace("nlp-jobs")
        .resource(
            new GenericKubernetesResourceBuilder()
                .withApiVersion("kubeflow.org/v1")
                .withKind("PyTorchJob")
                .withNewMetadata()
                .withName(job.objectName())
                .withNamespace("nlp-jobs")
                .endMetadata()
                .build())
        .create();
    assertThatThrownBy(() -> backend.submit(job))
        .isInstanceOf(BackendException.Rejected.class)
        .hasMessageContaining("job-id null");
  }
}
