package io.trainyard.backend.eks;

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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The {@code type: eks} configuration block: an Amazon EKS cluster, reached through {@code
 * DescribeCluster} and authenticated with an IAM token, where jobs run as in {@code type:
 * kubernetes}.
 *
 * <pre>{@code
 * - type: eks
 *   id: eks-prod-use1
 *   region: us-east-1
 *   clusterName: ml-prod                      # required (DESIGN.md's `cluster:` is accepted too)
 *   roleArn: arn:aws:iam::123456789012:role/trainyard-eks   # optional: assume it (STS AssumeRole)
 *   hipaaEligible: true
 *   discountPct: 0
 *   eksEndpoint: https://eks.us-east-1.amazonaws.com      # optional: a VPC endpoint of EKS
 *   stsEndpoint: https://sts.us-east-1.amazonaws.com      # optional: a VPC endpoint of STS
 *   flavor: kubeflow-v1                       # or trainer-v2, with trainerRuntime, and optionally
 *                                             # runtimes and trainerPodPatches as in type: kubernetes; mpiOperator too
 *   kueueQueue: team-queue                    # optional
 *   admissionTimeout: 10m
 *   feeUsdPerHour: 0.10                       # default 0.10: the EKS control plane, standard support
 *   nodePools: [...]                          # as in type: kubernetes; priced from the catalog's ec2 rows
 * }</pre>
 *
 * The catalog provider is always {@code aws}: a pool without {@code usdPerNodeHour} is priced and
 * shaped from the catalog's EC2 rows of {@code region}. Credentials come from the AWS SDK's default
 * chain (environment, profile, web identity, container or instance role), then {@code roleArn} is
 * assumed with them when set.
 *
 * @param clusterName the EKS cluster's name, as {@code aws eks describe-cluster --name} takes it
 * @param roleArn an IAM role to assume for both {@code DescribeCluster} and the token; null to use
 *     the default chain's identity as it is
 * @param eksEndpoint the EKS API endpoint, when not the region's public one; null for the default
 * @param stsEndpoint the STS endpoint the token is presigned for (and AssumeRole goes to); null for
 *     the region's {@code https://sts.<region>.<partition domain>}
 */
