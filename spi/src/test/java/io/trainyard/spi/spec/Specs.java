package io.trainyard.spi.spec;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Reads specs in tests the way the gateway does: strict about unknown fields. */
final class Specs {
  static final ObjectMapper YAML =
      new ObjectMapper(new YAMLFactory())
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

  private Specs() {}

  static TrainingJob parse(String yaml) {
    try {
      return YAML.readValue(yaml, TrainingJob.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static TrainingJob resource(String name) {
    try (var in = Specs.class.getResourceAsStream("/" + name)) {
      return YAML.readValue(in, TrainingJob.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
