package io.trainyard.backend.local;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonTypeName;
import io.trainyard.spi.BackendConfig;
import io.trainyard.spi.spec.Quantities;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The {@code type: local} configuration block. Every field is optional, so the gateway can run with
 * no configuration at all.
 *
 * @param usdPerHour what the operator charges for a local placement (the machine is already paid
 *     for, so 0 by default)
 * @param codeDir the replicas' working directory, so {@code command: [python3, examples/x.py]}
 *     resolves as in a shell started there; default the gateway's working directory
 * @param secretsDir where {@code secretEnv} values are read, as {@code <secretsDir>/<secret>/<key>}
 * @param maxConcurrentJobs live jobs beyond which submit refuses for capacity
 * @param killGracePeriod between SIGTERM and SIGKILL when a job is stopped, e.g. {@code 10s}
 */
@JsonTypeName(LocalBackendFactory.KIND)
public record LocalConfig(
    String id,
    String region,
    boolean hipaaEligible,
    BigDecimal discountPct,
    BigDecimal usdPerHour,
    String codeDir,
    String secretsDir,
    Integer maxConcurrentJobs,
    String killGracePeriod)
    implements BackendConfig {

  public LocalConfig {
    id = blankToDefault(id, "local");
    region = blankToDefault(region, "local");
    discountPct = discountPct == null ? BigDecimal.ZERO : discountPct;
    usdPerHour = usdPerHour == null ? BigDecimal.ZERO : usdPerHour;
    codeDir = blankToDefault(codeDir, ".");
    secretsDir = blankToDefault(secretsDir, "data/secrets");
    maxConcurrentJobs = maxConcurrentJobs == null ? 4 : maxConcurrentJobs;
    killGracePeriod = blankToDefault(killGracePeriod, "10s");
    if (usdPerHour.signum() < 0) {
      throw new IllegalArgumentException("usdPerHour must be 0 or more");
    }
    if (discountPct.signum() < 0 || discountPct.compareTo(BigDecimal.valueOf(100)) > 0) {
      throw new IllegalArgumentException("discountPct must be between 0 and 100");
    }
    if (maxConcurrentJobs < 1) {
      throw new IllegalArgumentException("maxConcurrentJobs must be at least 1");
    }
    try {
      Quantities.duration(killGracePeriod);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("killGracePeriod: " + e.getMessage(), e);
    }
  }

  /**
   * Binds a block in which any field may be missing; a missing {@code hipaaEligible} must not trip
   * a mapper that refuses nulls for primitives.
   */
  @JsonCreator
  static LocalConfig bind(
      @JsonProperty("id") String id,
      @JsonProperty("region") String region,
      @JsonProperty("hipaaEligible") Boolean hipaaEligible,
      @JsonProperty("discountPct") BigDecimal discountPct,
      @JsonProperty("usdPerHour") BigDecimal usdPerHour,
      @JsonProperty("codeDir") String codeDir,
      @JsonProperty("secretsDir") String secretsDir,
      @JsonProperty("maxConcurrentJobs") Integer maxConcurrentJobs,
      @JsonProperty("killGracePeriod") String killGracePeriod) {
    return new LocalConfig(
        id,
        region,
        Boolean.TRUE.equals(hipaaEligible),
        discountPct,
        usdPerHour,
        codeDir,
        secretsDir,
        maxConcurrentJobs,
        killGracePeriod);
  }

  /** A block with every default, what the gateway uses when it has no configuration. */
  public static LocalConfig defaults() {
    return new LocalConfig(null, null, false, null, null, null, null, null, null);
  }

  /** {@link #codeDir} resolved against the gateway's working directory. */
  public Path codePath() {
    return Path.of(codeDir).toAbsolutePath().normalize();
  }

  /** {@link #secretsDir} resolved against the gateway's working directory. */
  public Path secretsPath() {
    return Path.of(secretsDir).toAbsolutePath().normalize();
  }

  public Duration killGrace() {
    return Quantities.duration(killGracePeriod);
  }

  private static String blankToDefault(String value, String fallback) {
    return value == null || value.isBlank() ? fallback : value;
  }
}