@JsonTypeName(EksBackendFactory.KIND)
public record EksConfig(
    String id,
    String region,
    boolean hipaaEligible,
    BigDecimal discountPct,
    String clusterName,
    String roleArn,
    String eksEndpoint,
    String stsEndpoint,
    String flavor,
    String trainerRuntime,
    String kueueQueue,
    String admissionTimeout,
    BigDecimal feeUsdPerHour,
    List<NodePool> nodePools,
    Map<String, String> runtimes,
    String trainerPodPatches,
    String mpiOperator,
    List<PriorityClassRange> priorityClasses)
    implements BackendConfig {

  /**
   * The EKS control plane's price with standard Kubernetes version support, per cluster-hour
   * (https://aws.amazon.com/eks/pricing/); extended support is $0.60: set it in the block.
   */
  public static final BigDecimal STANDARD_SUPPORT_FEE_USD_PER_HOUR = new BigDecimal("0.10");

  /** The catalog provider of every EKS node pool. */
  static final String PROVIDER = "aws";

  // us-east-1, eu-central-2, us-gov-west-1, cn-north-1, us-isob-east-1
  private static final Pattern REGION = Pattern.compile("[a-z]{2}(-[a-z]+)+-\\d+");
  // CreateCluster's own rule for a name.
  private static final Pattern CLUSTER_NAME = Pattern.compile("[0-9A-Za-z][A-Za-z0-9_-]{0,99}");
  private static final Pattern ROLE_ARN =
      Pattern.compile("arn:aws[a-z-]*:iam::\\d{12}:role/[\\w+=,.@/-]+");

  public EksConfig {
    id = require(id, "id");
    region = require(region, "region");
    if (!REGION.matcher(region).matches()) {
      throw new IllegalArgumentException(
          "region: '" + region + "' is not an AWS region such as us-east-1");
    }
    clusterName = require(clusterName, "clusterName");
    if (!CLUSTER_NAME.matcher(clusterName).matches()) {
      throw new IllegalArgumentException(
          "clusterName: '"
              + clusterName
              + "' is not an EKS cluster name (1-100 letters, digits, - and _, starting with a"
              + " letter or digit)");
    }
    roleArn = blankToNull(roleArn);
    if (roleArn != null && !ROLE_ARN.matcher(roleArn).matches()) {
      throw new IllegalArgumentException(
          "roleArn: '" + roleArn + "' is not an IAM role ARN (arn:aws:iam::123456789012:role/...)");
    }
    eksEndpoint = blankToNull(eksEndpoint);
    stsEndpoint = blankToNull(stsEndpoint);
    endpoint("eksEndpoint", eksEndpoint);
    endpoint("stsEndpoint", stsEndpoint);
    discountPct = discountPct == null ? BigDecimal.ZERO : discountPct;
    if (discountPct.signum() < 0 || discountPct.compareTo(BigDecimal.valueOf(100)) > 0) {
      throw new IllegalArgumentException("discountPct must be between 0 and 100");
    }
    feeUsdPerHour = feeUsdPerHour == null ? STANDARD_SUPPORT_FEE_USD_PER_HOUR : feeUsdPerHour;
    admissionTimeout =
        admissionTimeout == null || admissionTimeout.isBlank() ? "10m" : admissionTimeout;
    nodePools = nodePools == null ? List.of() : List.copyOf(nodePools);
    runtimes = runtimes == null ? Map.of() : Map.copyOf(runtimes);
    // Checks every cluster field now, so a bad block fails when the configuration is read.
    settings(
        id,
        region,
        flavor,
        trainerRuntime,
        kueueQueue,
        admissionTimeout,
        feeUsdPerHour,
        nodePools,
        runtimes,
        trainerPodPatches,
        mpiOperator);
  }

  /**
   * Binds a block in which any field may be missing; a missing {@code hipaaEligible} must not trip
   * a mapper that refuses nulls for primitives. {@code cluster} is DESIGN.md's spelling of {@code
   * clusterName}; giving both is refused rather than one silently winning.
   */
  @JsonCreator
  static EksConfig bind(
      @JsonProperty("id") String id,
      @JsonProperty("region") String region,
      @JsonProperty("hipaaEligible") Boolean hipaaEligible,
      @JsonProperty("discountPct") BigDecimal discountPct,
      @JsonProperty("clusterName") String clusterName,
      @JsonProperty("cluster") String cluster,
      @JsonProperty("roleArn") String roleArn,
      @JsonProperty("eksEndpoint") String eksEndpoint,
      @JsonProperty("stsEndpoint") String stsEndpoint,
      @JsonProperty("flavor") String flavor,
      @JsonProperty("trainerRuntime") String trainerRuntime,
      @JsonProperty("kueueQueue") String kueueQueue,
      @JsonProperty("admissionTimeout") String admissionTimeout,
      @JsonProperty("feeUsdPerHour") BigDecimal feeUsdPerHour,
      @JsonProperty("nodePools") List<NodePool> nodePools,
      @JsonProperty("runtimes") Map<String, String> runtimes,
      @JsonProperty("trainerPodPatches") String trainerPodPatches,
      @JsonProperty("mpiOperator") String mpiOperator,
      @JsonProperty("priorityClasses") List<PriorityClassRange> priorityClasses) {
    if (clusterName != null && cluster != null) {
      throw new IllegalArgumentException(
          "clusterName: give clusterName or cluster (the same field), not both");
    }
    return new EksConfig(
        id,
        region,
        Boolean.TRUE.equals(hipaaEligible),
        discountPct,
        clusterName != null ? clusterName : cluster,
        roleArn,
        eksEndpoint,
        stsEndpoint,
        flavor,
        trainerRuntime,
        kueueQueue,
        admissionTimeout,
        feeUsdPerHour,
        nodePools,
        runtimes,
        trainerPodPatches,
        mpiOperator,
        priorityClasses);
  }

  /** The cluster part of this block, with the catalog provider fixed to {@code aws}. */
  public ClusterSettings settings() {
    return settings(
            id,
            region,
            flavor,
            trainerRuntime,
            kueueQueue,
            admissionTimeout,
            feeUsdPerHour,
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

  private static ClusterSettings settings(
      String id,
      String region,
      String flavor,
      String trainerRuntime,
      String kueueQueue,
      String admissionTimeout,
      BigDecimal feeUsdPerHour,
      List<NodePool> nodePools,
      Map<String, String> runtimes,
      String trainerPodPatches,
      String mpiOperator) {
    return ClusterSettings.fromBlock(
        id,
        region,
        flavor,
        trainerRuntime,
        kueueQueue,
        admissionTimeout,
        feeUsdPerHour,
        PROVIDER,
        nodePools,
        runtimes,
        trainerPodPatches,
        mpiOperator);
  }

  /** The EKS endpoint override, if the block sets one. */
  public Optional<URI> eksEndpointUri() {
    return Optional.ofNullable(eksEndpoint).map(URI::create);
  }

  /** The STS endpoint override, if the block sets one. */
  public Optional<URI> stsEndpointUri() {
    return Optional.ofNullable(stsEndpoint).map(URI::create);
  }

  /**
   * The session name CloudTrail shows for the assumed role: names the gateway and the backend, cut
   * to STS's 64 characters.
   */
  public String roleSessionName() {
    var name = ("trainyard-" + id).replaceAll("[^\\w+=,.@-]", "-");
    return name.length() > 64 ? name.substring(0, 64) : name;
  }

  private static void endpoint(String field, String value) {
    if (value == null) {
      return;
    }
    URI uri;
    try {
      uri = new URI(value);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(field + ": '" + value + "' is not a URI", e);
    }
    var scheme = uri.getScheme();
    if (!"https".equals(scheme) && !"http".equals(scheme) || uri.getHost() == null) {
      throw new IllegalArgumentException(
          field + ": '" + value + "' must be an http(s) URL with a host, e.g. https://vpce-...");
    }
  }

  private static String require(String value, String field) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(field + " is required");
    }
    return value;
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
