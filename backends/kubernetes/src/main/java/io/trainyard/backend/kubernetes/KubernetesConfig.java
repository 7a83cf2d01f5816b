package io.trainyard.backend.kubernetes;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonTypeName;
import io.trainyard.spi.BackendConfig;
import io.trainyard.spi.spec.Framework;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The {@code type: kubernetes} configuration block: any cluster reached by a kubeconfig, or the
 * cluster the gateway runs in.
 *
 * <pre>{@code
 * - type: kubernetes
 *   id: onprem-a
 *   region: dc-frankfurt
 *   kubeconfig: /etc/trainyard/onprem-a.kubeconfig   # absent: in-cluster (or ~/.kube/config)
 *   inCluster: false                                 # true: this pod's service account only
 *   context: onprem-a                                # optional: a context of that kubeconfig
 *   hipaaEligible: false
 *   discountPct: 0
 *   flavor: kubeflow-v1                              # or trainer-v2 (TrainJob)
 *   trainerRuntime: torch-distributed                # trainer-v2: the ClusterTrainingRuntime
 *   runtimes: {torch-h100: pytorch}                  # trainer-v2: runtimes beyond Trainer's own
 *   trainerPodPatches: podTemplateOverrides          # trainer-v2: or podSpecOverrides, runtimePatches
 *   mpiOperator: training-operator                   # or mpi-operator-v2 (kubeflow.org/v2beta1 MPIJob)
 *   kueueQueue: team-queue                           # optional
 *   admissionTimeout: 10m
 *   feeUsdPerHour: 0.10                              # optional cluster fee, shared by nodes
 *   provider: onprem                                 # onprem | aws | gcp: the catalog's provider
 *   nodePools: [...]                                 # see NodePool
 * }</pre>
 */
@JsonTypeName(KubernetesBackendFactory.KIND)
public record KubernetesConfig(
    String id,
    String region,
    boolean hipaaEligible,
    BigDecimal discountPct,
    String kubeconfig,
    String context,
    String flavor,
    String trainerRuntime,
    String kueueQueue,
    String admissionTimeout,
    BigDecimal feeUsdPerHour,
    String provider,
    List<NodePool> nodePools,
    Map<String, String> runtimes,
    String trainerPodPatches,
    String mpiOperator,
    List<PriorityClassRange> priorityClasses,
    boolean inCluster)
    implements BackendConfig {

  public KubernetesConfig {
    if (id == null || id.isBlank()) {
      throw new IllegalArgumentException("id is required");
    }
    if (region == null || region.isBlank()) {
      throw new IllegalArgumentException("region is required");
    }
    discountPct = discountPct == null ? BigDecimal.ZERO : discountPct;
    admissionTimeout =
        admissionTimeout == null || admissionTimeout.isBlank() ? "10m" : admissionTimeout;
    nodePools = nodePools == null ? List.of() : List.copyOf(nodePools);
    runtimes = runtimes == null ? Map.of() : Map.copyOf(runtimes);
    if (discountPct.signum() < 0 || discountPct.compareTo(BigDecimal.valueOf(100)) > 0) {
      throw new IllegalArgumentException("discountPct must be between 0 and 100");
    }
    if (inCluster && ((kubeconfig != null && !kubeconfig.isBlank()) || context != null)) {
      throw new IllegalArgumentException(
          "inCluster: true uses the pod's service account: leave out kubeconfig and context");
    }
    // Checks every cluster field now, so a bad block fails when the configuration is read.
    ClusterSettings.fromBlock(
        id,
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
        mpiOperator);
  }

  /**
   * Binds a block in which any field may be missing; a missing {@code hipaaEligible} must not trip
   * a mapper that refuses nulls for primitives.
   */
  @JsonCreator
  static KubernetesConfig bind(
      @JsonProperty("id") String id,
      @JsonProperty("region") String region,
      @JsonProperty("hipaaEligible") Boolean hipaaEligible,
      @JsonProperty("discountPct") BigDecimal discountPct,
      @JsonProperty("kubeconfig") String kubeconfig,
      @JsonProperty("context") String context,
      @JsonProperty("flavor") String flavor,
      @JsonProperty("trainerRuntime") String trainerRuntime,
      @JsonProperty("kueueQueue") String kueueQueue,
      @JsonProperty("admissionTimeout") String admissionTimeout,
      @JsonProperty("feeUsdPerHour") BigDecimal feeUsdPerHour,
      @JsonProperty("provider") String provider,
      @JsonProperty("nodePools") List<NodePool> nodePools,
      @JsonProperty("runtimes") Map<String, String> runtimes,
      @JsonProperty("trainerPodPatches") String trainerPodPatches,
      @JsonProperty("mpiOperator") String mpiOperator,
      @JsonProperty("priorityClasses") List<PriorityClassRange> priorityClasses,
      @JsonProperty("inCluster") Boolean inCluster) {
    return new KubernetesConfig(
        id,
        region,
        Boolean.TRUE.equals(hipaaEligible),
        discountPct,
        kubeconfig,
        context,
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
        priorityClasses,
        Boolean.TRUE.equals(inCluster));
  }

  /** The cluster part of this block, which the EKS and GKE blocks share. */
  public ClusterSettings settings() {
    return ClusterSettings.fromBlock(
            id,
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
            mpiOperator)
        .withPriorityClasses(priorityClasses);
  }

  @Override
  public Map<String, Framework> trainerRuntimes() {
    return settings().declaredRuntimes();
  }

  /** The kubeconfig file, if the block names one; else the client's own discovery applies. */
  public Path kubeconfigPath() {
    return kubeconfig == null || kubeconfig.isBlank() ? null : Path.of(kubeconfig);
  }
}
