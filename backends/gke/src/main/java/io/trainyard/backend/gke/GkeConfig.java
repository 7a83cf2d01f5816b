package io.trainyard.backend.gke;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonTypeName;
import io.trainyard.backend.kubernetes.ClusterSettings;
import io.trainyard.backend.kubernetes.NodePool;
import io.trainyard.backend.kubernetes.PriorityClassRange;
import io.trainyard.spi.BackendConfig;
import io.trainyard.spi.spec.Framework;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The {@code type: gke} configuration block: a Google Kubernetes Engine cluster, reached at its
 * endpoint with its CA (given, read from a kubeconfig that names both, or looked up through the GKE
 * API from project, location and cluster name), authenticated with OAuth access tokens of a Google
 * service account.
 *
 * <pre>{@code
 * - type: gke
 *   id: gke-usc1
 *   region: us-central1
 *   project: ml-prod                      # with cluster, and no endpoint or kubeconfig: the
 *   cluster: train                        #   cluster is looked up through the GKE API
 *   location: us-central1-a               # optional: the zone of a zonal cluster; else region
 *   containerEndpoint: https://container.googleapis.com  # optional: the GKE API (PSC, tests)
 *   # or, to reach the cluster without the GKE API (project and cluster then only for people):
 *   # endpoint: 34.118.0.10               # the cluster's endpoint: a host, or an https:// URL
 *   # caCertificate: LS0tLS1CRUdJTi...    # masterAuth.clusterCaCertificate (base64 of PEM)
 *   # or:
 *   # kubeconfig: /etc/trainyard/gke-usc1.kubeconfig
 *   # context: gke_ml-prod_us-central1_train
 *   credentialsFile: /etc/trainyard/gke-sa.json   # absent: application default credentials
 *   hipaaEligible: false
 *   discountPct: 0
 *   feeUsdPerHour: 0.10                   # default: GKE's cluster management fee
 *   kueueQueue: team-queue
 *   admissionTimeout: 10m
 *   # flavor: trainer-v2 with trainerRuntime, runtimes, trainerPodPatches as in type: kubernetes; mpiOperator too
 *   nodePools:
 *     - {name: t4, instanceType: n1-standard-8, accelerator: {gpuType: nvidia-t4, gpus: 1}, maxNodes: 10}
 * }</pre>
 *
 * The shared cluster fields are {@link ClusterSettings}'s, with the provider always {@code gcp}
 * (pools are priced from the catalog's GCE rows). Every field is checked when the block is bound;
 * files are read, and the cluster looked up, when the backend is created ({@link
 * GkeBackendFactory}).
 *
 * @param endpoint the API server as written; {@link #serverUrl()} is its {@code https://} form
 * @param caCertificate base64 of the cluster CA's PEM, as GKE's {@code clusterCaCertificate} gives
 *     it
 * @param credentialsFile a service-account key JSON; null for application default credentials
 * @param location where the cluster is looked up: a zone (zonal cluster) or region; null for {@code
 *     region}
 * @param containerEndpoint the GKE API's base URL; null for {@value #CONTAINER_API}
 */
@JsonTypeName(GkeBackendFactory.KIND)
public record GkeConfig(
    String id,
    String region,
    boolean hipaaEligible,
    BigDecimal discountPct,
    String project,
    String cluster,
    String location,
    String containerEndpoint,
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
    List<NodePool> nodePools,
    Map<String, String> runtimes,
    String trainerPodPatches,
    String mpiOperator,
    List<PriorityClassRange> priorityClasses)
    implements BackendConfig {

  /**
   * GKE's cluster management fee, $0.10 per cluster-hour
   * (https://cloud.google.com/kubernetes-engine/pricing); an operator whose cluster qualifies for
   * the free tier or an Enterprise edition sets {@code feeUsdPerHour} instead.
   */
  public static final BigDecimal MANAGEMENT_FEE_USD_PER_HOUR = new BigDecimal("0.10");

  /** The price catalog's provider for every GKE pool. */
  public static final String PROVIDER = "gcp";

  /** The GKE API, where a cluster named by project, location and name is looked up. */
  public static final String CONTAINER_API = "https://container.googleapis.com";

  // What a project id (or legacy domain:project), a location or a cluster name can be; starting
  // with a letter or digit keeps "." and ".." out of the lookup's URL path.
  private static final Pattern GKE_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9.:_-]{0,99}");

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
    if (location != null) {
      location = location.strip();
      if (location.isEmpty()) {
        throw new IllegalArgumentException("location is empty; leave it out to use region");
      }
      if (!location.matches("[a-z0-9-]+")) {
        throw new IllegalArgumentException(
            "location must be a GCP region or zone (us-central1, us-central1-a): " + location);
      }
    }
    containerEndpoint = containerEndpoint == null ? null : containerApiUrl(containerEndpoint);
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
    runtimes = runtimes == null ? Map.of() : Map.copyOf(runtimes);
    checkReach(project, cluster, containerEndpoint, endpoint, caCertificate, kubeconfig, context);
    if (endpoint == null
        && kubeconfig == null
        && location == null
        && !region.strip().matches("[a-z0-9-]+")) {
      throw new IllegalArgumentException(
          "region is where the cluster is looked up, and must be a GCP region (us-central1): "
              + region
              + "; or set location");
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

  private static void checkReach(
      String project,
      String cluster,
      String containerEndpoint,
      String endpoint,
      String caCertificate,
      String kubeconfig,
      String context) {
    if (endpoint != null && kubeconfig != null) {
      throw new IllegalArgumentException(
          "endpoint and kubeconfig are two ways to reach the cluster: give one");
    }
    var lookUp = endpoint == null && kubeconfig == null;
    if (lookUp && (project == null || cluster == null)) {
      throw new IllegalArgumentException(
          "the cluster is reached through endpoint (with caCertificate), kubeconfig, or project"
              + " and cluster (looked up through the GKE API): give one"
              + (project == null && cluster == null
                  ? ""
                  : "; " + (project == null ? "project" : "cluster") + " is missing"));
    }
    if (lookUp) {
      checkName("project", project);
      checkName("cluster", cluster);
    } else if (containerEndpoint != null) {
      throw new IllegalArgumentException(
          "containerEndpoint applies only when the cluster is looked up through the GKE API"
              + " (project and cluster without endpoint or kubeconfig)");
    }
    if (endpoint != null) {
      GkeEndpoint.serverUrl(endpoint);
      if (caCertificate == null) {
        throw new IllegalArgumentException(
            "caCertificate is required with endpoint (the cluster's masterAuth"
                + ".clusterCaCertificate)");
      }
      GkeEndpoint.checkCaCertificate(caCertificate, "caCertificate");
    } else if (caCertificate != null) {
      throw new IllegalArgumentException(
          kubeconfig != null
              ? "caCertificate goes with endpoint; with kubeconfig the CA comes from the kubeconfig"
              : "caCertificate goes with endpoint; a looked-up cluster's CA comes from the GKE"
                  + " API");
    }
    if (context != null && kubeconfig == null) {
      throw new IllegalArgumentException("context applies only with kubeconfig");
    }
  }

  private static void checkName(String field, String value) {
    if (!GKE_NAME.matcher(value).matches()) {
      throw new IllegalArgumentException(
          field + " is not a GKE " + field + " name (letters, digits, - _ . :): " + value);
    }
  }

  /**
   * The GKE API's base URL: https, or http only to a loopback address (a local proxy, a test's
   * stub), since the access token travels with the request.
   */
  private static String containerApiUrl(String text) {
    var value = text.strip();
    URI uri;
    try {
      uri = new URI(value);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("containerEndpoint is not a URL: " + text);
    }
    var scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (uri.getHost() == null
        || !(scheme.equals("https") || scheme.equals("http"))
        || uri.getRawUserInfo() != null
        || uri.getRawQuery() != null
        || uri.getRawFragment() != null
        || !(uri.getRawPath() == null
            || uri.getRawPath().isEmpty()
            || uri.getRawPath().equals("/"))) {
      throw new IllegalArgumentException(
          "containerEndpoint must be a URL such as " + CONTAINER_API + ": " + text);
    }
    if (scheme.equals("http") && !loopback(uri.getHost())) {
      throw new IllegalArgumentException(
          "containerEndpoint must be https (http only to a loopback address): " + text);
    }
    return scheme + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
  }

  private static boolean loopback(String host) {
    var h = host.toLowerCase(Locale.ROOT);
    return h.equals("localhost") || h.startsWith("127.") || h.equals("[::1]");
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
      @JsonProperty("location") String location,
      @JsonProperty("containerEndpoint") String containerEndpoint,
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
      @JsonProperty("nodePools") List<NodePool> nodePools,
      @JsonProperty("runtimes") Map<String, String> runtimes,
      @JsonProperty("trainerPodPatches") String trainerPodPatches,
      @JsonProperty("mpiOperator") String mpiOperator,
      @JsonProperty("priorityClasses") List<PriorityClassRange> priorityClasses) {
    return new GkeConfig(
        id,
        region,
        Boolean.TRUE.equals(hipaaEligible),
        discountPct,
        project,
        cluster,
        location,
        containerEndpoint,
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
        nodePools,
        runtimes,
        trainerPodPatches,
        mpiOperator,
        priorityClasses);
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

  /**
   * Whether the cluster is looked up through the GKE API: project and cluster are given, endpoint
   * and kubeconfig are not.
   */
  public boolean looksUpCluster() {
    return endpoint == null && kubeconfig == null;
  }

  /** Where the cluster is: {@code location}, else {@code region}. */
  public String clusterLocation() {
    return location != null ? location : region;
  }

  /** The GKE API's base URL, without a trailing slash. */
  public String containerApi() {
    return containerEndpoint != null ? containerEndpoint : CONTAINER_API;
  }

  /** The API server's {@code https://} URL, or null when the kubeconfig or GKE API names it. */
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
        + (endpoint != null
            ? endpoint
            : kubeconfig != null
                ? "kubeconfig " + kubeconfig
                : "GKE API lookup of projects/"
                    + project
                    + "/locations/"
                    + clusterLocation()
                    + "/clusters/"
                    + cluster)
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
