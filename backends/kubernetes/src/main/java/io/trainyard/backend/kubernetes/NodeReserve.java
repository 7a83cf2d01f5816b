package io.trainyard.backend.kubernetes;

/**
 * What a node keeps from pods when its pool does not say ({@code reserved}): the kubelet's and the
 * OS's reserve by the provider's published formula, the kubelet's hard eviction threshold, and an
 * allowance for daemon sets. GPUs are never reserved. Pure.
 *
 * <p>Sources:
 *
 * <ul>
 *   <li>EKS (the EKS-optimized AMI's kube-reserved, set by its bootstrap): memory {@code 255Mi +
 *       11Mi × maxPods}; CPU 6% of the first core, 1% of the second, 0.5% of the third and fourth,
 *       0.25% of the rest; {@code evictionHard memory.available: 100Mi} —
 *       https://github.com/awslabs/amazon-eks-ami/pull/367 (where the formulas came in, with
 *       examples per instance type), explained at
 *       https://wcarlsen.github.io/2026-06-16-aws-eks-node-resource-reservation/ and
 *       https://learnk8s.io/allocatable-resources
 *   <li>GKE: memory 255 MiB below 1 GiB, else 25% of the first 4 GiB, 20% of the next 4, 10% of the
 *       next 8, 6% of the next 112, 2% above 128 GiB, plus 100 MiB for eviction; CPU the same bands
 *       as EKS —
 *       https://cloud.google.com/kubernetes-engine/docs/concepts/plan-node-sizes#memory_and_cpu_reservations
 *   <li>On-prem: a kubelet reserves nothing unless its operator configures it; Trainyard assumes
 *       {@value #ONPREM_CPUS} vCPU and {@value #ONPREM_MEMORY_MIB} MiB for the OS and the kubelet
 *       plus the kubelet's default hard eviction threshold of 100 MiB —
 *       https://kubernetes.io/docs/concepts/scheduling-eviction/node-pressure-eviction/#hard-eviction-thresholds
 * </ul>
 *
 * <p>Daemon sets (kube-proxy, the CNI, logging and metrics agents, on GPU nodes the device plugin)
 * request capacity on every node too: {@value #DAEMON_SET_CPUS} vCPU and {@value
 * #DAEMON_SET_MEMORY} by default (a managed cluster's stock set: kube-proxy's 100m, the CNI's 25m,
 * a logging and a metrics agent; rounded up), {@code daemonSets} in the pool block to change it.
 */
final class NodeReserve {
  /** Pods per node in the EKS memory formula when the pool does not say ({@code maxPods}). */
  static final int DEFAULT_MAX_PODS = 110;

  static final double EVICTION_MIB = 100;
  static final double ONPREM_CPUS = 0.5;
  static final double ONPREM_MEMORY_MIB = 1024;
  static final double DAEMON_SET_CPUS = 0.2;
  static final String DAEMON_SET_MEMORY = "256Mi";

  private static final double[] CPU_BAND_CORES = {1, 1, 2};
  private static final double[] CPU_BAND_RATES = {0.06, 0.01, 0.005};
  private static final double CPU_REST_RATE = 0.0025;
  private static final double[] GKE_BAND_GIB = {4, 4, 8, 112};
  private static final double[] GKE_BAND_RATES = {0.25, 0.20, 0.10, 0.06};
  private static final double GKE_REST_RATE = 0.02;

  /**
   * A reserve per node.
   *
   * @param basis how it was reached, in words for the quote's notes
   */
  record Amount(double cpus, double memoryGiB, String basis) {}

  private NodeReserve() {}

  /**
   * The reserve of a node of {@code pool} with {@code vcpus} and {@code memoryGiB}, on a cluster of
   * {@code provider} ({@code aws}: the EKS AMI's, {@code gcp}: GKE's, else the on-prem default):
   * the pool's own {@code reserved} when it sets one (which then stands for everything, daemon sets
   * included), else the formula plus the daemon-set allowance.
   */
  static Amount of(NodePool pool, String provider, double vcpus, double memoryGiB) {
    if (pool.reserved() != null) {
      return new Amount(
          pool.reserved().cpuCount(), pool.reserved().memoryGiB(), "the pool's reserved");
    }
    var daemonSets =
        pool.daemonSets() != null
            ? pool.daemonSets()
            : new NodePool.Reserved(DAEMON_SET_CPUS, DAEMON_SET_MEMORY);
    var kubelet = kubelet(provider, vcpus, memoryGiB, maxPods(pool, provider, vcpus));
    return new Amount(
        kubelet.cpus() + daemonSets.cpuCount(),
        kubelet.memoryGiB() + daemonSets.memoryGiB(),
        kubelet.basis() + " + daemon sets");
  }

  /**
   * Pods per node for the EKS memory formula: the pool's {@code maxPods}; else on {@code aws} the
   * instance type's ENI limit ({@link EniMaxPods}), which the EKS AMI's formula is written for;
   * else {@value #DEFAULT_MAX_PODS}.
   */
  static int maxPods(NodePool pool, String provider, double vcpus) {
    if (pool.maxPods() != null) {
      return pool.maxPods();
    }
    return "aws".equals(provider)
        ? EniMaxPods.of(pool.instanceType(), vcpus).orElse(DEFAULT_MAX_PODS)
        : DEFAULT_MAX_PODS;
  }

  /** The kubelet's, the OS's and the eviction threshold's part alone. */
  static Amount kubelet(String provider, double vcpus, double memoryGiB, int maxPods) {
    return switch (provider) {
      case "aws" ->
          new Amount(
              cpuBands(vcpus),
              mib(eksKubeReservedMiB(maxPods) + EVICTION_MIB),
              "EKS AMI kube-reserved for " + maxPods + " pods + eviction");
      case "gcp" ->
          new Amount(
              cpuBands(vcpus),
              gkeMemoryGiB(memoryGiB) + mib(EVICTION_MIB),
              "GKE reserved + eviction");
      default ->
          new Amount(
              Math.min(ONPREM_CPUS, vcpus),
              mib(ONPREM_MEMORY_MIB + EVICTION_MIB),
              "on-prem default + eviction");
    };
  }

  /** The EKS AMI's kube-reserved memory, MiB. */
  static double eksKubeReservedMiB(int maxPods) {
    return 255 + 11.0 * maxPods;
  }

  /** 6% of the first core, 1% of the second, 0.5% of the 3rd and 4th, 0.25% above (EKS, GKE). */
  static double cpuBands(double vcpus) {
    return bands(vcpus, CPU_BAND_CORES, CPU_BAND_RATES, CPU_REST_RATE);
  }

  /** GKE's reserved memory, GiB, without the eviction threshold. */
  static double gkeMemoryGiB(double memoryGiB) {
    if (memoryGiB < 1) {
      return mib(255);
    }
    return bands(memoryGiB, GKE_BAND_GIB, GKE_BAND_RATES, GKE_REST_RATE);
  }

  private static double bands(double amount, double[] widths, double[] rates, double restRate) {
    double reserved = 0;
    double left = amount;
    for (int i = 0; i < widths.length && left > 0; i++) {
      var inBand = Math.min(left, widths[i]);
      reserved += inBand * rates[i];
      left -= inBand;
    }
    return reserved + Math.max(left, 0) * restRate;
  }

  private static double mib(double mib) {
    return mib / 1024;
  }
}
