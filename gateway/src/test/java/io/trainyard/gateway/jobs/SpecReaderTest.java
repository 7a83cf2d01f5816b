package io.trainyard.gateway.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SpecReaderTest {
  private static final String YAML = "application/yaml";
  private static final String VALID =
      """
      apiVersion: trainyard.io/v1
      kind: TrainingJob
      metadata: {name: demo}
      spec:
        framework: pytorch
        image: python:3.11
        command: [python3, train.py]
        replicas: {master: 1, worker: 1}
      """;

  private final SpecReader reader = new SpecReader(64 * 1024);

  @Test
  void readsYamlAndJson() {
    assertThat(reader.read(bytes(VALID), YAML).metadata().name()).isEqualTo("demo");
    var json =
        """
        {"apiVersion": "trainyard.io/v1", "kind": "TrainingJob", "metadata": {"name": "j"},
         "spec": {"framework": "xgboost", "image": "i", "replicas": {"master": 1, "worker": 3}}}
        """;
    assertThat(reader.read(bytes(json), "application/json").spec().totalReplicas()).isEqualTo(4);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          unknown field           | '  colour: blue'                         | spec.colour                | unknown field
          wrong type              | '  maxRestarts: many'                    | spec.maxRestarts           | 'many' is not a whole number
          float for an int        | '  maxRestarts: 1.5'                     | spec.maxRestarts           | whole number
          list for a map          | '  env: [a, b]'                          | spec.env                   | must be an object
          unknown framework       | '  framework: jax'                       | spec.framework             | unknown value 'jax'; one of pytorch, tensorflow, mpi, xgboost
          unknown spot policy     | '  placement: {spot: sometimes}'         | spec.placement.spot        | unknown value 'sometimes'
          unknown input field     | '  inputs: [{name: a, url: s3://x}]'     | spec.inputs[0].url         | unknown field
          """)
  void namesTheFieldOfATypeError(String name, String line, String field, String message) {
    var doc =
        VALID.replace(
                "  framework: pytorch\n",
                line.startsWith("  framework") ? "" : "  framework: pytorch\n")
            + line
            + "\n";
    assertThatThrownBy(() -> reader.read(bytes(doc), YAML))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.INVALID_SPEC);
              assertThat(e.errors()).hasSize(1);
              assertThat(e.errors().get(0).field()).isEqualTo(field);
              assertThat(e.errors().get(0).message()).contains(message);
            });
  }

  @Test
  void validationErrorsAllComeBack() {
    var doc = VALID.replace("{master: 1, worker: 1}", "{master: 0, worker: -1, chief: 1}");
    assertThatThrownBy(() -> reader.read(bytes(doc), YAML))
        .isInstanceOfSatisfying(
            ApiException.class,
            e ->
                assertThat(e.errors())
                    .extracting(f -> f.field())
                    .containsExactlyInAnyOrder(
                        "spec.replicas.master", "spec.replicas.worker", "spec.replicas.chief"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          malformed yaml   | 'spec: [unclosed'                           | application/yaml | malformed YAML
          malformed json   | '{"apiVersion": '                           | application/json | malformed JSON
          not an object    | '- a list'                                  | application/yaml | must be an object
          scalar           | '42'                                        | application/json | must be an object
          duplicate key    | '{"kind": "a", "kind": "b"}'                | application/json | malformed JSON
          trailing tokens  | '{"kind": "a"} {"kind": "b"}'               | application/json | malformed JSON
          """)
  void refusesWhatDoesNotParse(String name, String body, String type, String message) {
    assertThatThrownBy(() -> reader.read(bytes(body), type))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED);
              assertThat(e.getMessage()).contains(message);
            });
  }

  /** Jackson does not expand YAML aliases into the tree, so a billion laughs builds nothing. */
  @Test
  void aYamlAliasBombIsRefusedCheaply() {
    var bomb = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x]\n");
    for (char c = 'b'; c <= 'k'; c++) {
      var prev = (char) (c - 1);
      bomb.append(c)
          .append(": &")
          .append(c)
          .append(" [*")
          .append(prev)
          .append(", *")
          .append(prev)
          .append(", *")
          .append(prev)
          .append(", *")
          .append(prev)
          .append(", *")
          .append(prev)
          .append(", *")
          .append(prev)
          .append("]\n");
    }
    assertThatThrownBy(() -> reader.read(bytes(bomb.toString()), YAML))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> assertThat(e.code()).isIn(ErrorCode.MALFORMED, ErrorCode.INVALID_SPEC));
    var inEnv = VALID + "  env: {A: *k}\n";
    assertThatThrownBy(
            () -> reader.read(bytes(bomb + inEnv.replace("apiVersion", "x: 1\napiVersion")), YAML))
        .isInstanceOf(ApiException.class);
  }

  @Test
  void deepNestingIsRefused() {
    var deep = "[".repeat(500) + "]".repeat(500);
    assertThatThrownBy(() -> reader.read(bytes(deep), "application/json"))
        .isInstanceOfSatisfying(
            ApiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED));
  }

  @Test
  void anOversizedBodyIsRefusedBeforeParsing() {
    var big = new byte[64 * 1024 + 1];
    assertThatThrownBy(() -> reader.readBody(new ByteArrayInputStream(big)))
        .isInstanceOfSatisfying(
            ApiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.PAYLOAD_TOO_LARGE));
    assertThatThrownBy(() -> reader.readBody(new ByteArrayInputStream(new byte[0])))
        .isInstanceOfSatisfying(
            ApiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED));
  }

  @Test
  void kubeflowDocumentsAreRefusedByNameUntilTheyAreSupported() {
    var doc = "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: x}\n";
    assertThatThrownBy(() -> reader.read(bytes(doc), YAML))
        .isInstanceOfSatisfying(
            ApiException.class, e -> assertThat(e.errors().get(0).field()).isEqualTo("apiVersion"));
  }

  @Test
  void theSpecHashIgnoresKeyOrderAndFormatting() {
    var a = reader.read(bytes(VALID), YAML);
    var reordered =
        """
        {"spec": {"replicas": {"worker": 1, "master": 1}, "command": ["python3", "train.py"],
                  "image": "python:3.11", "framework": "pytorch"},
         "metadata": {"name": "demo"}, "kind": "TrainingJob", "apiVersion": "trainyard.io/v1"}
        """;
    var b = reader.read(bytes(reordered), "application/json");
    assertThat(CanonicalJson.sha256(a)).isEqualTo(CanonicalJson.sha256(b)).hasSize(64);
    var c = reader.read(bytes(VALID.replace("worker: 1", "worker: 2")), YAML);
    assertThat(CanonicalJson.sha256(c)).isNotEqualTo(CanonicalJson.sha256(a));
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
