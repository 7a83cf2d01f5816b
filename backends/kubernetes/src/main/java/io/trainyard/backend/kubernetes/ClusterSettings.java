package io.trainyard.backend.kubernetes;

import io.trainyard.spi.spec.Quantities;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What a Kubernetes backend needs to know of its cluster besides how to reach it: the part of the
 * {@code kubernetes}, {@code eks} and {@code gke} configuration blocks they share, so the EKS and
 * GKE backends reuse this module and add only reaching and authenticating.
 *
 * @param flavor which documents to render: {@code kubeflow-v1} (the training operator's v1 jobs) or
 *     {@code trainer-v2} (Kubeflow Trainer's {@code TrainJob})
 * @param trainerRuntime with {@code trainer-v2}: the {@code ClusterTrainingRuntime} a TrainJob's
 *     {@code runtimeRef} names; null otherwise
 * @param kueueQueue a Kueue LocalQueue, set as the {@code kueue.x-k8s.io/queue-name} label; null
 *     for none
 * @param admissionTimeout how long an accepted attempt may wait to run (pods pending, held by
 *     Kueue) before it is deleted and the job fails over
 * @param feeUsdPerHour the cluster's hourly fee (a managed control plane), shared by its nodes;
 *     null when there is none
 * @param provider the price catalog's provider for pools without {@code usdPerNodeHour}: {@code
 *     aws} (EC2 rows), {@code gcp} (GCE rows) or {@code onprem} (every pool operator-priced)
 */
public record ClusterSettings(
    String backendId,
    String region,
    String flavor,
    String trainerRuntime,
    String kueueQueue,
    Duration admissionTimeout,
    BigDecimal feeUsdPerHour,
    String provider,
    List<NodePool> nodePools) {

  public static final String KUBEFLOW_V1 = "kubeflow-v1";
  public static final String TRAINER_V2 = "trainer-v2";
  private static final Set<String> PROVIDERS = Set.of("onprem", "aws", "gcp");

  public ClusterSettings {
    Objects.requireNonNull(backendId, "backendId");
    Objects.requireNonNull(region, "region");
    flavor = flavor == null || flavor.isBlank() ? KUBEFLOW_V1 : flavor;
    admissionTimeout = admissionTimeout == null ? Duration.ofMinutes(10) : admissionTimeout;
    provider = provider == null || provider.isBlank() ? "onprem" : provider;
    nodePools = nodePools == null ? List.of() : List.copyOf(nodePools);
    trainerRuntime = trainerRuntime == null || trainerRuntime.isBlank() ? null : trainerRuntime;
    check(flavor, trainerRuntime, admissionTimeout, feeUsdPerHour, provider, nodePools);
  }

  private static void check(
      String flavor,
      String trainerRuntime,
      Duration admissionTimeout,
      BigDecimal feeUsdPerHour,
      String provider,
      List<NodePool> pools) {
    if (!flavor.equals(KUBEFLOW_V1) && !flavor.equals(TRAINER_V2)) {
      throw new IllegalArgumentException(
          "flavor must be " + KUBEFLOW_V1 + " or " + TRAINER_V2 + ", not " + flavor);
    }
    if (trainerRuntime != null && !flavor.equals(TRAINER_V2)) {
      throw new IllegalArgumentException("trainerRuntime applies only to flavor " + TRAINER_V2);
    }
    if (trainerRuntime == null && flavor.equals(TRAINER_V2)) {
      throw new IllegalArgumentException(
          "trainerRuntime is required with flavor "
              + TRAINER_V2
              + ": the ClusterTrainingRuntime every TrainJob runs on");
    }
    if (admissionTimeout.isNegative() || admissionTimeout.isZero()) {
      throw new IllegalArgumentException("admissionTimeout must be more than 0");
    }
    if (feeUsdPerHour != null && feeUsdPerHour.signum() < 0) {
      throw new IllegalArgumentException("feeUsdPerHour must be 0 or more");
    }
    if (!PROVIDERS.contains(provider)) {
      throw new IllegalArgumentException("provider must be one of onprem, aws, gcp");
    }
    if (pools.isEmpty()) {
      throw new IllegalArgumentException("nodePools must name at least one pool");
    }
    var names = new HashSet<String>();
    // A placement names instance types, not pools: two pools of one type and spot-ness could
    // not be told apart when the job is rendered.
    var kinds = new HashSet<String>();
    for (var pool : pools) {
      if (!names.add(pool.name())) {
        throw new IllegalArgumentException("nodePools: two pools are named " + pool.name());
      }
      if (!kinds.add(pool.instanceType() + "|" + pool.isSpot())) {
        throw new IllegalArgumentException(
            "nodePools: two "
                + (pool.isSpot() ? "spot" : "on-demand")
                + " pools of "
                + pool.instanceType()
                + "; placements could not tell them apart");
      }
      if (provider.equals("onprem") && (!pool.operatorPriced() || !pool.declaresShape())) {
        throw new IllegalArgumentException(
            "nodePools."
                + pool.name()
                + ": with provider onprem every pool needs cpus, memory and usdPerNodeHour"
                + " (the price catalog knows no on-prem nodes)");
      }
    }
  }

  /**
   * The settings of a configuration block as written: blank strings count as absent, {@code
   * admissionTimeout} is a duration such as {@code 10m}.
   *
   * @throws IllegalArgumentException naming the field that is wrong
   */
  public static ClusterSettings fromBlock(
      String id,
      String region,
      String flavor,
      String trainerRuntime,
      String kueueQueue,
      String admissionTimeout,
      BigDecimal feeUsdPerHour,
      String provider,
      List<NodePool> nodePools) {
    Duration timeout;
    try {
      timeout =
          admissionTimeout == null || admissionTimeout.isBlank()
              ? null
              : Quantities.duration(admissionTimeout);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("admissionTimeout: " + e.getMessage(), e);
    }
    return new ClusterSettings(
        id,
        region,
        flavor,
        trainerRuntime,
        kueueQueue == null || kueueQueue.isBlank() ? null : kueueQueue,
        timeout,
        feeUsdPerHour,
        provider,
        nodePools);
  }

  /** Whether jobs render as Kubeflow Trainer TrainJobs rather than training-operator v1 jobs. */
  public boolean rendersTrainJobs() {
    return flavor.equals(TRAINER_V2);
  }

  /** The sum of the pools' {@code maxNodes}: the cluster fee is shared by that many nodes. */
  public int totalMaxNodes() {
    return nodePools.stream().mapToInt(NodePool::maxNodes).sum();
  }

  /** The catalog service of this provider's VMs: {@code ec2}, {@code gce}. */
  public String catalogService() {
    return switch (provider) {
      case "aws" -> "ec2";
      case "gcp" -> "gce";
      default -> "kubernetes";
    };
  }
}
