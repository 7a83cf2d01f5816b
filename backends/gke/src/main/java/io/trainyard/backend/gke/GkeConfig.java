package io.trainyard.backend.gke;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonTypeName;
import io.trainyard.backend.kubernetes.ClusterSettings;
import io.trainyard.backend.kubernetes.NodePool;
import io.trainyard.spi.BackendConfig;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code type: gke} configuration block: a Google Kubernetes Engine cluster, reached at its
 * endpoint with its CA (or through a kubeconfig that names both), authenticated with OAuth access
 * tokens of a Google service account.
 *
 * <pre>{@code
 * - type: gke
 *   id: gke-usc1
 *   region: us-central1
 *   project: ml-prod                      # optional, for people: not used to find the cluster
 *   cluster: train                        # optional, likewise
 *   endpoint: 34.118.0.10                 # masterAuth's endpoint: a host, or an https:// URL
 *   caCertificate: LS0tLS1CRUdJTi...      # masterAuth.clusterCaCertificate (base64 of PEM)
 *   # or instead of endpoint + caCertificate:
 *   # kubeconfig: /etc/trainyard/gke-usc1.kubeconfig
 *   # context: gke_ml-prod_us-central1_train
 *   credentialsFile: /etc/trainyard/gke-sa.json   # absent: application default credentials
 *   hipaaEligible: false
 *   discountPct: 0
 *   feeUsdPerHour: 0.10                   # default: GKE's cluster management fee
 *   kueueQueue: team-queue
 *   admissionTimeout: 10m
 *   nodePools:
 *     - {name: t4, instanceType: n1-standard-8, accelerator: {gpuType: nvidia-t4, gpus: 1}, maxNodes: 10}
 * }</pre>
 *
 * The shared cluster fields are {@link ClusterSettings}'s, with the provider always {@code gcp}
 * (pools are priced from the catalog's GCE rows). Every field is checked when the block is bound;
 * files are read when the backend is created ({@link GkeBackendFactory}).
 *
 * @param endpoint the API server as written; {@link #serverUrl()} is its {@code https://} form
 * @param caCertificate base64 of the cluster CA's PEM, as GKE's {@code clusterCaCertificate} gives
 *     it
 * @param credentialsFile a service-account key JSON; null for application default credentials
 */
@JsonTypeName(GkeBackendFactory.KIND)
public record GkeConfig(
    String id,
    String region,
    boolean hipaaEligible,
    BigDecimal discountPct,
    String project,
    String cluster,
    String endpoint,
    String caCertificate,
    String kubeconfig,
    String context,
    String credentialsFile,
    String flavor,
    String trainerRuntime,
    String kueueQueue,
    String admissionTimeout,
    BigDecimal feeUsdPerHour,
    String provider,
    List<NodePool> nodePools)
    implements BackendConfig {

  /**
   * GKE's cluster management fee, $0.10 per cluster-hour
   * (https://cloud.google.com/kubernetes-engine/pricing); an operator whose cluster qualifies for
   * the free tier or an Enterprise edition sets {@code feeUsdPerHour} instead.
   */
  public static final BigDecimal MANAGEMENT_FEE_USD_PER_HOUR = new BigDecimal("0.10");

  /** The price catalog's provider for every GKE pool. */
  public static final String PROVIDER = "gcp";

  public GkeConfig {
    if (blank(id)) {
      throw new IllegalArgumentException("id is required");
    }
    if (blank(region)) {
      throw new IllegalArgumentException("region is required");
    }
    discountPct = discountPct == null ? BigDecimal.ZERO : discountPct;
    if (discountPct.signum() < 0 || discountPct.compareTo(BigDecimal.valueOf(100)) > 0) {
      throw new IllegalArgumentException("discountPct must be between 0 and 100");
    }
    project = orNull(project);
    cluster = orNull(cluster);
    endpoint = orNull(endpoint);
    caCertificate = orNull(caCertificate);
    kubeconfig = orNull(kubeconfig);
    context = orNull(context);
    credentialsFile = credentialsFile == null ? null : credentialsFile.strip();
    if (credentialsFile != null && credentialsFile.isEmpty()) {
      throw new IllegalArgumentException(
          "credentialsFile is empty; leave it out to use application default credentials");
    }
    if (provider != null && !provider.isBlank() && !provider.equals(PROVIDER)) {
      throw new IllegalArgumentException(
          "provider of a gke block is always " + PROVIDER + " (pools are GCE machines)");
    }
    provider = PROVIDER;
    feeUsdPerHour = feeUsdPerHour == null ? MANAGEMENT_FEE_USD_PER_HOUR : feeUsdPerHour;
    nodePools = nodePools == null ? List.of() : List.copyOf(nodePools);
    checkReach(endpoint, caCertificate, kubeconfig, context);
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
        nodePools);
  }

  private static void checkReach(
      String endpoint, String caCertificate, String kubeconfig, String context) {
    if (endpoint != null && kubeconfig != null) {
      throw new IllegalArgumentException(
          "endpoint and kubeconfig are two ways to reach the cluster: give one");
    }
    if (endpoint == null && kubeconfig == null) {
      throw new IllegalArgumentException(
          "endpoint (with caCertificate) or kubeconfig is required;"
              + " project and cluster alone do not locate the cluster");
    }
    if (endpoint != null) {
      GkeEndpoint.serverUrl(endpoint);
      if (caCertificate == null) {
        throw new IllegalArgumentException(
            "caCertificate is required with endpoint (the cluster's masterAuth"
                + ".clusterCaCertificate)");
      }
      GkeEndpoint.checkCaCertificate(caCertificate, "caCertificate");
    } else {
      if (caCertificate != null) {
        throw new IllegalArgumentException(
            "caCertificate goes with endpoint; with kubeconfig the CA comes from the kubeconfig");
      }
    }
    if (context != null && kubeconfig == null) {
      throw new IllegalArgumentException("context applies only with kubeconfig");
    }
  }

  /**
   * Binds a block in which any field may be missing; a missing {@code hipaaEligible} must not trip
   * a mapper that refuses nulls for primitives.
   */
  @JsonCreator
  static GkeConfig bind(
      @JsonProperty("id") String id,
      @JsonProperty("region") String region,
      @JsonProperty("hipaaEligible") Boolean hipaaEligible,
      @JsonProperty("discountPct") BigDecimal discountPct,
      @JsonProperty("project") String project,
      @JsonProperty("cluster") String cluster,
      @JsonProperty("endpoint") String endpoint,
      @JsonProperty("caCertificate") String caCertificate,
      @JsonProperty("kubeconfig") String kubeconfig,
      @JsonProperty("context") String context,
      @JsonProperty("credentialsFile") String credentialsFile,
      @JsonProperty("flavor") String flavor,
      @JsonProperty("trainerRuntime") String trainerRuntime,
      @JsonProperty("kueueQueue") String kueueQueue,
      @JsonProperty("admissionTimeout") String admissionTimeout,
      @JsonProperty("feeUsdPerHour") BigDecimal feeUsdPerHour,
      @JsonProperty("provider") String provider,
      @JsonProperty("nodePools") List<NodePool> nodePools) {
    return new GkeConfig(
        id,
        region,
        Boolean.TRUE.equals(hipaaEligible),
        discountPct,
        project,
        cluster,
        endpoint,
        caCertificate,
        kubeconfig,
        context,
        credentialsFile,
        flavor,
        trainerRuntime,
        kueueQueue,
        admissionTimeout,
        feeUsdPerHour,
        provider,
        nodePools);
  }

  /** The cluster part of this block, shared with the {@code kubernetes} and {@code eks} blocks. */
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
        nodePools);
  }

  /** The API server's {@code https://} URL, or null when the kubeconfig names it. */
  public String serverUrl() {
    return endpoint == null ? null : GkeEndpoint.serverUrl(endpoint);
  }

  /** The kubeconfig file, or null when the block gives endpoint and CA. */
  public Path kubeconfigPath() {
    return kubeconfig == null ? null : Path.of(kubeconfig);
  }

  /** The service-account key file, or null for application default credentials. */
  public Path credentialsPath() {
    return credentialsFile == null ? null : Path.of(credentialsFile);
  }

  // Keeps the CA (public, but kilobytes long) out of log lines; the key file is only a path.
  @Override
  public String toString() {
    return "GkeConfig[id="
        + id
        + ", region="
        + region
        + ", endpoint="
        + (endpoint != null ? endpoint : "kubeconfig " + kubeconfig)
        + ", credentials="
        + (credentialsFile != null ? credentialsFile : "application default")
        + "]";
  }

  private static boolean blank(String s) {
    return s == null || s.isBlank();
  }

  private static String orNull(String s) {
    return blank(s) ? null : s.strip();
  }
}
