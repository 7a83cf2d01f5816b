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
 * @param secretsDir where {@code secretEnv} values are read, as {@code
 *     <secretsDir>/<team>/<secret>/<key>}
 * @param maxConcurrentJobs live jobs beyond which submit refuses for capacity
 * @param killGracePeriod between SIGTERM and SIGKILL when a job is stopped, e.g. {@code 10s}
 * @param sandbox how replicas are kept away from the gateway: {@code auto} (the default), {@code
 *     users}, {@code bubblewrap} or {@code none} (dev mode only); see {@link SandboxMode}
 * @param uidRange the uids the {@code users} sandbox hands out, one per live attempt, e.g. {@code
 *     200000-200999}: far above the system's and people's accounts, so no file on the host belongs
 *     to them
 * @param workDir where each attempt gets its scratch directory ({@code TRAINYARD_ATTEMPT_DIR},
 *     {@code <workDir>/<attempt>}); it must lie outside the gateway's (owner-only) data directory.
 *     A scratch directory is removed when its attempt ends: what a job wants kept it must write
 *     elsewhere (an object store); its logs stay in the data directory.
 * @param scratchLimit how much one attempt's scratch directory may hold, a quantity such as {@code
 *     10Gi} (the default): the backend measures it every 2 seconds (less often when a walk takes
 *     long) and fails the attempt once it is past the limit ("scratch directory grew past 10 GiB
 *     (scratchLimit)"). Counted as disk use: every file and directory at least one 4 KiB block,
 *     sizes rounded up to blocks, sparse files at their full length, each hard link once per name;
 *     a directory the gateway cannot read fails the attempt too (it could not be measured)
 * @param logLimit how much one replica's log may hold, over all its restarts, e.g. {@code 1Gi} (the
 *     default): lines past it are not kept (the job goes on; one note in the log says so), and a
 *     replica whose log grows well past it anyway (written around its wrapper) fails the attempt
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
    String killGracePeriod,
    String sandbox,
    String uidRange,
    String workDir,
    String scratchLimit,
    String logLimit)
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
    sandbox = blankToDefault(sandbox, "auto");
    uidRange = blankToDefault(uidRange, UidRange.DEFAULT);
    workDir =
        blankToDefault(
            workDir, Path.of(System.getProperty("java.io.tmpdir"), "trainyard-" + id).toString());
    scratchLimit = blankToDefault(scratchLimit, "10Gi");
    logLimit = blankToDefault(logLimit, "1Gi");
    SandboxMode.parse(sandbox); // throws naming the field
    UidRange.parse(uidRange);
    if (usdPerHour.signum() < 0) {
      throw new IllegalArgumentException("usdPerHour must be 0 or more");
    }
    if (discountPct.signum() < 0 || discountPct.compareTo(BigDecimal.valueOf(100)) > 0) {
      throw new IllegalArgumentException("discountPct must be between 0 and 100");
    }
    if (maxConcurrentJobs < 1) {
      throw new IllegalArgumentException("maxConcurrentJobs must be at least 1");
    }
    positiveBytes("scratchLimit", scratchLimit);
    positiveBytes("logLimit", logLimit);
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
      @JsonProperty("killGracePeriod") String killGracePeriod,
      @JsonProperty("sandbox") String sandbox,
      @JsonProperty("uidRange") String uidRange,
      @JsonProperty("workDir") String workDir,
      @JsonProperty("scratchLimit") String scratchLimit,
      @JsonProperty("logLimit") String logLimit) {
    return new LocalConfig(
        id,
        region,
        Boolean.TRUE.equals(hipaaEligible),
        discountPct,
        usdPerHour,
        codeDir,
        secretsDir,
        maxConcurrentJobs,
        killGracePeriod,
        sandbox,
        uidRange,
        workDir,
        scratchLimit,
        logLimit);
  }

  /** A block with the disk limits left to their defaults. */
  public LocalConfig(
      String id,
      String region,
      boolean hipaaEligible,
      BigDecimal discountPct,
      BigDecimal usdPerHour,
      String codeDir,
      String secretsDir,
      Integer maxConcurrentJobs,
      String killGracePeriod,
      String sandbox,
      String uidRange,
      String workDir) {
    this(
        id,
        region,
        hipaaEligible,
        discountPct,
        usdPerHour,
        codeDir,
        secretsDir,
        maxConcurrentJobs,
        killGracePeriod,
        sandbox,
        uidRange,
        workDir,
        null,
        null);
  }

  /** A block with the sandbox settings left to their defaults. */
  public LocalConfig(
      String id,
      String region,
      boolean hipaaEligible,
      BigDecimal discountPct,
      BigDecimal usdPerHour,
      String codeDir,
      String secretsDir,
      Integer maxConcurrentJobs,
      String killGracePeriod) {
    this(
        id,
        region,
        hipaaEligible,
        discountPct,
        usdPerHour,
        codeDir,
        secretsDir,
        maxConcurrentJobs,
        killGracePeriod,
        null,
        null,
        null);
  }

  /** A copy with another sandbox setting (and scratch root), e.g. for tests of each mode. */
  public LocalConfig withSandbox(String newSandbox, String newWorkDir) {
    return new LocalConfig(
        id,
        region,
        hipaaEligible,
        discountPct,
        usdPerHour,
        codeDir,
        secretsDir,
        maxConcurrentJobs,
        killGracePeriod,
        newSandbox,
        uidRange,
        newWorkDir,
        scratchLimit,
        logLimit);
  }

  /** A copy with other disk limits, e.g. small ones for tests. */
  public LocalConfig withLimits(String newScratchLimit, String newLogLimit) {
    return new LocalConfig(
        id,
        region,
        hipaaEligible,
        discountPct,
        usdPerHour,
        codeDir,
        secretsDir,
        maxConcurrentJobs,
        killGracePeriod,
        sandbox,
        uidRange,
        workDir,
        newScratchLimit,
        newLogLimit);
  }

  /** {@link #scratchLimit} in bytes. */
  public long scratchLimitBytes() {
    return Quantities.bytes(scratchLimit);
  }

  /** {@link #logLimit} in bytes. */
  public long logLimitBytes() {
    return Quantities.bytes(logLimit);
  }

  public SandboxMode sandboxMode() {
    return SandboxMode.parse(sandbox);
  }

  public UidRange uids() {
    return UidRange.parse(uidRange);
  }

  /** {@link #workDir} resolved against the gateway's working directory. */
  public Path workPath() {
    return Path.of(workDir).toAbsolutePath().normalize();
  }

  /** A block with every default, what the gateway uses when it has no configuration. */
  public static LocalConfig defaults() {
    return new LocalConfig(
        null, null, false, null, null, null, null, null, null, null, null, null, null, null);
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

  private static void positiveBytes(String field, String quantity) {
    long bytes;
    try {
      bytes = Quantities.bytes(quantity);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(field + ": " + e.getMessage(), e);
    }
    if (bytes < 1) {
      throw new IllegalArgumentException(field + " must be more than 0");
    }
  }

  private static String blankToDefault(String value, String fallback) {
    return value == null || value.isBlank() ? fallback : value;
  }
}
