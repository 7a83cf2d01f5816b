package io.trainyard.backend.sagemaker;

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

/**
 * The {@code type: sagemaker} configuration block.
 *
 * <pre>{@code
 * - type: sagemaker
 *   id: sagemaker-use1
 *   region: us-east-1
 *   roleArn: arn:aws:iam::123456789012:role/trainyard
 *   hipaaEligible: true
 *   discountPct: 0
 *   instanceTypes: [ml.g5.xlarge, ml.p4d.24xlarge,          # default: the catalog's ml.* types
 *                   {type: ml.g5.2xlarge, vcpus: 8, memoryGiB: 32, gpuType: nvidia-a10g, gpus: 1}]
 *   inputMode: FastFile                  # File (default) | FastFile
 *   outputPath: s3://ml-out/trainyard/   # when a spec has no output.uri
 *   volumeSizeGb: 100                    # per instance, default 50
 *   defaultMaxRuntime: 24h               # when a spec has no maxRuntime
 *   maxWaitForSpot: 2h                   # spot: how long beyond maxRuntime to wait for capacity
 *   vpc: {subnets: [subnet-0abc], securityGroups: [sg-0abc]}
 *   networkIsolation: true
 *   interContainerEncryption: true
 *   secrets:                             # <secret>/<key> of secretEnv -> Secrets Manager ARN
 *     wandb/api-key: arn:aws:secretsmanager:us-east-1:123456789012:secret:wandb-AbCdEf
 *   # tests only:
 *   endpoint: http://127.0.0.1:5055      # SageMaker and CloudWatch Logs both
 *   accessKeyId: test
 *   secretAccessKey: test
 *   maxAttempts: 1                       # SDK attempts per call, default 3
 *   logPollInterval: 2s                  # how often a followed log stream asks (500ms, 2s)
 *   metricNames: [loss, accuracy]        # trainyard-metric lines SageMaker itself parses into
 *                                        # metric definitions (default below, at most 40)
 * }</pre>
 *
 * Without {@code accessKeyId} the SDK's default credential chain is used (environment, profile,
 * instance role).
 */
