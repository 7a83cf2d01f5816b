package io.trainyard.backend.vertex;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.aiplatform.v1.AcceleratorType;
import com.google.cloud.aiplatform.v1.ContainerSpec;
import com.google.cloud.aiplatform.v1.EnvVar;
import com.google.cloud.aiplatform.v1.Scheduling;
import com.google.cloud.aiplatform.v1.WorkerPoolSpec;
import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.BackendJob;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class VertexJobMapperTest {
  private static final VertexConfig CONFIG =
      TestJobs.config(
          """
          type: vertex
          id: vx
          region: us-central1
          project: ml-prod
          machineTypes:
            - n1-standard-4
            - {machineType: n1-standard-8, gpuType: nvidia-t4, gpus: 1}
            - a2-highgpu-8g
          serviceAccount: trainer@ml-prod.iam.gserviceaccount.com
          network: projects/1/global/networks/ml
          encryptionKmsKey: projects/ml-prod/locations/us-central1/keyRings/k/cryptoKeys/c
          baseOutputDirectory: gs://ml-out/trainyard
          secrets: {wandb/api-key: projects/ml-prod/secrets/wandb/versions/3}
          """);

  private static com.google.cloud.aiplatform.v1.CustomJob map(String spec, boolean spot) {
    var placements = new VertexPlacements(CONFIG, PriceCatalog.embedded());
    var parsed = TestJobs.spec(spec);
    var placement =
        placements.propose(parsed).placements().stream()
            .filter(p -> p.spot() == spot)
            .findFirst()
            .get();
    var job =
        new BackendJob(
            "01hzzzzzzzzzzzzzzzzzzzzzzz",
            3,
            "NLP Team",
            "alice",
            "bert",
            parsed,
            "F".repeat(64),
            placement,
            Map.of());
    return new VertexJobMapper(CONFIG, placements).customJob(job, placement);
  }

  private static Map<String, String> env(WorkerPoolSpec pool) {
    return pool.getContainerSpec().getEnvList().stream()
        .collect(Collectors.toMap(EnvVar::getName, EnvVar::getValue));
  }

  @Test
  void everyFieldOfTheCustomJobComesFromTheSpecAndTheBlock() {
    var job = map(TestJobs.FULL_SPEC, false);

    assertThat(job.getDisplayName()).isEqualTo("ty-01hzzzzzzzzzzzzzzzzzzzzzzz-a3");
    assertThat(job.getLabelsMap())
        .containsEntry("trainyard-job-id", "01hzzzzzzzzzzzzzzzzzzzzzzz")
        .containsEntry("trainyard-attempt", "3")
        .containsEntry("trainyard-spec-hash", "f".repeat(63))
        .containsEntry("trainyard-team", "nlp_team")
        .containsEntry("trainyard-name", "bert");
    assertThat(job.getEncryptionSpec().getKmsKeyName()).endsWith("/cryptoKeys/c");
    var spec = job.getJobSpec();
    assertThat(spec.getServiceAccount()).isEqualTo("trainer@ml-prod.iam.gserviceaccount.com");
    assertThat(spec.getNetwork()).isEqualTo("projects/1/global/networks/ml");
    assertThat(spec.getBaseOutputDirectory().getOutputUriPrefix()).isEqualTo("gs://ml-out/bert/");
    assertThat(spec.getScheduling().getTimeout().getSeconds()).isEqualTo(6 * 3600);
    assertThat(spec.getScheduling().getRestartJobOnWorkerRestart()).isTrue();
    assertThat(spec.getScheduling().getStrategy())
        .isEqualTo(Scheduling.Strategy.STRATEGY_UNSPECIFIED);
    assertThat(spec.getWorkerPoolSpecsList()).hasSize(2);
    var chief = spec.getWorkerPoolSpecs(0);
    var workers = spec.getWorkerPoolSpecs(1);
    assertThat(chief.getReplicaCount()).isEqualTo(1);
    assertThat(workers.getReplicaCount()).isEqualTo(2);
    assertThat(chief.getMachineSpec().getMachineType()).isEqualTo("a2-highgpu-8g");
    assertThat(chief.getMachineSpec().getAcceleratorType())
        .isEqualTo(AcceleratorType.NVIDIA_TESLA_A100);
    assertThat(chief.getMachineSpec().getAcceleratorCount()).isEqualTo(8);
    ContainerSpec container = chief.getContainerSpec();
    assertThat(container.getImageUri()).isEqualTo("us-docker.pkg.dev/ml-prod/train/bert:1.4");
    assertThat(container.getCommandList()).containsExactly("python", "train.py");
    assertThat(container.getArgsList()).containsExactly("--epochs", "1");
    assertThat(env(chief))
        .containsEntry("HF_DATASETS_OFFLINE", "1")
        .containsEntry("TRAINYARD_ROLE", "master")
        .containsEntry("TRAINYARD_INPUT_TRAIN_DATA", "gs://ml-data/imdb/")
        .containsEntry("TRAINYARD_CHECKPOINT_URI", "gs://ml-ckpt/bert/");
    assertThat(env(workers)).containsEntry("TRAINYARD_ROLE", "worker");
  }

  @Test
  void spotUsesSpotVmsAndNeverDoesNotRestartTheJob() {
    var job = map(TestJobs.FULL_SPEC + "restartPolicy: Never\n", true);

    assertThat(job.getJobSpec().getScheduling().getStrategy()).isEqualTo(Scheduling.Strategy.SPOT);
    assertThat(job.getJobSpec().getScheduling().getRestartJobOnWorkerRestart()).isFalse();
  }

  @Test
  void attachedAcceleratorsAndEmptyPoolsAndSecrets() {
    var job =
        map(
            """
            framework: tensorflow
            image: tf:2
            resources: {gpus: 1, gpuType: nvidia-t4}
            replicas: {chief: 1, ps: 1}
            roles: {ps: {resources: {gpus: 0, cpus: 2}}}
            secretEnv: {WANDB_API_KEY: {secret: wandb, key: api-key}}
            """,
            false);

    var pools = job.getJobSpec().getWorkerPoolSpecsList();
    assertThat(pools).hasSize(3);
    assertThat(pools.get(0).getMachineSpec().getAcceleratorType())
        .isEqualTo(AcceleratorType.NVIDIA_TESLA_T4);
    assertThat(pools.get(1)).isEqualTo(WorkerPoolSpec.getDefaultInstance());
    assertThat(pools.get(2).getMachineSpec().getMachineType()).isEqualTo("n1-standard-4");
    assertThat(pools.get(2).getMachineSpec().getAcceleratorCount()).isZero();
    assertThat(env(pools.get(0)))
        .containsEntry("WANDB_API_KEY_SECRET_VERSION", "projects/ml-prod/secrets/wandb/versions/3")
        .doesNotContainKey("WANDB_API_KEY");
    // no output.uri: the block's directory, one folder per attempt
    assertThat(job.getJobSpec().getBaseOutputDirectory().getOutputUriPrefix())
        .isEqualTo("gs://ml-out/trainyard/ty-01hzzzzzzzzzzzzzzzzzzzzzzz-a3/");
    assertThat(job.getJobSpec().getScheduling().hasTimeout()).isFalse();
  }

  @Test
  void theSpecsObjectLabelsBecomeVertexLabelsWhereVertexAllowsThem() {
    var spec =
        TestJobs.FULL_SPEC
            + "kubernetes:\n  jobLabels: {project: churn, cost-center: nlp-42,"
            + " app.kubernetes.io/name: bert, owner: Alice, trainyard-team: other}\n"
            + "  jobAnnotations: {example.com/auto-resume: 'true'}\n";
    var job = map(spec, false);

    assertThat(job.getLabelsMap())
        .containsEntry("project", "churn")
        .containsEntry("cost-center", "nlp-42")
        .containsEntry("trainyard-team", "nlp_team")
        .doesNotContainKeys("app.kubernetes.io/name", "owner");
    var notes =
        new VertexPlacements(CONFIG, PriceCatalog.embedded())
            .propose(TestJobs.spec(spec))
            .placements()
            .get(0)
            .notes();
    assertThat(notes)
        .contains(
            "spec.kubernetes.jobLabels.app.kubernetes.io/name is not a Vertex label key"
                + " (lower-case letters, digits, _ and -, at most 63, starting with a letter);"
                + " not labelled",
            "spec.kubernetes.jobLabels.owner has a value Vertex labels cannot hold (lower-case"
                + " letters, digits, _ and -); not labelled",
            "spec.kubernetes.jobLabels.trainyard-team uses the prefix of Trainyard's own labels;"
                + " not labelled",
            "spec.kubernetes.jobAnnotations (example.com/auto-resume) are not used: a Vertex"
                + " custom job has no annotations");
  }
}
