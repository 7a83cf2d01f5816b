package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.InstanceShapes;
import io.trainyard.spi.Placement;
import io.trainyard.spi.PlacementLine;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.Rejection;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bin packing onto node pools, table by table; no server. */
class KubernetesPlacementsTest {
  private static final String ANY_GPU_PYTORCH =
      """
      framework: pytorch
      image: i
      resources: {gpus: 1, cpus: 4, memory: 16Gi}
      replicas: {master: 1, worker: 2}
      """;

  private static Proposals onPrem(String spec) {
    return propose(TestJobs.ONPREM_A, spec, InstanceShapes.NONE);
  }

  private static Proposals aws(String spec) {
    return propose(TestJobs.AWS_POOLS, spec, PriceCatalog.embedded());
  }

  private static Proposals propose(String config, String spec, InstanceShapes shapes) {
    return new KubernetesPlacements(TestJobs.config(config).settings(), shapes)
        .propose(TestJobs.spec(spec));
  }

  @Test
  void onPremPlacementsArePricedByTheOperatorWithTheirShareOfTheClusterFee() {
    var proposals = onPrem(ANY_GPU_PYTORCH);
    assertThat(proposals.rejections()).isEmpty();
    var p = proposals.placements().get(0);
    assertThat(proposals.placements()).hasSize(1);
    assertThat(p.provider()).isEqualTo("onprem");
    assertThat(p.service()).isEqualTo("kubernetes");
    assertThat(p.region()).isEqualTo("dc-frankfurt");
    assertThat(p.spot()).isFalse();
    assertThat(p.lines())
        .containsExactly(
            new PlacementLine(
                List.of("master", "worker"), "dgx-a100", 1, "nvidia-a100-40gb", 8, "dgx"));
    assertThat(p.operatorUsdPerHour()).isEqualByComparingTo("12.0");
    // 0.10 × 1 node ÷ 4 nodes in the cluster
    assertThat(p.clusterFeeUsdPerHour()).isEqualByComparingTo("0.025");
    assertThat(p.freeCapacity()).isNull();
    assertThat(p.notes()).contains("master, worker on pool dgx");
  }

  @Test
  void anElasticJobIsPricedAtItsMaximumWorkers() {
    // Two 2-GPU workers fit one 8-GPU node; six (maxReplicas) need two.
    var fixed =
        """
        framework: pytorch
        image: i
        resources: {gpus: 2, cpus: 8, memory: 32Gi}
        replicas: {worker: 2}
        """;
    var elastic =
        fixed
            + "elastic: {minReplicas: 2, maxReplicas: 6, rdzvBackend: etcd, rdzvHost: etcd-client,"
            + " rdzvPort: 2379, metrics: [{type: Resource, resource: {name: cpu, target: {type:"
            + " Utilization, averageUtilization: 80}}}]}\n";
    assertThat(onPrem(fixed).placements().get(0).lines().get(0).count()).isEqualTo(1);
    var p = onPrem(elastic).placements().get(0);
    assertThat(p.lines())
        .containsExactly(
            new PlacementLine(List.of("worker"), "dgx-a100", 2, "nvidia-a100-40gb", 8, "dgx"));
    assertThat(p.operatorUsdPerHour()).isEqualByComparingTo("24.0");
    assertThat(p.notes())
        .contains(
            "priced at elastic.maxReplicas (6 workers), the most the job may grow to (its"
                + " autoscaler scales on elastic.metrics)",
            "rendezvous at the job's own etcd etcd-client:2379, which must be reachable from the"
                + " cluster");
  }

