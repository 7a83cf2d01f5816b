package io.trainyard.backend.azureml;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.InstanceShape;
import io.trainyard.spi.InstanceShapes;
import io.trainyard.spi.PlacementLine;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.Rejection;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AzureMlPlacementsTest {
  private static final String BASE =
      """
      framework: pytorch
      image: bert:1.4
      command: [python, train.py]
      """;

  private static Proposals propose(String specYaml) {
    return propose(TestJobs.serverless(""), specYaml);
  }

  private static Proposals propose(AzureMlConfig config, String specYaml) {
    return new AzureMlPlacements(config, InstanceShapes.NONE)
        .propose(TestJobs.spec(BASE + specYaml));
  }

  private static List<String> sizes(Proposals p, boolean spot) {
    return p.placements().stream()
        .filter(x -> x.spot() == spot)
        .map(x -> x.lines().get(0).instanceType())
        .toList();
  }

  private static List<String> reasons(Proposals p) {
    return p.rejections().stream().map(Rejection::reason).toList();
  }

  /** Which sizes of the table fit one replica, smallest first. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          {cpus: 4, memory: 16Gi}                                 | Standard_D8s_v5 Standard_E8s_v5 Standard_E64s_v5 Standard_D96s_v5
          {cpus: 8, memory: 48Gi}                                 | Standard_E8s_v5 Standard_E64s_v5 Standard_D96s_v5
          {gpus: 1, gpuType: nvidia-t4}                           | Standard_NC4as_T4_v3 Standard_NC64as_T4_v3
          {gpus: 2, gpuType: nvidia-v100-16gb}                    | Standard_NC24s_v3
          {gpus: 1, gpuType: nvidia-a100-80gb}                    | Standard_NC24ads_A100_v4 Standard_NC96ads_A100_v4 Standard_ND96amsr_A100_v4
          {gpus: 8, gpuType: nvidia-a100-40gb}                    | Standard_ND96asr_v4
          {gpus: 1, gpuType: nvidia-h100-80gb}                    | Standard_NC40ads_H100_v5
          """)
  void sizesThatFitEveryReplica(String resources, String expected) {
    var p = propose("resources: " + resources + "\nreplicas: {master: 1, worker: 1}\n");

    assertThat(reasons(p)).isEmpty();
    assertThat(sizes(p, false)).containsExactly(expected.split(" "));
    assertThat(sizes(p, true)).containsExactly(expected.split(" "));
  }

  @Test
  void onePlacementIsAllReplicasOnNodesOfOneSize() {
    var p =
        propose(
            """
            resources: {gpus: 4, gpuType: nvidia-a100-80gb}
            replicas: {master: 1, worker: 3}
            placement: {spot: never}
            """);

    assertThat(p.placements()).hasSize(2);
    var first = p.placements().get(0);
    assertThat(first.backendId()).isEqualTo("aml");
    assertThat(first.provider()).isEqualTo("azure");
    assertThat(first.service()).isEqualTo("azureml");
    assertThat(first.region()).isEqualTo("eastus");
    assertThat(first.spot()).isFalse();
    assertThat(first.lines())
        .containsExactly(
            new PlacementLine(
                List.of("master", "worker"), "Standard_NC96ads_A100_v4", 4, "nvidia-a100-80gb", 4));
  }

  @Test
  void spotRequiredOffersOnlySpotAndSaysWhatItIs() {
    var p = propose("resources: {cpus: 2}\nreplicas: {master: 1}\nplacement: {spot: required}\n");

    assertThat(p.placements()).allSatisfy(x -> assertThat(x.spot()).isTrue());
    assertThat(p.placements().get(0).notes())
        .anySatisfy(n -> assertThat(n).contains("job tier Spot"))
        .anySatisfy(n -> assertThat(n).contains("without spec.checkpoint"));
  }

  @Test
  void aClusterOffersItsOneSizeAndSpotOnlyWithALowPriorityCluster() {
    var dedicated = TestJobs.serverless("compute: cpu-cluster\nvmSizes: [Standard_D8s_v5]\n");
    var withLowPriority =
        TestJobs.serverless(
            "compute: cpu-cluster\nlowPriorityCompute: cpu-lp\nvmSizes: [Standard_D8s_v5]\n");
    var spec = "resources: {cpus: 2}\nreplicas: {master: 1}\n";

    assertThat(sizes(propose(dedicated, spec), false)).containsExactly("Standard_D8s_v5");
    assertThat(sizes(propose(dedicated, spec), true)).isEmpty();
    assertThat(sizes(propose(withLowPriority, spec), true)).containsExactly("Standard_D8s_v5");
    assertThat(reasons(propose(dedicated, spec + "placement: {spot: required}\n")))
        .singleElement()
        .satisfies(r -> assertThat(r).contains("no low-priority cluster (lowPriorityCompute)"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          resources: {gpus: 1, gpuType: nvidia-h200}                          | no VM size of aml has nvidia-h200 GPUs (sizes: Standard_NC4as_T4_v3
          resources: {gpus: 16, gpuType: nvidia-a100-80gb}                    | has 16 nvidia-a100-80gb GPUs per node; the most is 8 (Standard_ND96amsr_A100_v4)
          resources: {cpus: 128}                                              | no VM size without GPUs has 128 vCPUs for one replica
          kubernetes: {podTemplate: {nodeSelector: {pool: a}}}                | spec.kubernetes.podTemplate sets nodeSelector, which only Kubernetes backends can honour
          volumes: [{name: d, claim: data-pvc, mountPath: /mnt}]              | spec.volumes mounts PersistentVolumeClaims
          secretEnv: {WANDB_API_KEY: {secret: wandb, key: api-key}}           | secretEnv WANDB_API_KEY (wandb/api-key): backend aml maps no Key Vault secret
          inputs: [{name: train, uri: "s3://bucket/train/"}]                  | input train is s3://bucket/train/: Azure ML mounts azureml:// and https://<account>.blob.core.windows.net/ URIs only
          output: {uri: "gs://out/"}                                          | output gs://out/ is not azureml:// or a Blob storage URL
          checkpoint: {uri: "s3://ckpt/"}                                     | checkpoint s3://ckpt/ is not azureml:// or a Blob storage URL
          roles: {worker: {image: other:2}}                                   | roles master and worker differ in image
          roles: {worker: {resources: {gpus: 1, gpuType: nvidia-t4}}}\\nresources: {gpus: 1, gpuType: nvidia-v100-16gb} | roles need different GPU types (nvidia-v100-16gb, nvidia-t4)
          """)
  void rejectionsSayWhy(String specLine, String reason) {
    var p = propose(specLine.replace("\\n", "\n") + "\nreplicas: {master: 1, worker: 1}\n");

    assertThat(p.placements()).isEmpty();
    assertThat(reasons(p)).anySatisfy(r -> assertThat(r).contains(reason));
    assertThat(p.rejections()).allSatisfy(r -> assertThat(r.backendId()).isEqualTo("aml"));
  }

  @Test
  void frameworkShapesAzureMlCannotRunAreRefusedWithTheReason() {
    var xgboost =
        new AzureMlPlacements(TestJobs.serverless(""), InstanceShapes.NONE)
            .propose(
                TestJobs.spec(
                    "framework: xgboost\nimage: x:1\ncommand: [x]\n"
                        + "replicas: {master: 1, worker: 2}\n"));
    var noCommand =
        new AzureMlPlacements(TestJobs.serverless(""), InstanceShapes.NONE)
            .propose(TestJobs.spec("framework: pytorch\nimage: x:1\nreplicas: {master: 1}\n"));

    assertThat(reasons(xgboost))
        .anySatisfy(r -> assertThat(r).contains("Azure ML has no distribution for XGBoost"));
    assertThat(reasons(noCommand))
        .anySatisfy(r -> assertThat(r).contains("has none (spec.command)"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"jax, COORDINATOR_* variables", "paddle, PADDLE_* variables"})
  void jaxAndPaddleJobsAreRefusedNamingTheFramework(String framework, String variables) {
    var p =
        new AzureMlPlacements(TestJobs.serverless(""), InstanceShapes.NONE)
            .propose(
                TestJobs.spec(
                    "framework: "
                        + framework
                        + "\nimage: x:1\ncommand: [x]\n"
                        + "replicas: {worker: 2}\n"));

    assertThat(p.placements()).isEmpty();
    assertThat(reasons(p))
        .contains(
            "framework "
                + framework
                + ": Azure ML has no distribution that sets up a "
                + framework
                + " job's rendezvous (the training operator's "
                + variables
                + "); run it on a Kubernetes or local backend");
  }

  @Test
  void aDeclaredSizeOrACatalogRowGivesTheShapeOfASizeTheTableLacks() {
    var config =
        TestJobs.serverless(
            """
            vmSizes:
              - {size: Standard_NC48ads_A100_v4, vcpus: 48, memoryGiB: 440, gpuType: nvidia-a100-80gb, gpus: 2}
              - Standard_NV36ads_A10_v5
              - Standard_Nothing_v9
            """);
    InstanceShapes catalog =
        (provider, service, region, type) ->
            provider.equals("azure")
                    && service.equals("vm")
                    && type.equals("Standard_NV36ads_A10_v5")
                ? Optional.of(new InstanceShape(type, 36, 440, "nvidia-a10", 1, 24))
                : Optional.empty();
    var placements = new AzureMlPlacements(config, catalog);

    var a100 =
        placements.propose(
            TestJobs.spec(
                BASE + "resources: {gpus: 2, gpuType: nvidia-a100-80gb}\nreplicas: {master: 1}\n"));
    var a10 =
        placements.propose(
            TestJobs.spec(
                BASE + "resources: {gpus: 1, gpuType: nvidia-a10}\nreplicas: {master: 1}\n"));
    var tooBig =
        placements.propose(TestJobs.spec(BASE + "resources: {gpus: 8}\nreplicas: {master: 1}\n"));

    assertThat(sizes(a100, false)).containsExactly("Standard_NC48ads_A100_v4");
    assertThat(sizes(a10, false)).containsExactly("Standard_NV36ads_A10_v5");
    assertThat(reasons(tooBig))
        .singleElement()
        .satisfies(r -> assertThat(r).contains("no shape known for Standard_Nothing_v9"));
  }

  @Test
  void theQuoteSaysHowSecretsArriveAndWhatMpiLaunchersAre() {
    var config =
        TestJobs.serverless(
            "secrets: {wandb/api-key: 'https://ml-kv.vault.azure.net/secrets/wandb'}\n");
    var secret =
        propose(
            config,
            "secretEnv: {WANDB_API_KEY: {secret: wandb, key: api-key}}\nreplicas: {master: 1}\n");
    var mpi =
        new AzureMlPlacements(config, InstanceShapes.NONE)
            .propose(
                TestJobs.spec(
                    "framework: mpi\nimage: h:1\ncommand: [x]\nreplicas: {launcher: 1, worker: 2}\n"));

    assertThat(secret.placements().get(0).notes())
        .anySatisfy(n -> assertThat(n).contains("<NAME>_KEYVAULT_SECRET_URI (WANDB_API_KEY)"));
    assertThat(mpi.placements().get(0).notes())
        .anySatisfy(n -> assertThat(n).contains("launcher role is Azure ML's own mpirun"));
    assertThat(mpi.placements().get(0).lines().get(0).count()).isEqualTo(2);
  }
}
