package io.trainyard.backend.local;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.TrainingJob;
import io.trainyard.testkit.TestSpecs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** Jobs for tests, read from YAML the way the gateway reads them and checked by the validator. */
final class TestJobs {
  static final ObjectMapper YAML = TestSpecs.YAML;

  /** The repository root, where examples/ lives (tests run in backends/local). */
  static final Path REPO_ROOT = Path.of("../..").toAbsolutePath().normalize();

  private TestJobs() {}

  /**
   * A valid TrainingJob's spec from its YAML. The validator requires an image even though the local
   * backend only records it, so one is added when the YAML has none.
   */
  static JobSpec spec(String specYaml) {
    return TestSpecs.spec(
        specYaml.contains("image:") ? specYaml : "image: python:3.11-slim\n" + specYaml);
  }

  /**
   * A spec as the backend could receive it if the gateway's validation missed something: parsed,
   * not validated.
   */
  static JobSpec unvalidatedSpec(String specYaml) {
    return TestSpecs.unvalidatedSpec("image: python:3.11-slim\n" + specYaml);
  }

  static TrainingJob parse(String yaml) {
    return TestSpecs.parse(yaml);
  }

  static TrainingJob file(Path path) {
    try {
      return parse(Files.readString(path));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static BackendJob job(JobSpec spec) {
    return job(newJobId(), spec, "hash-1");
  }

  static BackendJob job(String jobId, JobSpec spec, String specHash) {
    return new BackendJob(jobId, 1, "team", "owner", "test", spec, specHash, null, Map.of());
  }

  /** A random lower-case ULID-shaped id. */
  static String newJobId() {
    return TestSpecs.newJobId();
  }
}
