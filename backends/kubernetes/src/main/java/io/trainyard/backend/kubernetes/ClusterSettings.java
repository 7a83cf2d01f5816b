package io.trainyard.backend.kubernetes;

import io.trainyard.kubeflow.KubeflowWriter.MpiOperator;
import io.trainyard.kubeflow.TrainJobWriter;
import io.trainyard.kubeflow.TrainerRuntimes;
import io.trainyard.spi.spec.Framework;
import io.trainyard.spi.spec.Quantities;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * @param runtimes with {@code trainer-v2}: runtimes the cluster has beyond Kubeflow Trainer's
 *     built-in ones ({@link TrainerRuntimes}), by name, with the framework each runs; a submitted
 *     TrainJob may name them
 * @param trainerPodPatches with {@code trainer-v2}: where the cluster's Trainer reads a TrainJob's
 *     pod patches: {@code podSpecOverrides} (v2.0), {@code podTemplateOverrides} (v2.1, the
 *     default: the pinned CRD's) or {@code runtimePatches} (v2.2 and later)
 * @param mpiOperator which operator serves {@code mpijobs.kubeflow.org} on the cluster, so which
 *     MPIJob an MPI job is created as: {@code training-operator} (the default; {@code
 *     kubeflow.org/v1}) or {@code mpi-operator-v2} (the MPI Operator v2; {@code
 *     kubeflow.org/v2beta1}). Both serve the same CRD name, so a cluster runs one of them.
 * @param priorityClasses queue priority ranges → Kubernetes PriorityClass of a job's pods, used
 *     when the spec names none ({@link PriorityClassRange}); empty = none
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
    List<NodePool> nodePools,
    Map<String, Framework> runtimes,
    String trainerPodPatches,
    MpiOperator mpiOperator,
    List<PriorityClassRange> priorityClasses) {

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
    runtimes =
        runtimes == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(runtimes));
    trainerPodPatches =
        trainerPodPatches == null || trainerPodPatches.isBlank() ? null : trainerPodPatches;
    mpiOperator = mpiOperator == null ? MpiOperator.TRAINING_OPERATOR : mpiOperator;
    priorityClasses = priorityClasses == null ? List.of() : List.copyOf(priorityClasses);
    check(flavor, trainerRuntime, admissionTimeout, feeUsdPerHour, provider, nodePools);
    checkTrainer(flavor, runtimes, trainerPodPatches);
  }

  /**
   * These settings with the block's {@code priorityClasses}: queue priority ranges mapped to
   * Kubernetes PriorityClass names (null or empty: none).
   */
  public ClusterSettings withPriorityClasses(List<PriorityClassRange> ranges) {
    return new ClusterSettings(
        backendId,
        region,
        flavor,
        trainerRuntime,
        kueueQueue,
        admissionTimeout,
        feeUsdPerHour,
        provider,
        nodePools,
        runtimes,
        trainerPodPatches,
        mpiOperator,
        ranges);
  }

  /** The PriorityClass a job of queue priority {@code priority} gets, if the block maps one. */
  public java.util.Optional<String> priorityClassFor(int priority) {
    return PriorityClassRange.classFor(priorityClasses, priority);
  }

  private static void checkTrainer(
      String flavor, Map<String, Framework> runtimes, String trainerPodPatches) {
    if (!flavor.equals(TRAINER_V2) && (!runtimes.isEmpty() || trainerPodPatches != null)) {
      throw new IllegalArgumentException(
          (runtimes.isEmpty() ? "trainerPodPatches" : "runtimes")
              + " applies only to flavor "
              + TRAINER_V2);
    }
    runtimes.forEach(
        (name, framework) -> {
          if (name.isBlank() || framework == null) {
            throw new IllegalArgumentException(
                "runtimes: each entry is a runtime name and its framework (pytorch, mpi, ...)");
          }
        });
    if (trainerPodPatches != null && !TrainJobWriter.POD_PATCH_FIELDS.contains(trainerPodPatches)) {
      throw new IllegalArgumentException(
          "trainerPodPatches must be one of "
              + String.join(", ", TrainJobWriter.POD_PATCH_FIELDS)
              + ", not "
              + trainerPodPatches);
    }
  }

  /**
   * The runtimes a TrainJob sent to this cluster may name beyond Trainer's built-in ones: the
   * declared {@code runtimes} and the cluster's own {@code trainerRuntime} (Trainyard renders only
   * PyTorch jobs as TrainJobs, so that runtime runs torch); empty unless {@code trainer-v2}.
   */
  public Map<String, Framework> declaredRuntimes() {
    if (!rendersTrainJobs()) {
      return Map.of();
    }
    var all = new LinkedHashMap<String, Framework>();
    if (!TrainerRuntimes.isBuiltIn(trainerRuntime)) {
      all.put(trainerRuntime, Framework.PYTORCH);
    }
    all.putAll(runtimes);
    return Collections.unmodifiableMap(all);
  }

  /**
   * The framework of runtime {@code name} on this cluster; empty when the cluster has none such.
   */
  public java.util.Optional<Framework> runtimeFramework(String name) {
    if (!rendersTrainJobs()) {
      return java.util.Optional.empty();
    }
    var declared = declaredRuntimes().get(name);
    if (declared != null) {
      return java.util.Optional.of(declared);
    }
    return TrainerRuntimes.builtIn().find(name).map(TrainerRuntimes.Runtime::framework);
  }

  /** Where this cluster's Trainer reads pod patches (see the record's doc). */
  public String effectivePodPatches() {
    return trainerPodPatches == null ? TrainJobWriter.DEFAULT_POD_PATCHES : trainerPodPatches;
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
   * admissionTimeout} is a duration such as {@code 10m}; a {@code trainer-v2} block's {@code
   * runtimes} ({@code name: framework}, as written) and {@code trainerPodPatches}; the cluster's
   * {@code mpiOperator} ({@code training-operator}, the default when null or blank, or {@code
   * mpi-operator-v2}).
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
      List<NodePool> nodePools,
      Map<String, String> runtimes,
      String trainerPodPatches,
      String mpiOperator) {
    var frameworks = new LinkedHashMap<String, Framework>();
    if (runtimes != null) {
      runtimes.forEach(
          (name, framework) -> {
            try {
              frameworks.put(name, Framework.fromWireName(framework));
            } catch (IllegalArgumentException e) {
              throw new IllegalArgumentException("runtimes." + name + ": " + e.getMessage(), e);
            }
          });
    }
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
        nodePools,
        frameworks,
        trainerPodPatches,
        mpiOperator == null || mpiOperator.isBlank() ? null : MpiOperator.fromWireName(mpiOperator),
        null);
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
