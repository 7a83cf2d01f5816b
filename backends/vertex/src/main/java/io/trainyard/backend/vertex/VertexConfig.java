package io.trainyard.backend.vertex;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonTypeName;
import io.trainyard.spi.BackendConfig;
import io.trainyard.spi.spec.Quantities;
import io.trainyard.spi.spec.SecretRef;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The {@code type: vertex} configuration block. {@code region} is the Vertex location.
 *
 * <pre>{@code
 * - type: vertex
 *   id: vertex-usc1
 *   region: us-central1
 *   project: ml-prod
 *   hipaaEligible: false
 *   discountPct: 0
 *   machineTypes:                        # default: the catalog's vertex rows (below)
 *     - n1-standard-4
 *     - {machineType: n1-standard-8, gpuType: nvidia-t4, gpus: 1}
 *     - {machineType: a2-highgpu-8g, gpuType: nvidia-a100-40gb, gpus: 8}
 *   serviceAccount: trainer@ml-prod.iam.gserviceaccount.com
 *   network: projects/123456789/global/networks/ml-vpc
 *   encryptionKmsKey: projects/ml-prod/locations/us-central1/keyRings/ml/cryptoKeys/train
 *   baseOutputDirectory: gs://ml-out/trainyard   # + /<object name>, when a spec has no output.uri
 *   secrets:                             # <secret>/<key> of secretEnv -> Secret Manager version
 *     wandb/api-key: projects/ml-prod/secrets/wandb-api-key/versions/3
 *   credentialsFile: /etc/trainyard/vertex-sa.json   # default: Application Default Credentials
 *   logPollInterval: 10s                 # one Cloud Logging entries.list for all followed jobs
 *   # tests only:
 *   endpoint: 127.0.0.1:7443             # default <region>-aiplatform.googleapis.com:443
 *   loggingEndpoint: 127.0.0.1:7444      # default logging.googleapis.com:443
 *   plaintext: true                      # no TLS and no credentials
 * }</pre>
 */
