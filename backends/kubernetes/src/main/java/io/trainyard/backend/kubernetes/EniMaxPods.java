package io.trainyard.backend.kubernetes;

import java.util.Map;
import java.util.OptionalInt;

/**
 * Pods per node on an EKS node with the Amazon VPC CNI, where every pod takes an IP address of the
 * node's network interfaces: {@code ENIs × (IPv4 addresses per ENI − 1) + 2} (the first address of
 * each ENI is the node's own; +2 for the host-network pods, the CNI and kube-proxy), as the
 * EKS-optimized AMI's {@code eni-max-pods.txt} lists it per instance type —
 * https://github.com/awslabs/amazon-eks-ami/blob/main/templates/shared/runtime/eni-max-pods.txt
 * (ENIs and addresses per ENI:
 * https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/using-eni.html#AvailableIpPerENI).
 *
 * <p>EKS then caps it as its {@code max-pods-calculator.sh} does (the figure EKS recommends and
 * managed node groups apply): at most 110 on instances with 30 vCPUs or fewer, 250 on larger ones —
 * https://github.com/awslabs/amazon-eks-ami/blob/main/templates/al2/runtime/max-pods-calculator.sh
 * ({@code MAX_POD_CEILING_FOR_LOW_CPU}, {@code MAX_POD_CEILING_FOR_HIGH_CPU}). So a g5.12xlarge (48
 * vCPUs, 737 by its ENIs) runs 250 pods and an m5.2xlarge (8 vCPUs) 58.
 *
 * <p>The table holds the EC2 instance types of the embedded price catalog; any other type gets
 * {@link NodeReserve#DEFAULT_MAX_PODS} (the kubelet's default), and a pool's {@code maxPods}
 * overrides either. Pure.
 */
final class EniMaxPods {
  static final int CEILING_LOW_CPU = 110;
  static final int CEILING_HIGH_CPU = 250;
  static final int LOW_CPU_MAX_VCPUS = 30;

  /** eni-max-pods.txt at awslabs/amazon-eks-ami@0254c5b4 for the catalog's EC2 types. */
  static final Map<String, Integer> BY_ENI =
      Map.ofEntries(
          Map.entry("c5.4xlarge", 234),
          Map.entry("g4dn.xlarge", 29),
          Map.entry("g4dn.12xlarge", 234),
          Map.entry("g5.xlarge", 58),
          Map.entry("g5.2xlarge", 58),
          Map.entry("g5.12xlarge", 737),
          Map.entry("g5.48xlarge", 345),
          Map.entry("g6.xlarge", 58),
          Map.entry("m5.2xlarge", 58),
          Map.entry("m5.4xlarge", 234),
          Map.entry("p3.2xlarge", 58),
          Map.entry("p3.8xlarge", 234),
          Map.entry("p3.16xlarge", 234),
          Map.entry("p4d.24xlarge", 737),
          Map.entry("p5.48xlarge", 100));

  private EniMaxPods() {}

  /** Pods per node of {@code instanceType} with {@code vcpus}, capped; empty when not listed. */
  static OptionalInt of(String instanceType, double vcpus) {
    var byEni = BY_ENI.get(instanceType);
    if (byEni == null) {
      return OptionalInt.empty();
    }
    var ceiling = vcpus > LOW_CPU_MAX_VCPUS ? CEILING_HIGH_CPU : CEILING_LOW_CPU;
    return OptionalInt.of(Math.min(byEni, ceiling));
  }
}
