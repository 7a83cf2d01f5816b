package io.trainyard.backend.sagemaker;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.InstanceShapes;
import io.trainyard.spi.Placement;
import io.trainyard.spi.PlacementLine;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.Rejection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SageMakerPlacementsTest {
  private static final String BASE =
      """
      framework: pytorch
      image: bert:1.4
      output: {uri: s3://ml-out/bert/}
      """;

  private static SageMakerConfig config(String extra) {
    return TestJobs.config(
        """
        type: sagemaker
        id: sm
        region: us-east-1
        roleArn: arn:aws:iam::123456789012:role/trainyard
        """
            + extra);
  }

  private static Proposals propose(String specYaml) {
    return propose(config(""), specYaml);
  }

  private static Proposals propose(SageMakerConfig config, String specYaml) {
    return new SageMakerPlacements(config, PriceCatalog.embedded())
        .propose(TestJobs.spec(BASE + specYaml));
  }

  private static List<String> types(Proposals p, boolean spot) {
    return p.placements().stream()
        .filter(x -> x.spot() == spot)
        .map(x -> x.lines().get(0).instanceType())
        .toList();
  }

  private static List<String> reasons(Proposals p) {
    return p.rejections().stream().map(Rejection::reason).toList();
  }

  /** Which catalog ml.* types fit one replica, smallest first. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          {cpus: 4, memory: 16Gi}                               | ml.m5.2xlarge
          {gpus: 1, gpuType: nvidia-a10g, cpus: 4, memory: 16Gi} | ml.g5.xlarge ml.g5.12xlarge
          {gpus: 2, gpuType: nvidia-a10g}                       | ml.g5.12xlarge
          {gpus: 1}                                             | ml.g5.xlarge ml.p3.2xlarge ml.g5.12xlarge ml.p4d.24xlarge ml.p5.48xlarge
          {gpus: 8, gpuType: nvidia-a100-40gb}                  | ml.p4d.24xlarge
          {gpus: 1, gpuType: nvidia-h100-80gb, memory: 1Ti}      | ml.p5.48xlarge
          """)
  void typesThatFitEveryReplica(String resources, String expected) {
    var p = propose("resources: " + resources + "\nreplicas: {master: 1, worker: 1}\n");

    assertThat(reasons(p)).isEmpty();
    assertThat(types(p, false)).containsExactly(expected.split(" "));
    assertThat(types(p, true)).containsExactly(expected.split(" "));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"jax, COORDINATOR_* variables", "paddle, PADDLE_* variables"})
  void jaxAndPaddleJobsAreRefusedNamingTheFramework(String framework, String variables) {
    var p =
        new SageMakerPlacements(config(""), PriceCatalog.embedded())
            .propose(
                TestJobs.spec(
                    BASE.replace("pytorch", framework)
                        + "resources: {cpus: 4}\nreplicas: {worker: 2}\n"));

    assertThat(p.placements()).isEmpty();
    assertThat(reasons(p))
        .contains(
            "framework "
                + framework
                + ": SageMaker has no distribution that sets up a "
                + framework
                + " job's rendezvous (the training operator's "
                + variables
                + "); run it on a Kubernetes or local backend");
  }

  @Test
  void onePlacementIsAllReplicasOnInstancesOfOneType() {
    var p =
        propose(
            """
            resources: {gpus: 4, gpuType: nvidia-a10g}
            replicas: {master: 1, worker: 3}
            placement: {spot: never}
            """);

    assertThat(p.placements()).hasSize(1);
    Placement only = p.placements().get(0);
    assertThat(only.backendId()).isEqualTo("sm");
    assertThat(only.provider()).isEqualTo("aws");
    assertThat(only.service()).isEqualTo("sagemaker");
    assertThat(only.region()).isEqualTo("us-east-1");
    assertThat(only.spot()).isFalse();
    assertThat(only.lines())
        .containsExactly(
            new PlacementLine(List.of("master", "worker"), "ml.g5.12xlarge", 4, "nvidia-a10g", 4));
  }

  @Test
  void spotRequiredOffersOnlyManagedSpot() {
    var p = propose("resources: {cpus: 2}\nreplicas: {master: 1}\nplacement: {spot: required}\n");

    assertThat(p.placements()).singleElement().satisfies(x -> assertThat(x.spot()).isTrue());
  }

  @Test
  void aCpuLauncherShareTheGpuWorkersTypeAndTheQuoteSaysSo() {
    var p =
        TestJobs.spec(
            """
            framework: mpi
            image: horovod:1
            output: {uri: s3://o/}
            resources: {gpus: 1, gpuType: nvidia-v100-16gb}
            replicas: {launcher: 1, worker: 2}
            roles: {launcher: {resources: {gpus: 0, cpus: 1}}}
            placement: {spot: never}
            """);
    var proposals = new SageMakerPlacements(config(""), PriceCatalog.embedded()).propose(p);

    assertThat(types(proposals, false)).containsExactly("ml.p3.2xlarge");
    assertThat(proposals.placements().get(0).lines().get(0).count()).isEqualTo(3);
    assertThat(proposals.placements().get(0).notes())
        .anySatisfy(n -> assertThat(n).contains("launcher also run on ml.p3.2xlarge"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          resources: {gpus: 1, gpuType: nvidia-h200}                          | no ml.* type of sm has nvidia-h200 GPUs (types: ml.g5.xlarge
          resources: {gpus: 16, gpuType: nvidia-a100-40gb}                    | has 16 nvidia-a100-40gb GPUs per instance; the most is 8 (ml.p4d.24xlarge)
          resources: {cpus: 64}                                               | no ml.* type without GPUs has 64 vCPUs for one replica (types: ml.m5.2xlarge 8 vCPUs 32 GiB)
          kubernetes: {podTemplate: {nodeSelector: {pool: a}}}                | spec.kubernetes.podTemplate sets nodeSelector, which only Kubernetes backends can honour
          volumes: [{name: d, claim: data-pvc, mountPath: /mnt}]              | spec.volumes mounts PersistentVolumeClaims, which only Kubernetes backends can do
          secretEnv: {WANDB_API_KEY: {secret: wandb, key: api-key}}           | secretEnv WANDB_API_KEY (wandb/api-key): backend sm maps no Secrets Manager ARN
          inputs: [{name: train, uri: gs://bucket/train/}]                    | input train is gs://bucket/train/: SageMaker channels read from S3 (s3://) only
          checkpoint: {uri: gs://ckpt/}                                       | checkpoint gs://ckpt/ is not s3://
          roles: {worker: {image: other:2}}                                   | roles master and worker differ in image
          roles: {worker: {resources: {gpus: 1, gpuType: nvidia-a10g}}}\\nresources: {gpus: 1, gpuType: nvidia-v100-16gb} | roles need different GPU types (nvidia-v100-16gb, nvidia-a10g)
          """)
  void rejectionsSayWhy(String specLine, String reason) {
    var p = propose(specLine.replace("\\n", "\n") + "\nreplicas: {master: 1, worker: 1}\n");

    assertThat(p.placements()).isEmpty();
    assertThat(reasons(p)).anySatisfy(r -> assertThat(r).contains(reason));
    assertThat(p.rejections()).allSatisfy(r -> assertThat(r.backendId()).isEqualTo("sm"));
  }

  @Test
  void aMappedSecretIsAcceptedAndTheQuoteSaysHowItArrives() {
    var config =
        config("secrets: {wandb/api-key: 'arn:aws:secretsmanager:us-east-1:1:secret:w'}\n");
    var p =
        propose(
            config,
            "secretEnv: {WANDB_API_KEY: {secret: wandb, key: api-key}}\nreplicas: {master: 1}\n");

    assertThat(reasons(p)).isEmpty();
    assertThat(p.placements().get(0).notes())
        .anySatisfy(n -> assertThat(n).contains("<NAME>_SECRET_ARN (WANDB_API_KEY)"));
  }

  @Test
  void withoutSpecOutputTheBackendsOutputPathIsNeeded() {
    var spec = "framework: pytorch\nimage: x:1\nreplicas: {master: 1}\n";
    var without = new SageMakerPlacements(config(""), PriceCatalog.embedded());
    var with = new SageMakerPlacements(config("outputPath: s3://o/\n"), PriceCatalog.embedded());

    assertThat(reasons(without.propose(TestJobs.spec(spec))))
        .anySatisfy(r -> assertThat(r).contains("needs an S3 output"));
    assertThat(with.propose(TestJobs.spec(spec)).placements()).isNotEmpty();
  }

  @Test
  void aRegionTheCatalogLacksUsesDeclaredShapesAndNamesTheUnknownOnes() {
    var config =
        TestJobs.config(
            """
            type: sagemaker
            id: sm-mec1
            region: me-central-1
            roleArn: arn:aws:iam::1:role/r
            instanceTypes:
              - ml.g5.xlarge
              - {type: ml.g5.2xlarge, vcpus: 8, memoryGiB: 32, gpuType: nvidia-a10g, gpus: 1}
            """);
    var placements = new SageMakerPlacements(config, PriceCatalog.embedded());

    var fits =
        placements.propose(TestJobs.spec(BASE + "resources: {gpus: 1}\nreplicas: {master: 1}\n"));
    var tooBig =
        placements.propose(TestJobs.spec(BASE + "resources: {gpus: 4}\nreplicas: {master: 1}\n"));

    assertThat(types(fits, false)).containsExactly("ml.g5.2xlarge");
    assertThat(reasons(tooBig))
        .singleElement()
        .satisfies(r -> assertThat(r).contains("no shape known for ml.g5.xlarge in me-central-1"));
  }

  @Test
  void anEc2RowGivesTheShapeOfTheSameHardware() {
    var config = config("instanceTypes: [ml.m5.2xlarge]\n");
    var shapes =
        (InstanceShapes)
            (provider, service, region, type) ->
                service.equals("ec2")
                    ? PriceCatalog.embedded().find(provider, service, region, type)
                    : java.util.Optional.empty();

    var p =
        new SageMakerPlacements(config, shapes)
            .propose(
                TestJobs.spec(
                    BASE + "resources: {cpus: 8, memory: 32Gi}\nreplicas: {master: 1}\n"));

    assertThat(types(p, false)).containsExactly("ml.m5.2xlarge");
  }
}
