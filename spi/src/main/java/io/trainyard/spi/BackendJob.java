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
    Map<String, String> settings) {
  public BackendJob {
    Objects.requireNonNull(jobId, "jobId");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(specHash, "specHash");
    settings = settings == null ? Map.of() : Map.copyOf(settings);
    if (attempt < 1) {
      throw new IllegalArgumentException("attempt starts at 1");
    }
  }

  /** The backend object's name for this attempt, {@code ty-<job id>-a<attempt>}. */
  public String objectName() {
    return ObjectNames.of(jobId, attempt);
  }
}