  /** spec → lines as "roles@type×count" and the spot flags of every placement, in order. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // a GPU type of no pool's on AWS, any type: both A10G pools, never mixing spot and not
        "any GPU, spot allowed | {gpus: 1, cpus: 4, memory: 16Gi} | allowed"
            + " | master,worker@g5.12xlarge×1; master,worker@g5.12xlarge×1 spot",
        "any GPU, spot never | {gpus: 1, cpus: 4, memory: 16Gi} | never"
            + " | master,worker@g5.12xlarge×1",
        "any GPU, spot required | {gpus: 1, cpus: 4, memory: 16Gi} | required"
            + " | master,worker@g5.12xlarge×1 spot",
        // 4 A10Gs a node: three 2-GPU replicas need two nodes
        "two GPUs each | {gpus: 2, gpuType: nvidia-a10g} | never | master,worker@g5.12xlarge×2",
        // CPU-only replicas stay off GPU nodes: 7.5 vCPUs allocatable after reserved
        "CPU only | {cpus: 3.5, memory: 8Gi} | allowed | master,worker@m5.2xlarge×2",
        "CPU only, exactly the allocatable | {cpus: 7.5, memory: 30Gi} | allowed"
            + " | master,worker@m5.2xlarge×3",
      })
  void replicasArePackedOntoPoolShapes(String name, String resources, String spot, String want) {
    var proposals =
        aws(
            "framework: pytorch\nimage: i\nresources: "
                + resources
                + "\nreplicas: {master: 1, worker: 2}\nplacement: {spot: "
                + spot
                + "}\n");
    assertThat(proposals.rejections()).isEmpty();
    assertThat(String.join("; ", proposals.placements().stream().map(this::describe).toList()))
        .isEqualTo(want);
  }

  @Test
  void aCpuLauncherAndGpuWorkersAreSeparateLinesOnTheirPools() {
    var proposals =
        aws(
            """
            framework: mpi
            image: i
            replicas: {launcher: 1, worker: 4}
            resources: {cpus: 2, memory: 4Gi}
            roles: {worker: {resources: {gpus: 2, gpuType: nvidia-a10g, cpus: 8, memory: 32Gi}}}
            """);
    // The spot A10G pool cannot share a placement with the on-demand CPU pool.
    assertThat(proposals.placements()).hasSize(1);
    var p = proposals.placements().get(0);
    assertThat(describe(p)).isEqualTo("launcher@m5.2xlarge×1 + worker@g5.12xlarge×2");
    assertThat(p.provider()).isEqualTo("aws");
    assertThat(p.service()).isEqualTo("ec2");
    assertThat(p.operatorUsdPerHour()).isNull();
    // 0.10 × 3 nodes ÷ 30 nodes in the cluster
    assertThat(p.clusterFeeUsdPerHour()).isEqualByComparingTo(new BigDecimal("0.01"));
    assertThat(p.lines().get(0).gpuType()).isNull();
    assertThat(p.lines().get(1).gpus()).isEqualTo(4);
    assertThat(p.notes()).contains("launcher on pool cpu; worker on pool a10g-od");
  }

  @Test
  void withOnlySpotAllowedACpuLauncherSharesTheGpuNodes() {
    var proposals =
        aws(
            """
            framework: mpi
            image: i
            replicas: {launcher: 1, worker: 4}
            resources: {cpus: 2, memory: 4Gi}
            roles: {worker: {resources: {gpus: 2, cpus: 8, memory: 32Gi}}}
            placement: {spot: required}
            """);
    assertThat(proposals.placements())
        .extracting(this::describe)
        .containsExactly("launcher,worker@g5.12xlarge×2 spot");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "no pool with that GPU type | {gpus: 1, gpuType: nvidia-h100-80gb} | {master: 1}"
            + " | no node pool of onprem-a has nvidia-h100-80gb GPUs (pools: dgx (dgx-a100:"
            + " 128 vCPUs, 1024 GiB, 8x nvidia-a100-40gb; allocatable 127.3 vCPUs, 1022.65 GiB))",
        "a replica bigger than any node | {gpus: 16} | {master: 1}"
            + " | a master replica (16 GPUs, 0 vCPUs, 0 GiB) is bigger than any node with GPUs:"
            + " dgx (dgx-a100: 128 vCPUs, 1024 GiB, 8x nvidia-a100-40gb; allocatable 127.3 vCPUs,"
            + " 1022.65 GiB)",
        "more nodes than maxNodes | {gpus: 8} | {master: 1, worker: 4}"
            + " | master, worker would need 5 nodes of pool dgx (dgx-a100), which has at most 4",
      })
  void whatCannotBePlacedIsRejectedWithTheReason(
      String name, String resources, String replicas, String reason) {
    var proposals =
        onPrem("framework: pytorch\nimage: i\nresources: " + resources + "\nreplicas: " + replicas);
    assertThat(proposals.placements()).isEmpty();
    assertThat(proposals.rejections()).containsExactly(new Rejection("onprem-a", reason));
  }

  @Test
  void whatKubeflowCannotExpressIsRejectedNamingTheField() {
    var proposals =
        onPrem("framework: tensorflow\nimage: i\nreplicas: {worker: 2}\nprocessesPerReplica: 4");
    assertThat(proposals.rejections())
        .extracting(Rejection::reason)
        .containsExactly(
            "spec.processesPerReplica: a tensorflow job on Kubernetes runs one process per replica");
  }

  @Test
  void poolsOfUnknownShapeAreNamedInTheReason() {
    var config = TestJobs.AWS_POOLS.replace("region: us-east-1", "region: eu-north-1");
    var proposals =
        propose(
            config, "framework: xgboost\nimage: i\nreplicas: {master: 1}", PriceCatalog.embedded());
    assertThat(proposals.rejections())
        .extracting(Rejection::reason)
        .containsExactly(
            "no node pool of k8s-use1 has a known shape (no shape known for pools cpu, a10g,"
                + " a10g-od in the aws catalog for eu-north-1: declare cpus and memory)");
  }

  @Test
  void spotPolicyAgainstEveryPoolSaysSo() {
    var proposals = onPrem(ANY_GPU_PYTORCH + "placement: {spot: required}\n");
    assertThat(proposals.rejections())
        .extracting(Rejection::reason)
        .containsExactly("no node pool of onprem-a is spot (spot: required)");
  }

  private String describe(Placement p) {
    return String.join(
            " + ",
            p.lines().stream()
                .map(l -> String.join(",", l.roles()) + "@" + l.instanceType() + "×" + l.count())
                .toList())
        + (p.spot() ? " spot" : "");
  }
}
