package io.trainyard.backend.azureml;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonTypeName;
import io.trainyard.spi.BackendConfig;
import io.trainyard.spi.spec.Quantities;
import io.trainyard.spi.spec.SecretRef;
import java.math.BigDecimal;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The {@code type: azureml} configuration block.
 *
 * <pre>{@code
 * - type: azureml
 *   id: azureml-eus
 *   region: eastus
 *   subscriptionId: 00000000-0000-0000-0000-000000000000
 *   resourceGroup: ml-prod
 *   workspace: trainyard-ws
 *   storageAccount: trainyardws1234      # the workspace's storage account (job logs)
 *   compute: gpu-cluster                 # an AmlCompute cluster; leave out for serverless compute
 *   lowPriorityCompute: gpu-cluster-lp   # a cluster with vmPriority LowPriority, for spot
 *   vmSizes: [Standard_NC24ads_A100_v4]  # default: the sizes of this module's size table
 *   secrets:                             # <secret>/<key> of secretEnv -> Key Vault secret URI
 *     wandb/api-key: https://ml-kv.vault.azure.net/secrets/wandb-api-key
 *   jobIdentity: Managed                 # AMLToken | Managed | UserIdentity; default Azure ML's
 *   # tests and sovereign clouds:
 *   armEndpoint: https://management.azure.com
 *   authorityHost: https://login.microsoftonline.com
 *   storageEndpoint: https://trainyardws1234.blob.core.windows.net
 *   tenantId / clientId / clientSecret   # a service principal; without them the default chain
 * }</pre>
 */
