package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.Placement;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.Rejection;
import org.junit.jupiter.api.Test;

/**
 * Replicas packed at the nodes' allocatable size (the provider's default reserve unless the pool
 * says), roles spread over the pools that suit them; no server.
 */
class NodeFitTest {
  private static final String PS_AND_GPU_WORKERS =
      """
      framework: tensorflow
      image: i
      replicas: {ps: 2, worker: 4}
      resources: {cpus: 3, memory: 8Gi}
      roles: {worker: {resources: {gpus: 2, gpuType: nvidia-a10g, cpus: 8, memory: 32Gi}}}
      """;

  private static Proposals propose(String config, String spec) {
    return new KubernetesPlacements(TestJobs.config(config).settings(), PriceCatalog.embedded())
        .propose(TestJobs.spec(spec));
  }

  @Test
  void parameterServersGoToTheCpuPoolAndGpuWorkersToTheGpuPoolEachLineNamingItsPool() {
    var proposals = propose(TestJobs.AWS_DEFAULT_RESERVE, PS_AND_GPU_WORKERS);
    assertThat(proposals.rejections()).isEmpty();
    // The spot basis has no CPU pool for the parameter servers, so no spot placement.
    assertThat(proposals.placements())
        .extracting(NodeFitTest::describe)
        .containsExactly("ps@cpu(m5.2xlarge)×1 + worker@a10g(g5.12xlarge)×2");
    var p = proposals.placements().get(0);
    assertThat(p.notes())
        .contains(
            "ps on pool cpu; worker on pool a10g",
            "pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.78 GiB (EKS AMI"
                + " kube-reserved for 58 pods + eviction + daemon sets)",
            "pool a10g (g5.12xlarge): 48 vCPUs, 192 GiB, 4x nvidia-a10g; allocatable 47.61 vCPUs,"
                + " 188.72 GiB (EKS AMI kube-reserved for 250 pods + eviction + daemon sets)");
  }

  @Test
  void aReplicaOfTheInstancesFullSizeNoLongerFitsAndTheReasonNamesTheAllocatable() {
    var cpuOnly = cpuOnlyCluster("");
    var spec =
        "framework: xgboost\nimage: i\nresources: {cpus: 8, memory: 16Gi}\nreplicas: {master: 1}";
    var proposals = propose(cpuOnly, spec);
    assertThat(proposals.placements()).isEmpty();
    assertThat(proposals.rejections())
        .containsExactly(
            new Rejection(
                "k8s-fit",
                "a master replica (8 vCPUs, 16 GiB) is bigger than any node of k8s-fit: cpu"
                    + " (m5.2xlarge: 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.78 GiB)"));
    // The operator who knows better says so in the pool block.
    var overridden = propose(cpuOnlyCluster(", reserved: {cpus: 0, memory: 0}"), spec);
    assertThat(overridden.placements())
        .extracting(NodeFitTest::describe)
        .containsExactly("master@cpu(m5.2xlarge)×1");
    assertThat(overridden.placements().get(0).notes())
        .contains(
            "pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 8 vCPUs, 32 GiB (the pool's"
                + " reserved)");
  }

  @Test
  void maxPodsAndDaemonSetsInThePoolBlockTuneTheDefault() {
    var spec =
        "framework: xgboost\nimage: i\nresources: {cpus: 1, memory: 1Gi}\nreplicas: {master: 1}";
    var p =
        propose(cpuOnlyCluster(", maxPods: 58, daemonSets: {cpus: 0.1, memory: 100Mi}"), spec)
            .placements()
            .get(0);
    // 8 − (0.09 + 0.1) vCPUs; 32 GiB − (255 + 11 × 58 + 100 + 100) MiB = 32 GiB − 1093 MiB
    assertThat(p.notes())
        .contains(
            "pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.81 vCPUs, 30.93 GiB (EKS AMI"
                + " kube-reserved for 58 pods + eviction + daemon sets)");
    assertThatThrownBy(() -> TestJobs.config(cpuOnlyCluster(", maxPods: 0")).settings())
        .hasMessageContaining("nodePools.cpu.maxPods must be at least 1");
  }

  @Test
  void reservedPacksFewerReplicasANode() {
    // Two 3.75-vCPU replicas (7.5) share a node's 7.71 allocatable vCPUs; two of 3.9 (7.8)
    // would fit the instance's 8 but not its allocatable, so each takes a node of its own.
    var spec =
        "framework: pytorch\nimage: i\nresources: {cpus: 3.75, memory: 8Gi}\nreplicas: {master: 1,"
            + " worker: 3}";
    assertThat(propose(cpuOnlyCluster(""), spec).placements())
        .extracting(NodeFitTest::describe)
        .containsExactly("master,worker@cpu(m5.2xlarge)×2");
    assertThat(propose(cpuOnlyCluster(""), spec.replace("3.75", "3.9")).placements())
        .extracting(NodeFitTest::describe)
        .containsExactly("master,worker@cpu(m5.2xlarge)×4");
  }

