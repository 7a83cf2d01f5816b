package io.trainyard.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.JobSpecValidator;
import io.trainyard.spi.spec.TrainingJob;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Job specs for tests, read from YAML the way the gateway reads them (unknown fields refused) and
 * checked by the gateway's validator, so a backend test never sees a spec the gateway would not
 * hand it.
 */
public final class TestSpecs {
  /** The gateway's reading of YAML: unknown properties and null primitives are errors. */
  public static final ObjectMapper YAML =
      new ObjectMapper(new YAMLFactory())
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

  private static final String ULID_CHARS = "0123456789abcdefghjkmnpqrstvwxyz";

  private TestSpecs() {}

  /** A valid spec from the body of {@code spec:} (unindented); fails the test when invalid. */
  public static JobSpec spec(String specYaml) {
    return parse(document(specYaml)).spec();
  }

  /**
   * A spec as a backend could receive it if the gateway's validation missed something: parsed, not
   * validated.
   */
  public static JobSpec unvalidatedSpec(String specYaml) {
    try {
      return YAML.readValue(document(specYaml), TrainingJob.class).spec();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A whole {@code TrainingJob} document, validated. */
  public static TrainingJob parse(String yaml) {
    try {
      var job = YAML.readValue(yaml, TrainingJob.class);
      assertThat(new JobSpecValidator().validate(job)).as("spec errors").isEmpty();
      return job;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A random job id shaped as the gateway's (a lower-case ULID), so object names are valid. */
  public static String newJobId() {
    var id = new StringBuilder("01");
    for (int i = 0; i < 24; i++) {
      id.append(ULID_CHARS.charAt(ThreadLocalRandom.current().nextInt(ULID_CHARS.length())));
    }
    return id.toString();
  }

  /** A random hex SHA-256-shaped spec hash. */
  public static String newSpecHash() {
    var hash = new StringBuilder();
    for (int i = 0; i < 64; i++) {
      hash.append(Character.forDigit(ThreadLocalRandom.current().nextInt(16), 16));
    }
    return hash.toString();
  }

  private static String document(String specYaml) {
    return "apiVersion: trainyard.io/v1\nkind: TrainingJob\nmetadata: {name: test}\nspec:\n"
        + specYaml.lines().map(l -> "  " + l).reduce("", (a, b) -> a + b + "\n");
  }
}