@JsonTypeName(AzureMlBackendFactory.KIND)
public record AzureMlConfig(
    String id,
    String region,
    boolean hipaaEligible,
    BigDecimal discountPct,
    String subscriptionId,
    String resourceGroup,
    String workspace,
    String compute,
    String lowPriorityCompute,
    List<AzureMlVmSize> vmSizes,
    String experimentName,
    String defaultMaxRuntime,
    Map<String, String> secrets,
    String jobIdentity,
    String storageAccount,
    String logsContainer,
    String armEndpoint,
    String authorityHost,
    String storageEndpoint,
    String tenantId,
    String clientId,
    String clientSecret,
    Integer maxRetries,
    String requestTimeout,
    String logPollInterval)
    implements BackendConfig {

  static final String DEFAULT_ARM = "https://management.azure.com";
  private static final Set<String> IDENTITIES = Set.of("AMLToken", "Managed", "UserIdentity");
  // ARM resource names: workspace 3-33 chars, compute names 2-32 (Azure ML naming rules).
  private static final Pattern WORKSPACE = Pattern.compile("[a-zA-Z0-9][a-zA-Z0-9_-]{2,32}");
  private static final Pattern COMPUTE = Pattern.compile("[a-zA-Z][a-zA-Z0-9-]{1,31}");
  private static final Pattern KEY_VAULT_SECRET =
      Pattern.compile(
          "https://[a-zA-Z0-9-]{3,24}\\.vault\\.[a-z.]+/secrets/[a-zA-Z0-9-]{1,127}(/\\w+)?");

  public AzureMlConfig {
    id = blankToDefault(id, "azureml");
    region = require(region, "region");
    discountPct = discountPct == null ? BigDecimal.ZERO : discountPct;
    subscriptionId = require(subscriptionId, "subscriptionId");
    resourceGroup = require(resourceGroup, "resourceGroup");
    workspace = require(workspace, "workspace");
    if (compute != null && (vmSizes == null || vmSizes.size() != 1)) {
      throw new IllegalArgumentException(
          "vmSizes: with compute (an AmlCompute cluster), name the cluster's one VM size");
    }
    vmSizes =
        vmSizes == null || vmSizes.isEmpty()
            ? AzureVmSizes.DEFAULT_SIZES.stream().map(AzureMlVmSize::named).toList()
            : List.copyOf(vmSizes);
    experimentName = blankToDefault(experimentName, "trainyard");
    defaultMaxRuntime = blankToDefault(defaultMaxRuntime, "24h");
    secrets = secrets == null ? Map.of() : Map.copyOf(new LinkedHashMap<>(secrets));
    logsContainer = blankToDefault(logsContainer, "azureml");
    armEndpoint = blankToDefault(armEndpoint, DEFAULT_ARM);
    maxRetries = maxRetries == null ? 3 : maxRetries;
    requestTimeout = blankToDefault(requestTimeout, "30s");
    logPollInterval = blankToDefault(logPollInterval, "2s");
    checkWorkspace(discountPct, workspace, compute, lowPriorityCompute, jobIdentity);
    if (storageAccount == null && storageEndpoint == null) {
      throw new IllegalArgumentException(
          "storageAccount is required: job logs are read from the workspace's storage account");
    }
    if (storageAccount != null && !storageAccount.matches("[a-z0-9]{3,24}")) {
      throw new IllegalArgumentException(
          "storageAccount must be a storage account name (3-24 lower-case letters and digits)");
    }
    duration("defaultMaxRuntime", defaultMaxRuntime);
    shortDuration("requestTimeout", requestTimeout);
    shortDuration("logPollInterval", logPollInterval);
    checkSecrets(secrets);
    checkConnection(
        tenantId, clientId, clientSecret, armEndpoint, authorityHost, storageEndpoint, maxRetries);
  }

  private static void checkWorkspace(
      BigDecimal discountPct,
      String workspace,
      String compute,
      String lowPriorityCompute,
      String jobIdentity) {
    if (discountPct.signum() < 0 || discountPct.compareTo(BigDecimal.valueOf(100)) > 0) {
      throw new IllegalArgumentException("discountPct must be between 0 and 100");
    }
    if (!WORKSPACE.matcher(workspace).matches()) {
      throw new IllegalArgumentException(
          "workspace must be an Azure ML workspace name (3-33 letters, digits, - and _)");
    }
    for (var c : new String[] {compute, lowPriorityCompute}) {
      if (c != null && !COMPUTE.matcher(c).matches()) {
        throw new IllegalArgumentException(
            (c.equals(compute) ? "compute" : "lowPriorityCompute")
                + " must be an AmlCompute cluster name (2-32 letters, digits and -)");
      }
    }
    if (lowPriorityCompute != null && compute == null) {
      throw new IllegalArgumentException(
          "lowPriorityCompute needs compute: without a cluster, jobs run on serverless compute,"
              + " whose spot tier needs no cluster");
    }
    if (jobIdentity != null && !IDENTITIES.contains(jobIdentity)) {
      throw new IllegalArgumentException("jobIdentity must be AMLToken, Managed or UserIdentity");
    }
  }

  private static void checkSecrets(Map<String, String> secrets) {
    secrets.forEach(
        (ref, uri) -> {
          if (ref.indexOf('/') < 1 || ref.endsWith("/")) {
            throw new IllegalArgumentException(
                "secrets: key '" + ref + "' must be <secret>/<key>, as in secretEnv");
          }
          if (uri == null || !KEY_VAULT_SECRET.matcher(uri).matches()) {
            throw new IllegalArgumentException(
                "secrets."
                    + ref
                    + " must be a Key Vault secret URI"
                    + " (https://<vault>.vault.azure.net/secrets/<name>)");
          }
        });
  }

  // Fields are not assigned yet in a compact constructor: the values come as parameters.
  private static void checkConnection(
      String tenantId,
      String clientId,
      String clientSecret,
      String armEndpoint,
      String authorityHost,
      String storageEndpoint,
      int maxRetries) {
    var explicit = new Object[] {tenantId, clientId, clientSecret};
    var set = java.util.Arrays.stream(explicit).filter(java.util.Objects::nonNull).count();
    if (set != 0 && set != 3) {
      throw new IllegalArgumentException(
          "tenantId, clientId and clientSecret go together (a service principal); leave all"
              + " three out to use the default credential chain");
    }
    uri("armEndpoint", armEndpoint);
    if (authorityHost != null) {
      uri("authorityHost", authorityHost);
    }
    if (storageEndpoint != null) {
      uri("storageEndpoint", storageEndpoint);
    }
    if (maxRetries < 0) {
      throw new IllegalArgumentException("maxRetries must not be negative");
    }
  }

  /**
   * Binds a block in which any field may be missing; a missing {@code hipaaEligible} must not trip
   * a mapper that refuses nulls for primitives.
   */
  @JsonCreator
  static AzureMlConfig bind(
      @JsonProperty("id") String id,
      @JsonProperty("region") String region,
      @JsonProperty("hipaaEligible") Boolean hipaaEligible,
      @JsonProperty("discountPct") BigDecimal discountPct,
      @JsonProperty("subscriptionId") String subscriptionId,
      @JsonProperty("resourceGroup") String resourceGroup,
      @JsonProperty("workspace") String workspace,
      @JsonProperty("compute") String compute,
      @JsonProperty("lowPriorityCompute") String lowPriorityCompute,
      @JsonProperty("vmSizes") List<AzureMlVmSize> vmSizes,
      @JsonProperty("experimentName") String experimentName,
      @JsonProperty("defaultMaxRuntime") String defaultMaxRuntime,
      @JsonProperty("secrets") Map<String, String> secrets,
      @JsonProperty("jobIdentity") String jobIdentity,
      @JsonProperty("storageAccount") String storageAccount,
      @JsonProperty("logsContainer") String logsContainer,
      @JsonProperty("armEndpoint") String armEndpoint,
      @JsonProperty("authorityHost") String authorityHost,
      @JsonProperty("storageEndpoint") String storageEndpoint,
      @JsonProperty("tenantId") String tenantId,
      @JsonProperty("clientId") String clientId,
      @JsonProperty("clientSecret") String clientSecret,
      @JsonProperty("maxRetries") Integer maxRetries,
      @JsonProperty("requestTimeout") String requestTimeout,
      @JsonProperty("logPollInterval") String logPollInterval) {
    return new AzureMlConfig(
        id,
        region,
        Boolean.TRUE.equals(hipaaEligible),
        discountPct,
        subscriptionId,
        resourceGroup,
        workspace,
        compute,
        lowPriorityCompute,
        vmSizes,
        experimentName,
        defaultMaxRuntime,
        secrets,
        jobIdentity,
        storageAccount,
        logsContainer,
        armEndpoint,
        authorityHost,
        storageEndpoint,
        tenantId,
        clientId,
        clientSecret,
        maxRetries,
        requestTimeout,
        logPollInterval);
  }

  /** Whether jobs run on serverless compute (no cluster named). */
  public boolean serverless() {
    return compute == null;
  }

  /** The Key Vault secret URI that delivers {@code ref}, if the block maps it. */
  public Optional<String> secretUri(SecretRef ref) {
    return Optional.ofNullable(secrets.get(ref.secret() + "/" + ref.key()));
  }

  /** ARM's id of the workspace, the prefix of every ARM path this backend calls. */
  public String workspaceId() {
    return "/subscriptions/"
        + subscriptionId
        + "/resourceGroups/"
        + resourceGroup
        + "/providers/Microsoft.MachineLearningServices/workspaces/"
        + workspace;
  }

  public String computeId(String cluster) {
    return workspaceId() + "/computes/" + cluster;
  }

  /** The Blob endpoint of the workspace's storage account. */
  public String blobEndpoint() {
    var endpoint =
        storageEndpoint != null
            ? storageEndpoint
            : "https://" + storageAccount + ".blob.core.windows.net";
    return endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint;
  }

  public String armBase() {
    return armEndpoint.endsWith("/")
        ? armEndpoint.substring(0, armEndpoint.length() - 1)
        : armEndpoint;
  }

  /** Whether the block names a service principal instead of the default credential chain. */
  public boolean explicitCredential() {
    return clientSecret != null;
  }

  public Duration defaultMaxRuntimeDuration() {
    return Quantities.duration(defaultMaxRuntime);
  }

  public Duration requestTimeoutDuration() {
    return shortDuration("requestTimeout", requestTimeout);
  }

  public Duration logPollDuration() {
    return shortDuration("logPollInterval", logPollInterval);
  }

  // Don't print the client secret when a config is logged or fails an assertion.
  @Override
  public String toString() {
    return "AzureMlConfig[id="
        + id
        + ", region="
        + region
        + ", workspace="
        + workspaceId()
        + ", compute="
        + (compute == null ? "serverless" : compute)
        + "]";
  }

  // Milliseconds are allowed here besides the spec's units: polls are sub-second in tests.
  private static Duration shortDuration(String field, String value) {
    var millis = value.endsWith("ms") ? value.substring(0, value.length() - 2) : null;
    try {
      return millis != null
          ? Duration.ofMillis(Long.parseLong(millis))
          : Quantities.duration(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          field + ": '" + value + "' is not a duration such as 500ms, 2s or 1m", e);
    }
  }

  private static void duration(String field, String value) {
    try {
      Quantities.duration(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(field + ": " + e.getMessage(), e);
    }
  }

  private static void uri(String field, String value) {
    try {
      var uri = URI.create(value);
      if (!"https".equals(uri.getScheme()) || uri.getHost() == null) {
        throw new IllegalArgumentException("needs an https:// URL with a host");
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(field + ": '" + value + "': " + e.getMessage(), e);
    }
  }

  private static String require(String value, String field) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(field + " is required");
    }
    return value;
  }

  private static String blankToDefault(String value, String fallback) {
    return value == null || value.isBlank() ? fallback : value;
  }
}