@JsonTypeName(VertexBackendFactory.KIND)
public record VertexConfig(
    String id,
    String region,
    boolean hipaaEligible,
    BigDecimal discountPct,
    String project,
    List<VertexMachineType> machineTypes,
    String serviceAccount,
    String network,
    String encryptionKmsKey,
    String baseOutputDirectory,
    Map<String, String> secrets,
    String credentialsFile,
    String endpoint,
    boolean plaintext,
    String loggingEndpoint,
    String logPollInterval)
    implements BackendConfig {

  /**
   * Cloud Logging's read quota is 60 entries.list calls a minute per project unless raised
   * (ReadRequestsPerMinutePerProject, quota_limit_value 60, in the RESOURCE_EXHAUSTED details
   * quoted in snarfed/bridgy-fed#620), shared with everyone reading the project's logs: one call
   * every 10 s for all followed jobs of a backend spends a sixth of it.
   */
  static final String DEFAULT_LOG_POLL_INTERVAL = "10s";

  /**
   * The catalog's {@code gcp,vertex} rows: n1-standard-4 (CPU), a2-highgpu-8g (8 A100 40GB), and
   * the H100 80GB accelerator row, which Vertex attaches through the a3-highgpu machines. Shapes
   * are declared so they hold in any location.
   */
  static final List<VertexMachineType> CATALOG_MACHINES =
      List.of(
          new VertexMachineType("n1-standard-4", 4.0, 15.0, null, null, null),
          new VertexMachineType("a2-highgpu-8g", 96.0, 680.0, "nvidia-a100-40gb", 8, null),
          new VertexMachineType("a3-highgpu-8g", 208.0, 1872.0, "nvidia-h100-80gb", 8, null));

  private static final Pattern SECRET_VERSION =
      Pattern.compile("projects/[^/]+/secrets/[^/]+/versions/[^/]+");

  public VertexConfig {
    id = blankToDefault(id, "vertex");
    region = require(region, "region");
    project = require(project, "project");
    discountPct = discountPct == null ? BigDecimal.ZERO : discountPct;
    machineTypes =
        machineTypes == null || machineTypes.isEmpty()
            ? CATALOG_MACHINES
            : List.copyOf(machineTypes);
    secrets = secrets == null ? Map.of() : Map.copyOf(new LinkedHashMap<>(secrets));
    logPollInterval = blankToDefault(logPollInterval, DEFAULT_LOG_POLL_INTERVAL);
    if (pollInterval(logPollInterval).isZero() || pollInterval(logPollInterval).isNegative()) {
      throw new IllegalArgumentException("logPollInterval must be positive");
    }
    if (discountPct.signum() < 0 || discountPct.compareTo(BigDecimal.valueOf(100)) > 0) {
      throw new IllegalArgumentException("discountPct must be between 0 and 100");
    }
    if (baseOutputDirectory != null && !baseOutputDirectory.startsWith("gs://")) {
      throw new IllegalArgumentException("baseOutputDirectory must be a gs:// URI");
    }
    secrets.forEach(
        (ref, version) -> {
          if (ref.indexOf('/') < 1 || ref.endsWith("/")) {
            throw new IllegalArgumentException(
                "secrets: key '" + ref + "' must be <secret>/<key>, as in secretEnv");
          }
          if (version == null || !SECRET_VERSION.matcher(version).matches()) {
            throw new IllegalArgumentException(
                "secrets."
                    + ref
                    + " must be a Secret Manager version: projects/P/secrets/S/versions/V");
          }
        });
  }

  /**
   * Binds a block in which any field may be missing; missing booleans must not trip a mapper that
   * refuses nulls for primitives.
   */
  @JsonCreator
  static VertexConfig bind(
      @JsonProperty("id") String id,
      @JsonProperty("region") String region,
      @JsonProperty("hipaaEligible") Boolean hipaaEligible,
      @JsonProperty("discountPct") BigDecimal discountPct,
      @JsonProperty("project") String project,
      @JsonProperty("machineTypes") List<VertexMachineType> machineTypes,
      @JsonProperty("serviceAccount") String serviceAccount,
      @JsonProperty("network") String network,
      @JsonProperty("encryptionKmsKey") String encryptionKmsKey,
      @JsonProperty("baseOutputDirectory") String baseOutputDirectory,
      @JsonProperty("secrets") Map<String, String> secrets,
      @JsonProperty("credentialsFile") String credentialsFile,
      @JsonProperty("endpoint") String endpoint,
      @JsonProperty("plaintext") Boolean plaintext,
      @JsonProperty("loggingEndpoint") String loggingEndpoint,
      @JsonProperty("logPollInterval") String logPollInterval) {
    return new VertexConfig(
        id,
        region,
        Boolean.TRUE.equals(hipaaEligible),
        discountPct,
        project,
        machineTypes,
        serviceAccount,
        network,
        encryptionKmsKey,
        baseOutputDirectory,
        secrets,
        credentialsFile,
        endpoint,
        Boolean.TRUE.equals(plaintext),
        loggingEndpoint,
        logPollInterval);
  }

  /** The Secret Manager version that delivers {@code ref}, if the block maps it. */
  public Optional<String> secretVersion(SecretRef ref) {
    return Optional.ofNullable(secrets.get(ref.secret() + "/" + ref.key()));
  }

  /** {@code projects/<project>/locations/<region>}: the parent of every custom job. */
  public String parent() {
    return "projects/" + project + "/locations/" + region;
  }

  /** The gRPC endpoint: the block's, else the location's regional endpoint. */
  public String effectiveEndpoint() {
    return endpoint != null ? endpoint : region + "-aiplatform.googleapis.com:443";
  }

  /** Cloud Logging's gRPC endpoint: the block's, else the global one. */
  public String effectiveLoggingEndpoint() {
    return loggingEndpoint != null ? loggingEndpoint : "logging.googleapis.com:443";
  }

  /** How often the backend's one log poller asks Cloud Logging for followed jobs' new entries. */
  public Duration logPollDuration() {
    return pollInterval(logPollInterval);
  }

  // Polls are sub-second in tests, so milliseconds are allowed here besides the spec's units.
  private static Duration pollInterval(String value) {
    var millis = value.endsWith("ms") ? value.substring(0, value.length() - 2) : null;
    try {
      return millis != null
          ? Duration.ofMillis(Long.parseLong(millis))
          : Quantities.duration(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "logPollInterval: '" + value + "' is not a duration such as 500ms, 10s or 1m", e);
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
