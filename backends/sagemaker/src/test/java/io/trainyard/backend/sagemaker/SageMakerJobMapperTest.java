package io.trainyard.backend.sagemaker;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.BackendJob;
import io.trainyard.spi.Placement;
import io.trainyard.spi.PlacementLine;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sagemaker.model.Tag;
import software.amazon.awssdk.services.sagemaker.model.TrainingInputMode;

class SageMakerJobMapperTest {
  private static final SageMakerConfig CONFIG =
      TestJobs.config(
          """
          type: sagemaker
          id: sm
          region: us-east-1
          roleArn: arn:aws:iam::123456789012:role/trainyard
          inputMode: FastFile
          volumeSizeGb: 200
          maxWaitForSpot: 2h
          vpc: {subnets: [subnet-1, subnet-2], securityGroups: [sg-1]}
          networkIsolation: true
          interContainerEncryption: true
          secrets: {wandb/api-key: 'arn:aws:secretsmanager:us-east-1:1:secret:wandb'}
          """);

  private static Placement placement(boolean spot) {
    return new Placement(
        "sm",
        "aws",
        "sagemaker",
        "us-east-1",
        spot,
        List.of(
            new PlacementLine(List.of("master", "worker"), "ml.g5.xlarge", 3, "nvidia-a10g", 1)),
        null,
        null,
        null,
        List.of());
  }

  private static BackendJob job(String extraSpec, boolean spot) {
    var spec = TestJobs.spec(TestJobs.FULL_SPEC + extraSpec);
    return new BackendJob(
        "01hzzzzzzzzzzzzzzzzzzzzzzz",
        2,
        "nlp",
        "alice@example.com",
        "bert",
        spec,
        "abc123",
        placement(spot),
        Map.of());
  }

