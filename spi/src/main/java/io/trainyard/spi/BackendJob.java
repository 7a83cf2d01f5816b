package io.trainyard.spi;

import io.trainyard.spi.spec.JobSpec;
import java.util.Map;
import java.util.Objects;

/**
 * One attempt of a job as a backend receives it at submit.
 *
 * @param jobId the gateway's job id, a lower-case ULID
 * @param name the job's {@code metadata.name}
 * @param specHash hex SHA-256 of the canonical spec; labels the backend object for adoption
 * @param placement the placement the router chose on this backend
 * @param settings team settings for this backend, e.g. {@code namespace}
 * @param gatewaySecretEnv environment variables the gateway gives every replica whose values are
 *     secret (the job's metrics URL and token): a backend that {@link
 *     TrainingBackend#deliversGatewaySecrets() delivers them} passes them so that only the job's
 *     own processes can read them (never into a description anyone may read); others ignore them.
 *     Never logged: {@link #toString()} names the keys only
 */
public record BackendJob(
    String jobId,
    int attempt,
    String team,
    String owner,
    String name,
    JobSpec spec,
    String specHash,
    Placement placement,
    Map<String, String> settings,
    Map<String, String> gatewaySecretEnv) {
  public BackendJob {
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(specHash, "specHash");
    settings = settings == null ? Map.of() : Map.copyOf(settings);
    gatewaySecretEnv = gatewaySecretEnv == null ? Map.of() : Map.copyOf(gatewaySecretEnv);
    if (attempt < 1) {
      throw new IllegalArgumentException("attempt starts at 1");
    }
  }

  /** An attempt without gateway-provided secret environment. */
  public BackendJob(
      String jobId,
      int attempt,
      String team,
      String owner,
      String name,
      JobSpec spec,
      String specHash,
      Placement placement,
      Map<String, String> settings) {
    this(jobId, attempt, team, owner, name, spec, specHash, placement, settings, Map.of());
  }

  /** The same attempt with {@code env} as its gateway-provided secret environment. */
  public BackendJob withGatewaySecretEnv(Map<String, String> env) {
    return new BackendJob(
        jobId, attempt, team, owner, name, spec, specHash, placement, settings, env);
  }

  /** Names the secret environment's keys, never its values. */
  @Override
  public String toString() {
    return "BackendJob[jobId="
        + jobId
        + ", attempt="
        + attempt
        + ", team="
        + team
        + ", name="
        + name
        + ", specHash="
        + specHash
        + ", placement="
        + placement
        + ", settings="
        + settings
        + ", gatewaySecretEnv="
        + new java.util.TreeSet<>(gatewaySecretEnv.keySet())
        + "]";
  }

  /** The backend object's name for this attempt, {@code ty-<job id>-a<attempt>}. */
  public String objectName() {
    return ObjectNames.of(jobId, attempt);
  }
}
