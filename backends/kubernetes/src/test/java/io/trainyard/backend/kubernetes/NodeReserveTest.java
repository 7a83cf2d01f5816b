package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The default node reserves against the providers' published formulas and worked examples. */
class NodeReserveTest {
  private static final double MIB = 1.0 / 1024;

  /**
   * CPU bands shared by the EKS AMI and GKE: 6% of core 1, 1% of core 2, 0.5% of cores 3-4, 0.25%
   * above (github.com/awslabs/amazon-eks-ami/pull/367, cloud.google.com/kubernetes-engine/docs/
   * concepts/plan-node-sizes). Worked example: a 2-vCPU node reserves 70m
   * (learnk8s.io/allocatable-resources); the other rows are the bands applied by hand.
   */
  @ParameterizedTest(name = "{0} vCPUs → {1} cores")
  @CsvSource({
    "0.5, 0.03",
    "1, 0.06",
    "2, 0.07",
    "3, 0.075",
    "4, 0.08",
    "8, 0.09",
    "48, 0.19",
    "96, 0.31"
  })
  void cpuReserveFollowsTheBands(double vcpus, double reserved) {
    assertThat(NodeReserve.cpuBands(vcpus)).isCloseTo(reserved, within(1e-9));
  }

  /**
   * The EKS AMI's kube-reserved memory, {@code 255Mi + 11Mi × max pods} (amazon-eks-ami PR #367,
   * wcarlsen.github.io/2026-06-16-aws-eks-node-resource-reservation): m5.large's 29 pods (the AMI's
   * eni-max-pods table) → 574Mi, 58 pods → 893Mi, Kubernetes' usual 110 → 1465Mi.
   */
  @ParameterizedTest(name = "{0} pods → {1} MiB")
  @CsvSource({"29, 574", "58, 893", "110, 1465", "234, 2829"})
  void eksMemoryReserveGrowsWithMaxPods(int maxPods, double mib) {
    assertThat(NodeReserve.eksKubeReservedMiB(maxPods)).isEqualTo(mib);
  }

  /**
   * GKE's memory bands, without the 100 MiB eviction threshold. Examples: n1-standard-2 (7.5 GiB)
   * reserves 1.7 GiB (learnk8s.io/allocatable-resources); a 150 GiB machine 9.76 GiB, 9.8577 GiB
   * with eviction (github.com/hatemosphere/gke-node-allocatable-memory-calculator, built on
   * cloud.google.com/kubernetes-engine/docs/concepts/plan-node-sizes); below 1 GiB a flat 255 MiB.
   */
  @ParameterizedTest(name = "{0} GiB → {1} GiB")
  @CsvSource({
    "0.6, 0.2490234375",
    "4, 1",
    "7.5, 1.7",
    "8, 1.8",
    "16, 2.6",
    "32, 3.56",
    "150, 9.76"
  })
  void gkeMemoryReserveFollowsTheBands(double memoryGiB, double reservedGiB) {
    assertThat(NodeReserve.gkeMemoryGiB(memoryGiB)).isCloseTo(reservedGiB, within(1e-9));
  }

  @Test
  void gkeWithEvictionMatchesThePublishedExample() {
    var kubelet = NodeReserve.kubelet("gcp", 16, 150, 110);
    assertThat(kubelet.memoryGiB()).isCloseTo(9.8577, within(1e-4));
  }

  @Test
  void eksAddsTheEvictionThresholdToKubeReserved() {
    // m5.large: 70m, 574Mi + 100Mi
    var kubelet = NodeReserve.kubelet("aws", 2, 8, 29);
    assertThat(kubelet.cpus()).isCloseTo(0.07, within(1e-9));
    assertThat(kubelet.memoryGiB()).isCloseTo(674 * MIB, within(1e-9));
    assertThat(kubelet.basis()).isEqualTo("EKS AMI kube-reserved for 29 pods + eviction");
  }

  @Test
  void onPremTakesTheStatedDefault() {
    var kubelet = NodeReserve.kubelet("onprem", 64, 512, 110);
    assertThat(kubelet.cpus()).isEqualTo(0.5);
    assertThat(kubelet.memoryGiB()).isCloseTo(1124 * MIB, within(1e-9));
  }

  @Test
  void thePoolDefaultAddsDaemonSetsAndThePoolsOwnReservedReplacesAll() {
    var byDefault = pool(null, null, null);
    var amount = NodeReserve.of(byDefault, "aws", 8, 32);
    // m5.2xlarge: 58 pods by its ENIs (EniMaxPods). 90m + 200m; 893Mi + 100Mi + 256Mi
    assertThat(amount.cpus()).isCloseTo(0.29, within(1e-9));
    assertThat(amount.memoryGiB()).isCloseTo(1249 * MIB, within(1e-9));
    assertThat(amount.basis())
        .isEqualTo("EKS AMI kube-reserved for 58 pods + eviction + daemon sets");

    // Off AWS the ENI table does not apply: the kubelet's default of 110 pods.
    assertThat(NodeReserve.maxPods(byDefault, "gcp", 8)).isEqualTo(110);
    // The pool's maxPods wins over the ENI limit.
    assertThat(NodeReserve.maxPods(pool(null, 110, null), "aws", 8)).isEqualTo(110);

    var fewerPodsLighterDaemons = pool(null, 58, new NodePool.Reserved(0.1, "100Mi"));
    var lighter = NodeReserve.of(fewerPodsLighterDaemons, "aws", 8, 32);
    assertThat(lighter.cpus()).isCloseTo(0.19, within(1e-9));
    assertThat(lighter.memoryGiB()).isCloseTo(1093 * MIB, within(1e-9));

    var own = NodeReserve.of(pool(new NodePool.Reserved(1.0, "3Gi"), 58, null), "aws", 8, 32);
    assertThat(own.cpus()).isEqualTo(1.0);
    assertThat(own.memoryGiB()).isEqualTo(3.0);
    assertThat(own.basis()).isEqualTo("the pool's reserved");
  }

  private static NodePool pool(NodePool.Reserved reserved, Integer maxPods, NodePool.Reserved ds) {
    return new NodePool(
        "p",
        "m5.2xlarge",
        null,
        null,
        null,
        null,
        null,
        null,
        4,
        false,
        null,
        null,
        reserved,
        maxPods,
        ds);
  }
}