  @Test
  void everyFieldOfCreateTrainingJobComesFromTheSpecAndTheBlock() {
    var request = new SageMakerJobMapper(CONFIG).request(job("", false), placement(false));

    assertThat(request.trainingJobName()).isEqualTo("ty-01hzzzzzzzzzzzzzzzzzzzzzzz-a2");
    assertThat(request.roleArn()).isEqualTo("arn:aws:iam::123456789012:role/trainyard");
    var algorithm = request.algorithmSpecification();
    assertThat(algorithm.trainingImage())
        .isEqualTo("123456789012.dkr.ecr.us-east-1.amazonaws.com/bert:1.4");
    assertThat(algorithm.trainingInputMode()).isEqualTo(TrainingInputMode.FAST_FILE);
    assertThat(algorithm.containerEntrypoint()).containsExactly("python", "train.py");
    assertThat(algorithm.containerArguments()).containsExactly("--epochs", "1");
    assertThat(request.resourceConfig().instanceTypeAsString()).isEqualTo("ml.g5.xlarge");
    assertThat(request.resourceConfig().instanceCount()).isEqualTo(3);
    assertThat(request.resourceConfig().volumeSizeInGB()).isEqualTo(200);
    assertThat(request.stoppingCondition().maxRuntimeInSeconds()).isEqualTo(6 * 3600);
    assertThat(request.stoppingCondition().maxWaitTimeInSeconds()).isNull();
    assertThat(request.enableManagedSpotTraining()).isFalse();
    assertThat(request.checkpointConfig().s3Uri()).isEqualTo("s3://ml-ckpt/bert/");
    assertThat(request.checkpointConfig().localPath()).isEqualTo("/opt/ml/checkpoints");
    assertThat(request.inputDataConfig())
        .extracting(c -> c.channelName(), c -> c.dataSource().s3DataSource().s3Uri())
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("train", "s3://ml-data/imdb/train/"),
            org.assertj.core.groups.Tuple.tuple("test", "s3://ml-data/imdb/test/"));
    assertThat(request.outputDataConfig().s3OutputPath()).isEqualTo("s3://ml-out/bert/");
    assertThat(request.vpcConfig().subnets()).containsExactly("subnet-1", "subnet-2");
    assertThat(request.vpcConfig().securityGroupIds()).containsExactly("sg-1");
    assertThat(request.enableNetworkIsolation()).isTrue();
    assertThat(request.enableInterContainerTrafficEncryption()).isTrue();
    assertThat(request.retryStrategy().maximumRetryAttempts()).isEqualTo(2);
    assertThat(request.environment())
        .containsEntry("HF_DATASETS_OFFLINE", "1")
        .containsEntry("TRAINYARD_JOB_ID", "01hzzzzzzzzzzzzzzzzzzzzzzz")
        .containsEntry("TRAINYARD_ATTEMPT", "2")
        .containsEntry("TRAINYARD_REPLICAS", "master-0,worker-0,worker-1")
        .containsEntry("TRAINYARD_CHECKPOINT_DIR", "/opt/ml/checkpoints");
    assertThat(request.tags())
        .extracting(Tag::key, Tag::value)
        .contains(
            org.assertj.core.groups.Tuple.tuple("trainyard:job-id", "01hzzzzzzzzzzzzzzzzzzzzzzz"),
            org.assertj.core.groups.Tuple.tuple("trainyard:attempt", "2"),
            org.assertj.core.groups.Tuple.tuple("trainyard:spec-hash", "abc123"),
            org.assertj.core.groups.Tuple.tuple("trainyard:team", "nlp"),
            org.assertj.core.groups.Tuple.tuple("trainyard:owner", "alice@example.com"));
  }

  @Test
  void spotAddsManagedSpotWithAWaitThatCoversTheRun() {
    var request = new SageMakerJobMapper(CONFIG).request(job("", true), placement(true));

    assertThat(request.enableManagedSpotTraining()).isTrue();
    assertThat(request.stoppingCondition().maxWaitTimeInSeconds()).isEqualTo(8 * 3600);
  }

  @Test
  void secretsArriveAsTheirArnNeverAValue() {
    var request =
        new SageMakerJobMapper(CONFIG)
            .request(
                job("secretEnv: {WANDB_API_KEY: {secret: wandb, key: api-key}}\n", false),
                placement(false));

    assertThat(request.environment())
        .containsEntry(
            "WANDB_API_KEY_SECRET_ARN", "arn:aws:secretsmanager:us-east-1:1:secret:wandb")
        .doesNotContainKey("WANDB_API_KEY");
  }

  @Test
  void withoutCommandTheImagesEntrypointIsKeptAndTheRuntimeDefaults() {
    var spec =
        TestJobs.spec(
            "framework: xgboost\nimage: xgb:1\nreplicas: {master: 1}\noutput: {uri: s3://o/}\n");
    var job =
        new BackendJob(
            "01hzzzzzzzzzzzzzzzzzzzzzzz", 1, null, null, null, spec, "h", null, Map.of());

    var request = new SageMakerJobMapper(CONFIG).request(job, placement(false));

    assertThat(request.algorithmSpecification().hasContainerEntrypoint()).isFalse();
    assertThat(request.algorithmSpecification().hasContainerArguments()).isFalse();
    assertThat(request.stoppingCondition().maxRuntimeInSeconds()).isEqualTo(24 * 3600);
    assertThat(request.checkpointConfig()).isNull();
    assertThat(request.retryStrategy()).isNull();
    assertThat(request.tags()).extracting(Tag::key).doesNotContain("trainyard:team");
  }

  @Test
  void theSpecsObjectLabelsBecomeTagsWhereSageMakerAllowsThem() {
    var longKey = "team." + "a".repeat(60) + "." + "b".repeat(60) + ".example.com/x";
    var job =
        job(
            "kubernetes:\n  jobLabels: {project: churn, app.kubernetes.io/name: bert,"
                + " "
                + longKey
                + ": v}\n  jobAnnotations: {example.com/auto-resume: 'true'}\n",
            false);

    var request = new SageMakerJobMapper(CONFIG).request(job, placement(false));

    assertThat(request.tags())
        .contains(
            Tag.builder().key("project").value("churn").build(),
            Tag.builder().key("app.kubernetes.io/name").value("bert").build())
        .extracting(Tag::key)
        .contains("trainyard:job-id")
        .doesNotContain(longKey);
    assertThat(SageMakerUserTags.of(job.spec(), 6).leftOut())
        .containsExactly(
            "spec.kubernetes.jobLabels."
                + longKey
                + " is not a SageMaker tag key (at most 128 letters, digits, spaces and"
                + " _.:/=+-@); not tagged",
            "spec.kubernetes.jobAnnotations (example.com/auto-resume) are not used: a SageMaker"
                + " training job has no annotations");
  }
}
