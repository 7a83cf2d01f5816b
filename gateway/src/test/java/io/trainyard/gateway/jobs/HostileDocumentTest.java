package io.trainyard.gateway.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.gateway.errors.ApiException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue #13's hostile documents: each one ran the gateway out of heap, took tens of seconds, or
 * answered 500 or a misleading 503. Each must now be a 4xx naming its field.
 */
class HostileDocumentTest {
  private static final String JSON_SPEC =
      """
      {"apiVersion": "trainyard.io/v1", "kind": "TrainingJob", "metadata": {"name": "j"},
       "spec": {"framework": "pytorch", "image": "python:3.11", "replicas": {"master": 1},
       %s}}
      """;
  private static final String YAML_SPEC =
      """
      apiVersion: trainyard.io/v1
      kind: TrainingJob
      metadata: {name: j}
      spec:
        framework: pytorch
        image: python:3.11
        replicas: {master: 1}
      """;
  private static final String PYTORCH_JOB =
      """
      {"apiVersion": "kubeflow.org/v1", "kind": "PyTorchJob", "metadata": {"name": "b"},
       "spec": {"pytorchReplicaSpecs": {"Master": {"replicas": 1, "template": {"spec":
       {"containers": [{"name": "pytorch", "image": "p", "resources": {"limits":
       {"memory": %s}}}]}}}}}}
      """;

