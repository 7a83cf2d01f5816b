package io.trainyard.kubeflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.trainyard.spi.spec.TrainingJob;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Comparator;

/** Reading, writing and comparing documents in tests. */
final class TestDocuments {
  /** Reads Trainyard specs the way the gateway does: strict about unknown fields. */
  static final ObjectMapper SPECS =
      new ObjectMapper(new YAMLFactory())
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  static final ObjectMapper YAML_OUT =
      new ObjectMapper(
          YAMLFactory.builder()
              .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
              .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
              .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
              .build());

  /** Numbers equal by value (8 and 8.0, 0.5 read as a decimal or a double). */
  private static final Comparator<JsonNode> BY_VALUE =
      (a, b) -> {
        if (a.isNumber() && b.isNumber()) {
          return a.decimalValue().compareTo(b.decimalValue());
        }
        return a.equals(b) ? 0 : 1;
      };

  private TestDocuments() {}

  static byte[] bytes(String resource) {
    try (var in = TestDocuments.class.getResourceAsStream("/" + resource)) {
      if (in == null) {
        throw new IllegalArgumentException("no test resource " + resource);
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonNode document(String resource) {
    return KubeflowDocuments.parseSingle(bytes(resource));
  }

  static JsonNode yaml(String text) {
    return KubeflowDocuments.parseSingle(text.getBytes(StandardCharsets.UTF_8));
  }

  static TrainingJob spec(String resource) {
    try {
      return SPECS.readValue(bytes(resource), TrainingJob.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static JsonNode tree(Object value) {
    return SPECS.valueToTree(value);
  }

  static String text(Object value) {
    try {
      return YAML_OUT.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Asserts equal trees, numbers compared by value, showing both as YAML when they differ. */
  static void assertSameTree(JsonNode actual, JsonNode expected) {
    if (!actual.equals(BY_VALUE, expected)) {
      assertThat(text(actual)).isEqualTo(text(expected));
      assertThat(actual.equals(BY_VALUE, expected)).as("trees equal by value").isTrue();
    }
  }
}
