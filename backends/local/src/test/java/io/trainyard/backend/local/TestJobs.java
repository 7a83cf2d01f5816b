package io.trainyard.backend.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.JobSpecValidator;
import io.trainyard.spi.spec.TrainingJob;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/** Jobs for tests, read from YAML the way the gateway reads them and checked by the validator. */
final class TestJobs {
  static final ObjectMapper YAML =
      new ObjectMapper(new YAMLFactory())
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

  /** The repository root, where examples/ lives (tests run in backends/local). */
  static final Path REPO_ROOT = Path.of("../..").toAbsolutePath().normalize();

  private TestJobs() {}

  /**
   * A valid TrainingJob's spec from its YAML. The validator requires an image even though the local
   * backend only records it, so one is added when the YAML has none.
   */
  static JobSpec spec(String specYaml) {
    var body = specYaml.contains("image:") ? specYaml : "image: python:3.11-slim\n" + specYaml;
    var yaml =
        "apiVersion: trainyard.io/v1\nkind: TrainingJob\nmetadata: {name: test}\nspec:\n"
            + body.lines().map(l -> "  " + l).reduce("", (a, b) -> a + b + "\n");
    return parse(yaml).spec();
  }

  /**
   * A spec as the backend could receive it if the gateway's validation missed something: parsed,
   * not validated.
   */
  static JobSpec unvalidatedSpec(String specYaml) {
    var body = "image: python:3.11-slim\n" + specYaml;
    var yaml =
        "apiVersion: trainyard.io/v1\nkind: TrainingJob\nmetadata: {name: test}\nspec:\n"
            + body.lines().map(l -> "  " + l).reduce("", (a, b) -> a + b + "\n");
    try {
      return YAML.readValue(yaml, TrainingJob.class).spec();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static TrainingJob parse(String yaml) {
    try {
      var job = YAML.readValue(yaml, TrainingJob.class);
      assertThat(new JobSpecValidator().validate(job)).as("spec errors").isEmpty();
      return job;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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
    var chars = "0123456789abcdefghjkmnpqrstvwxyz";
    var id = new StringBuilder("01");
    for (int i = 0; i < 24; i++) {
      id.append(chars.charAt(ThreadLocalRandom.current().nextInt(chars.length())));
    }
    return id.toString();
  }
}