  private final SpecReader reader = new SpecReader(32 << 20);

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          estimatedHours bomb      | "estimatedHours": 1e20000000                | spec.estimatedHours
          estimatedHours 1e400     | "estimatedHours": 1e400                     | spec.estimatedHours
          estimatedHours as text   | "estimatedHours": "1e20000000"              | spec.estimatedHours
          estimatedHours too long  | "estimatedHours": 87601                     | spec.estimatedHours
          maxHourlyUsd tiny        | "placement": {"maxHourlyUsd": 1e-999999999} | spec.placement.maxHourlyUsd
          maxHourlyUsd tiny text   | "placement": {"maxHourlyUsd": "1e-999999"}  | spec.placement.maxHourlyUsd
          maxHourlyUsd too high    | "placement": {"maxHourlyUsd": 100001}       | spec.placement.maxHourlyUsd
          maxRuntime overflow      | "maxRuntime": "9223372036854775807d"        | spec.maxRuntime
          maxRuntime over 10y      | "maxRuntime": "3651d"                       | spec.maxRuntime
          ttl overflow             | "cleanup": {"ttlAfterFinished": "106751991167301d"} | spec.cleanup.ttlAfterFinished
          int overflow             | "maxRestarts": 99999999999999999999         | spec.maxRestarts
          cpus huge                | "resources": {"cpus": 1e30}                 | spec.resources.cpus
          cpus as infinite text    | "resources": {"cpus": "1e400"}              | spec.resources.cpus
          role cpus exponent       | "roles": {"master": {"resources": {"cpus": 1e31}}} | spec.roles.master.resources.cpus
          memory overflow          | "resources": {"memory": "9999999999999Pi"}  | spec.resources.memory
          NUL in an env value      | "env": {"A": "x\\u0000y"}                   | spec.env.A
          NUL in an arg            | "args": ["x\\u0000"]                        | spec.args[0]
          escape in an arg         | "args": ["\\u001b[31m"]                     | spec.args[0]
          lone surrogate in an arg | "args": ["\\ud800"]                         | spec.args[0]
          newline in an image      | "image": "a\\nb"                            | spec.image
          secret key dot           | "secretEnv": {"S": {"secret": "s", "key": "."}} | spec.secretEnv.S.key
          secret key dotdot        | "secretEnv": {"S": {"secret": "s", "key": ".."}} | spec.secretEnv.S.key
          secret name dots         | "secretEnv": {"S": {"secret": "a..b", "key": "k"}} | spec.secretEnv.S.secret
          """)
  void aHostileSpecIsA4xxNamingItsField(String name, String fragment, String field) {
    var body = JSON_SPEC.formatted(fragment);
    assertRefused(body, field);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          label key ../x          | ../x   | ok
          label key with slash    | a/b/c  | ok
          label value with space  | a      | 'x y'
          """)
  void labelsAreHeldToKubernetesRules(String name, String key, String value) {
    var body =
        """
        {"apiVersion": "trainyard.io/v1", "kind": "TrainingJob",
         "metadata": {"name": "j", "labels": {"%s": "%s"}},
         "spec": {"framework": "pytorch", "image": "i", "replicas": {"master": 1}}}
        """
            .formatted(key, value.replace("'", ""));
    assertRefused(body, "metadata.labels." + key);
  }

  @Test
  void aLoneSurrogateInALabelIsRefusedBeforeItReachesTheAuditLog() {
    var body =
        """
        {"apiVersion": "trainyard.io/v1", "kind": "TrainingJob",
         "metadata": {"name": "j", "labels": {"team-a": "\\udc00"}},
         "spec": {"framework": "pytorch", "image": "i", "replicas": {"master": 1}}}
        """;
    assertRefused(body, "metadata.labels.team-a");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          cpus .inf          | '  resources: {cpus: .inf}'      | spec.resources.cpus
          cpus -.Inf         | '  resources: {cpus: -.Inf}'     | spec.resources.cpus
          cpus .nan          | '  resources: {cpus: .nan}'      | spec.resources.cpus
          estimatedHours .NaN | '  estimatedHours: .NaN'        | spec.estimatedHours
          estimatedHours 1e400 | '  estimatedHours: 1.0e+400'   | spec.estimatedHours
          memory exponent    | '  resources: {memory: 1e999999999}' | spec.resources.memory
          """)
  void yamlsSpecialNumbersAreRefusedByField(String name, String line, String field) {
    assertRefused(YAML_SPEC + line + "\n", field);
  }

  @Test
  void aNewlineInAnArgIsAScriptAndStaysValid() {
    var body = JSON_SPEC.formatted("\"args\": [\"-c\", \"import os\\n\\tprint(1)\"]");
    var job = reader.read(body.getBytes(StandardCharsets.UTF_8)).job();
    assertThat(job.spec().args()).containsExactly("-c", "import os\n\tprint(1)");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          exponent bomb            | 1e999999999
          tiny exponent bomb       | 1e-999999999
          """)
  void aKubeflowMemoryBombIsRefusedAtItsPath(String name, String memory) {
    assertRefused(
        PYTORCH_JOB.formatted(memory),
        "spec.pytorchReplicaSpecs.Master.template.spec.containers[0].resources.limits.memory");
  }

  @Test
  void aKubeflowMemoryExponentAsTextIsRefusedAtItsPath() {
    assertRefused(
        PYTORCH_JOB.formatted("\"1e999999999\""),
        "spec.pytorchReplicaSpecs.Master.template.spec.containers[0].resources.limits.memory");
  }

  @Test
  void anEmptyKeyIsNamedAsSuch() {
    // Found by SpecReaderFuzzTest: the error about an empty key named no field.
    assertRefused(PYTORCH_JOB.formatted("1").replaceFirst("\\{", "{\"\": 1, "), "\"\"");
  }

  @Test
  void aHugeMemoryQuantityIsRefusedByItsLengthFirst() {
    var digits = "9".repeat(900_000);
    var started = System.nanoTime();
    assertRefused(
        JSON_SPEC.formatted("\"resources\": {\"memory\": \"" + digits + "\"}"),
        "spec.resources.memory");
    assertRefused(
        PYTORCH_JOB.formatted("\"" + digits + "\""),
        "spec.pytorchReplicaSpecs.Master.template.spec.containers[0].resources.limits.memory");
    assertRefused(PYTORCH_JOB.formatted(digits), "(any)");
    System.out.printf(
        "900,000-digit quantities (string twice, number once) refused in %d ms%n",
        (System.nanoTime() - started) / 1_000_000);
  }

  /** The issue's bombs, each refused; the time and the answer's size are printed for the record. */
  @Test
  void theIssuesBombsAreRefusedSmall() throws Exception {
    var bombs = new java.util.LinkedHashMap<String, String>();
    bombs.put("PyTorchJob memory 1e999999999 (302 bytes)", PYTORCH_JOB.formatted("1e999999999"));
    bombs.put("estimatedHours 1e20000000", JSON_SPEC.formatted("\"estimatedHours\": 1e20000000"));
    bombs.put(
        "maxHourlyUsd 1e-999999999",
        JSON_SPEC.formatted("\"placement\": {\"maxHourlyUsd\": 1e-999999999}"));
    bombs.put(
        "memory of 900,000 digits",
        JSON_SPEC.formatted("\"resources\": {\"memory\": \"" + "9".repeat(900_000) + "\"}"));
    bombs.put(
        "maxRuntime 9223372036854775807d",
        JSON_SPEC.formatted("\"maxRuntime\": \"9223372036854775807d\""));
    bombs.put("YAML cpus .inf", YAML_SPEC + "  resources: {cpus: .inf}\n");
    var json = io.dropwizard.jackson.Jackson.newObjectMapper();
    var mapper = new io.trainyard.gateway.errors.ApiExceptionMapper();
    for (var bomb : bombs.entrySet()) {
      var started = System.nanoTime();
      var body = bomb.getValue().getBytes(StandardCharsets.UTF_8);
      var refusal =
          org.assertj.core.api.Assertions.catchThrowableOfType(
              ApiException.class, () -> reader.read(body));
      var micros = (System.nanoTime() - started) / 1_000;
      assertThat(refusal).as(bomb.getKey()).isNotNull();
      var answer = json.writeValueAsBytes(mapper.toResponse(refusal).getEntity());
      assertThat(answer.length).as(bomb.getKey()).isLessThan(4_096);
      System.out.printf(
          "%-45s refused %d in %,d us, answer %d bytes%n",
          bomb.getKey(), refusal.code().status(), micros, answer.length);
    }
  }

  @Test
  void atMostAHundredErrorsAreListedAndAllAreCounted() {
    var env = new StringBuilder();
    for (int i = 0; i < 300_000; i++) {
      env.append(i == 0 ? "" : ",").append("\"").append(i).append("x\": \"v\"");
    }
    var body = JSON_SPEC.formatted("\"env\": {" + env + "}");
    assertThatThrownBy(() -> reader.read(body.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.errors()).hasSize(100);
              assertThat(e.errorCount()).isEqualTo(300_000);
              assertThat(e.getMessage()).contains("300000 problem(s)").contains("299900 more");
            });
  }

  private void assertRefused(String body, String field) {
    assertThatThrownBy(() -> reader.read(body.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.code().status()).isBetween(400, 499);
              assertThat(e.errors()).isNotEmpty();
              assertThat(e.errors()).allSatisfy(f -> assertThat(f.field()).isNotBlank());
              if (!field.equals("(any)")) {
                assertThat(e.errors()).extracting(f -> f.field()).contains(field);
              }
            });
  }
}