@JsonTypeName(SageMakerBackendFactory.KIND)
public record SageMakerConfig(
    String id,
    String region,
    boolean hipaaEligible,
    BigDecimal discountPct,
    String roleArn,
    List<SageMakerInstanceType> instanceTypes,
    String inputMode,
    String outputPath,
    Integer volumeSizeGb,
    String defaultMaxRuntime,
    String maxWaitForSpot,
    SageMakerVpc vpc,
    boolean networkIsolation,
    boolean interContainerEncryption,
    Map<String, String> secrets,
    String endpoint,
    String accessKeyId,
    String secretAccessKey,
    Integer maxAttempts,
    String logPollInterval,
    List<String> metricNames)
    implements BackendConfig {

  /** The metric names SageMaker watches for when the block names none. */
  static final List<String> DEFAULT_METRIC_NAMES =
      List.of("loss", "val_loss", "accuracy", "val_accuracy", "error", "learning_rate");

  private static final java.util.regex.Pattern METRIC_NAME =
      java.util.regex.Pattern.compile("[A-Za-z0-9_.:/-]{1,128}");

  /** The {@code ml.*} rows of the embedded price catalog, used when the block names none. */
  static final List<String> CATALOG_TYPES =
      List.of(
          "ml.m5.2xlarge",
          "ml.g5.xlarge",
          "ml.g5.12xlarge",
          "ml.p3.2xlarge",
          "ml.p4d.24xlarge",
          "ml.p5.48xlarge");

  private static final Set<String> INPUT_MODES = Set.of("File", "FastFile");

  public SageMakerConfig {
    id = blankToDefault(id, "sagemaker");
    region = require(region, "region");
    roleArn = require(roleArn, "roleArn");
    discountPct = discountPct == null ? BigDecimal.ZERO : discountPct;
    instanceTypes =
        instanceTypes == null || instanceTypes.isEmpty()
            ? CATALOG_TYPES.stream().map(SageMakerInstanceType::named).toList()
            : List.copyOf(instanceTypes);
    inputMode = blankToDefault(inputMode, "File");
    volumeSizeGb = volumeSizeGb == null ? 50 : volumeSizeGb;
    defaultMaxRuntime = blankToDefault(defaultMaxRuntime, "24h");
    maxWaitForSpot = blankToDefault(maxWaitForSpot, "1h");
    secrets = secrets == null ? Map.of() : Map.copyOf(new LinkedHashMap<>(secrets));
    maxAttempts = maxAttempts == null ? 3 : maxAttempts;
    logPollInterval = blankToDefault(logPollInterval, "2s");
    metricNames =
        metricNames == null
            ? DEFAULT_METRIC_NAMES
            : List.copyOf(new java.util.LinkedHashSet<>(metricNames));
    if (metricNames.size() > 40) {
      throw new IllegalArgumentException("metricNames: SageMaker takes at most 40 metrics");
    }
    for (var name : metricNames) {
      if (!METRIC_NAME.matcher(name).matches()) {
        throw new IllegalArgumentException(
            "metricNames: '" + name + "' must be 1-128 of letters, digits, _ . : / -");
      }
    }
    checkJobFields(discountPct, roleArn, inputMode, outputPath, volumeSizeGb);
    duration("defaultMaxRuntime", defaultMaxRuntime);
    duration("maxWaitForSpot", maxWaitForSpot);
    pollInterval(logPollInterval);
    checkSecrets(secrets);
    checkConnection(endpoint, accessKeyId, secretAccessKey, maxAttempts);
  }

  private static void checkJobFields(
      BigDecimal discountPct,
      String roleArn,
      String inputMode,
      String outputPath,
      int volumeSizeGb) {
    if (discountPct.signum() < 0 || discountPct.compareTo(BigDecimal.valueOf(100)) > 0) {
      throw new IllegalArgumentException("discountPct must be between 0 and 100");
    }
    if (!roleArn.startsWith("arn:")) {
      throw new IllegalArgumentException("roleArn must be an IAM role ARN (arn:aws:iam::...)");
    }
    if (!INPUT_MODES.contains(inputMode)) {
      throw new IllegalArgumentException("inputMode must be File or FastFile");
    }
    if (outputPath != null && !outputPath.startsWith("s3://")) {
      throw new IllegalArgumentException("outputPath must be an s3:// URI");
    }
    if (volumeSizeGb < 1) {
      throw new IllegalArgumentException("volumeSizeGb must be at least 1");
    }
  }

  private static void checkSecrets(Map<String, String> secrets) {
    secrets.forEach(
        (ref, arn) -> {
          if (ref.indexOf('/') < 1 || ref.endsWith("/")) {
            throw new IllegalArgumentException(
                "secrets: key '" + ref + "' must be <secret>/<key>, as in secretEnv");
          }
          if (arn == null || !arn.startsWith("arn:")) {
            throw new IllegalArgumentException("secrets." + ref + " must be a Secrets Manager ARN");
          }
        });
  }

  private static void checkConnection(
      String endpoint, String accessKeyId, String secretAccessKey, int maxAttempts) {
    if ((accessKeyId == null) != (secretAccessKey == null)) {
      throw new IllegalArgumentException("accessKeyId and secretAccessKey go together");
    }
    if (endpoint != null) {
      try {
        URI.create(endpoint);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("endpoint is not a URI: " + e.getMessage(), e);
      }
    }
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1");
    }
  }

  /**
   * Binds a block in which any field may be missing; missing booleans must not trip a mapper that
   * refuses nulls for primitives.
   */
  @JsonCreator
  static SageMakerConfig bind(
      @JsonProperty("id") String id,
      @JsonProperty("region") String region,
      @JsonProperty("hipaaEligible") Boolean hipaaEligible,
      @JsonProperty("discountPct") BigDecimal discountPct,
      @JsonProperty("roleArn") String roleArn,
      @JsonProperty("instanceTypes") List<SageMakerInstanceType> instanceTypes,
      @JsonProperty("inputMode") String inputMode,
      @JsonProperty("outputPath") String outputPath,
      @JsonProperty("volumeSizeGb") Integer volumeSizeGb,
      @JsonProperty("defaultMaxRuntime") String defaultMaxRuntime,
      @JsonProperty("maxWaitForSpot") String maxWaitForSpot,
      @JsonProperty("vpc") SageMakerVpc vpc,
      @JsonProperty("networkIsolation") Boolean networkIsolation,
      @JsonProperty("interContainerEncryption") Boolean interContainerEncryption,
      @JsonProperty("secrets") Map<String, String> secrets,
      @JsonProperty("endpoint") String endpoint,
      @JsonProperty("accessKeyId") String accessKeyId,
      @JsonProperty("secretAccessKey") String secretAccessKey,
      @JsonProperty("maxAttempts") Integer maxAttempts,
      @JsonProperty("logPollInterval") String logPollInterval,
      @JsonProperty("metricNames") List<String> metricNames) {
    return new SageMakerConfig(
        id,
        region,
        Boolean.TRUE.equals(hipaaEligible),
        discountPct,
        roleArn,
        instanceTypes,
        inputMode,
        outputPath,
        volumeSizeGb,
        defaultMaxRuntime,
        maxWaitForSpot,
        vpc,
        Boolean.TRUE.equals(networkIsolation),
        Boolean.TRUE.equals(interContainerEncryption),
        secrets,
        endpoint,
        accessKeyId,
        secretAccessKey,
        maxAttempts,
        logPollInterval,
        metricNames);
  }

  /** The Secrets Manager ARN that delivers {@code ref}, if the block maps it. */
  public Optional<String> secretArn(SecretRef ref) {
    return Optional.ofNullable(secrets.get(ref.secret() + "/" + ref.key()));
  }

  public Duration defaultMaxRuntimeDuration() {
    return Quantities.duration(defaultMaxRuntime);
  }

  public Duration maxWaitForSpotDuration() {
    return Quantities.duration(maxWaitForSpot);
  }

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
          "logPollInterval: '" + value + "' is not a duration such as 500ms, 2s or 1m", e);
    }
  }

  /** The endpoint override, if the block sets one (tests, VPC endpoints). */
  public Optional<URI> endpointUri() {
    return Optional.ofNullable(endpoint).map(URI::create);
  }

  // Don't print the secret key when a config is logged or fails an assertion.
  @Override
  public String toString() {
    return "SageMakerConfig[id=" + id + ", region=" + region + ", roleArn=" + roleArn + "]";
  }

  private static void duration(String field, String value) {
    try {
      Quantities.duration(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(field + ": " + e.getMessage(), e);
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
