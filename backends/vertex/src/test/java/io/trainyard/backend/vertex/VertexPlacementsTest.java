package io.trainyard.backend.vertex;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.PlacementLine;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.Rejection;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class VertexPlacementsTest {
  private static final String MACHINES =
      """
      machineTypes:
        - n1-standard-4
        - n1-standard-8
        - {machineType: n1-standard-8, gpuType: nvidia-t4, gpus: 1}
        - {machineType: n1-standard-16, gpuType: nvidia-t4, gpus: 4}
        - a2-highgpu-1g
        - a2-highgpu-8g
      """;

  private static Proposals propose(String extraConfig, String spec) {
    var config =
        TestJobs.config("type: vertex\nid: vx\nregion: us-central1\nproject: p\n" + extraConfig);
    return new VertexPlacements(config, PriceCatalog.embedded())
        .propose(TestJobs.spec("framework: pytorch\nimage: x:1\n" + spec));
  }

  private static List<String> reasons(Proposals p) {
    return p.rejections().stream().map(Rejection::reason).toList();
  }

  /** The smallest machine that holds one replica, with its accelerators. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          {cpus: 2, memory: 8Gi}                  | n1-standard-4  | 0 |
          {cpus: 6}                               | n1-standard-8  | 0 |
          {gpus: 1, gpuType: nvidia-t4}            | n1-standard-8  | 1 | nvidia-t4
          {gpus: 2, gpuType: nvidia-t4}            | n1-standard-16 | 4 | nvidia-t4
          {gpus: 1, gpuType: nvidia-a100-40gb}     | a2-highgpu-1g  | 1 | nvidia-a100-40gb
          {gpus: 4, gpuType: nvidia-a100-40gb}     | a2-highgpu-8g  | 8 | nvidia-a100-40gb
          {gpus: 1}                               | n1-standard-8  | 1 | nvidia-t4
          """)
  void eachRoleGetsTheSmallestMachineThatFits(
      String resources, String machine, int gpus, String gpuType) {
    var p = propose(MACHINES, "resources: " + resources + "\nreplicas: {master: 1, worker: 2}\n");

    assertThat(reasons(p)).isEmpty();
    assertThat(p.placements().get(0).lines())
        .containsExactly(
            new PlacementLine(List.of("master"), machine, 1, gpuType, gpus),
            new PlacementLine(List.of("worker"), machine, 2, gpuType, gpus));
  }

  @Test
  void aCpuLauncherGetsACpuMachineBesideGpuWorkers() {
    var config = "type: vertex\nid: vx\nregion: us-central1\nproject: p\n" + MACHINES;
    var spec =
        TestJobs.spec(
            """
            framework: mpi
            image: horovod:1
            resources: {gpus: 1, gpuType: nvidia-a100-40gb}
            replicas: {launcher: 1, worker: 2}
            roles: {launcher: {resources: {gpus: 0, cpus: 1}}}
            placement: {spot: never}
            """);

    var p = new VertexPlacements(TestJobs.config(config), PriceCatalog.embedded()).propose(spec);

    assertThat(p.placements()).singleElement();
    var placement = p.placements().get(0);
    assertThat(placement.provider()).isEqualTo("gcp");
    assertThat(placement.service()).isEqualTo("vertex");
    assertThat(placement.spot()).isFalse();
    assertThat(placement.lines())
        .containsExactly(
            new PlacementLine(List.of("launcher"), "n1-standard-4", 1, null, 0),
            new PlacementLine(List.of("worker"), "a2-highgpu-1g", 2, "nvidia-a100-40gb", 1));
  }

  @Test
  void theDefaultMachinesFitTheCatalogsGpus() {
    var a100 =
        propose("", "resources: {gpus: 8, gpuType: nvidia-a100-40gb}\nreplicas: {master: 1}\n");
    var h100 =
        propose("", "resources: {gpus: 2, gpuType: nvidia-h100-80gb}\nreplicas: {master: 1}\n");

    assertThat(a100.placements().get(0).lines().get(0).instanceType()).isEqualTo("a2-highgpu-8g");
    assertThat(h100.placements().get(0).lines().get(0).instanceType()).isEqualTo("a3-highgpu-8g");
  }

  @Test
  void spotPolicyDecidesWhichPlacementsAreOffered() {
    var allowed = propose("", "replicas: {master: 1}\n");
    var required = propose("", "replicas: {master: 1}\nplacement: {spot: required}\n");
    var never = propose("", "replicas: {master: 1}\nplacement: {spot: never}\n");

    assertThat(allowed.placements()).extracting(p -> p.spot()).containsExactly(false, true);
    assertThat(required.placements()).extracting(p -> p.spot()).containsExactly(true);
    assertThat(never.placements()).extracting(p -> p.spot()).containsExactly(false);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          resources: {gpus: 1, gpuType: nvidia-h200-141gb}             | no Vertex machine type of vx fits a master replica (1 nvidia-h200-141gb GPUs); machines: n1-standard-4
          resources: {gpus: 16, gpuType: nvidia-a100-40gb}             | fits a master replica (16 nvidia-a100-40gb GPUs)
          resources: {cpus: 500}                                       | fits a master replica (500 vCPUs)
          kubernetes: {podTemplate: {tolerations: [{key: gpu}]}}       | spec.kubernetes.podTemplate sets tolerations, which only Kubernetes backends can honour
          volumes: [{name: d, claim: data-pvc, mountPath: /mnt}]       | spec.volumes mounts PersistentVolumeClaims
          secretEnv: {WANDB_API_KEY: {secret: wandb, key: api-key}}    | secretEnv WANDB_API_KEY (wandb/api-key): backend vx maps no Secret Manager version
          output: {uri: s3://ml-out/x/}                                | output s3://ml-out/x/ is not gs://
          """)
  void rejectionsSayWhy(String specLine, String reason) {
    var p = propose("", specLine + "\nreplicas: {master: 1}\n");

    assertThat(p.placements()).isEmpty();
    assertThat(reasons(p)).anySatisfy(r -> assertThat(r).contains(reason));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"jax, COORDINATOR_* variables", "paddle, PADDLE_* variables"})
  void jaxAndPaddleJobsAreRefusedNamingTheFramework(String framework, String variables) {
    var config =
        TestJobs.config("type: vertex\nid: vx\nregion: us-central1\nproject: p\n" + MACHINES);
    var p =
        new VertexPlacements(config, PriceCatalog.embedded())
            .propose(
                TestJobs.spec("framework: " + framework + "\nimage: x:1\nreplicas: {worker: 2}\n"));

    assertThat(p.placements()).isEmpty();
    assertThat(reasons(p))
        .contains(
            "framework "
                + framework
                + ": Vertex AI has no distribution that sets up a "
                + framework
                + " job's rendezvous (the training operator's "
                + variables
                + "); run it on a Kubernetes or local backend");
  }

  @Test
  void aMappedSecretIsAcceptedAndTheQuoteSaysHowItArrives() {
    var p =
        propose(
            "secrets: {wandb/api-key: projects/p/secrets/wandb/versions/3}\n",
            "secretEnv: {WANDB_API_KEY: {secret: wandb, key: api-key}}\nreplicas: {master: 1}\n");

    assertThat(reasons(p)).isEmpty();
    assertThat(p.placements().get(0).notes())
        .anySatisfy(n -> assertThat(n).contains("<NAME>_SECRET_VERSION (WANDB_API_KEY)"));
  }

  @Test
  void aMachineWithoutAShapeIsNamedInTheReason() {
    var p =
        propose("machineTypes: [c3-standard-8]\n", "resources: {cpus: 1}\nreplicas: {master: 1}\n");

    assertThat(reasons(p))
        .singleElement()
        .satisfies(r -> assertThat(r).contains("no shape known for c3-standard-8 in us-central1"));
  }
}