  @Test
  void workersTooManyForTheOnDemandPoolsMaxNodesGoToTheSpotPoolThatHasRoom() {
    var spec =
        """
        framework: pytorch
        image: i
        resources: {gpus: 2, gpuType: nvidia-a10g, cpus: 8, memory: 32Gi}
        replicas: {master: 1, worker: 7}
        """;
    var proposals = propose(TestJobs.AWS_DEFAULT_RESERVE, spec);
    assertThat(proposals.rejections()).isEmpty();
    assertThat(proposals.placements())
        .extracting(NodeFitTest::describe)
        .containsExactly("master,worker@a10g-spot(g5.12xlarge)×4 spot");
    var onDemandOnly = propose(TestJobs.AWS_DEFAULT_RESERVE, spec + "placement: {spot: never}\n");
    assertThat(onDemandOnly.placements()).isEmpty();
    assertThat(onDemandOnly.rejections())
        .extracting(Rejection::reason)
        .containsExactly(
            "master, worker would need 4 nodes of pool a10g (g5.12xlarge), which has at most 3");
  }

  @Test
  void aCpuLauncherSharesSpotGpuNodesWhenTheOnDemandGpuPoolIsTooSmall() {
    var spec =
        """
        framework: mpi
        image: i
        replicas: {launcher: 1, worker: 8}
        resources: {cpus: 2, memory: 4Gi}
        roles: {worker: {resources: {gpus: 2, gpuType: nvidia-a10g, cpus: 8, memory: 32Gi}}}
        """;
    // On demand: the launcher on pool cpu, but 8 workers need 4 a10g nodes of at most 3. The spot
    // basis has no CPU pool, so the launcher shares the workers' spot nodes.
    var proposals = propose(TestJobs.AWS_DEFAULT_RESERVE, spec);
    assertThat(proposals.rejections()).isEmpty();
    assertThat(proposals.placements())
        .extracting(NodeFitTest::describe)
        .containsExactly("launcher,worker@a10g-spot(g5.12xlarge)×4 spot");
    // Where the strict choice places the job, it stands: the launcher stays on the CPU pool.
    assertThat(
            propose(TestJobs.AWS_DEFAULT_RESERVE, spec.replace("worker: 8", "worker: 6"))
                .placements())
        .extracting(NodeFitTest::describe)
        .containsExactly("launcher@cpu(m5.2xlarge)×1 + worker@a10g(g5.12xlarge)×3");
  }

  @Test
  void onGkeTheGkeFormulaSetsTheAllocatable() {
    var gcp =
        """
        type: kubernetes
        id: gke-fit
        region: us-central1
        provider: gcp
        nodePools:
          - {name: cpu, instanceType: n2-standard-8, maxNodes: 4}
        """;
    var p =
        propose(
                gcp,
                "framework: pytorch\nimage: i\nresources: {cpus: 4, memory: 12Gi}\nreplicas: {master: 1, worker: 1}")
            .placements()
            .get(0);
    // 32 GiB − (1 + 0.8 + 0.8 + 0.96 GiB + 100 MiB eviction + 256 MiB daemon sets) = 28.09 GiB:
    // two 12Gi replicas still share a node; 8 − (0.09 + 0.2) vCPUs = 7.71 does not take two 4s.
    assertThat(describe(p)).isEqualTo("master,worker@cpu(n2-standard-8)×2");
    assertThat(p.notes())
        .contains(
            "pool cpu (n2-standard-8): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 28.09 GiB (GKE"
                + " reserved + eviction + daemon sets)");
  }

  private static String cpuOnlyCluster(String poolExtra) {
    return """
        type: kubernetes
        id: k8s-fit
        region: us-east-1
        provider: aws
        nodePools:
          - {name: cpu, instanceType: m5.2xlarge, maxNodes: 10%s}
        """
        .formatted(poolExtra);
  }

  static String describe(Placement p) {
    return String.join(
            " + ",
            p.lines().stream()
                .map(
                    l ->
                        String.join(",", l.roles())
                            + "@"
                            + l.pool()
                            + "("
                            + l.instanceType()
                            + ")×"
                            + l.count())
                .toList())
        + (p.spot() ? " spot" : "");
  }
}
