package io.trainyard.gateway.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import io.trainyard.spi.BackendConfig;
import io.trainyard.spi.spec.Framework;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SpecReaderTest {
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

  private static final String TRAIN_JOB =
      """
      apiVersion: trainer.kubeflow.org/v1alpha1
      kind: TrainJob
      metadata: {name: mnist}
      spec:
        runtimeRef: {name: RUNTIME}
        trainer: {image: docker.io/kubeflow/pytorch-mnist:v1, numNodes: 2}
      """;

  @Test
  void aTrainJobIsReadOnTheRuntimesItsClustersDeclare() {
    var job = reader.read(bytes(TRAIN_JOB.replace("RUNTIME", "torch-distributed"))).job();
    assertThat(job.spec().replicas()).containsEntry("master", 1).containsEntry("worker", 1);
    var site = TRAIN_JOB.replace("RUNTIME", "torch-site");
    assertThatThrownBy(() -> reader.read(bytes(site)))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.INVALID_SPEC);
              assertThat(e.errors().get(0).field()).isEqualTo("spec.runtimeRef.name");
            });
    var declaring =
        new SpecReader(
            64 * 1024,
            SpecReader.runtimesOf(
                java.util.List.of(
                    backend("a", java.util.Map.of("torch-site", Framework.PYTORCH)))));
    assertThat(declaring.read(bytes(site)).job().spec().framework()).isEqualTo(Framework.PYTORCH);
  }

  @Test
  void twoClustersMayNotGiveOneRuntimeTwoFrameworks() {
    var backends =
        java.util.List.of(
            backend("a", java.util.Map.of("site", Framework.PYTORCH)),
            backend("b", java.util.Map.of("site", Framework.MPI)));
    assertThatThrownBy(() -> SpecReader.runtimesOf(backends))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "backends: runtime site runs pytorch on a but mpi on b; a TrainJob naming it must mean"
                + " one framework");
  }

  /** A backend block that declares Trainer runtimes, as a trainer-v2 Kubernetes block does. */
  private static BackendConfig backend(String id, java.util.Map<String, Framework> runtimes) {
    return new BackendConfig() {
      @Override
      public String id() {
        return id;
      }

      @Override
      public String region() {
        return "us-east-1";
      }

      @Override
      public boolean hipaaEligible() {
        return false;
      }

      @Override
      public java.math.BigDecimal discountPct() {
        return java.math.BigDecimal.ZERO;
      }

      @Override
      public java.util.Map<String, Framework> trainerRuntimes() {
        return runtimes;
      }
    };
  }

  @Test
  void readsYamlAndJson() {
    assertThat(reader.read(bytes(VALID)).job().metadata().name()).isEqualTo("demo");
    var json =
        """
        {"apiVersion": "trainyard.io/v1", "kind": "TrainingJob", "metadata": {"name": "j"},
         "spec": {"framework": "xgboost", "image": "i", "replicas": {"master": 1, "worker": 3}}}
        """;
    assertThat(reader.read(bytes(json)).job().spec().totalReplicas()).isEqualTo(4);
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
          unknown framework       | '  framework: mxnet'                     | spec.framework             | unknown value 'mxnet'; one of pytorch, tensorflow, mpi, xgboost, paddle, jax
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
    assertThatThrownBy(() -> reader.read(bytes(doc)))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.INVALID_SPEC);
              assertThat(e.errors()).hasSize(1);
              assertThat(e.errors().get(0).field()).isEqualTo(field);
              assertThat(e.errors().get(0).message()).contains(message);
            });
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        // Any script's digits would be read as the number by Integer.parseInt.
        "{master: '\u0661\u0662', worker: 1}|spec.replicas.master|is not a whole number",
        "{master: '\uff11', worker: 1}|spec.replicas.master|is not a whole number",
        "{master: 99999999999, worker: 1}|spec.replicas.master|is out of range",
        "{master: 1, worker: '99999999999'}|spec.replicas.worker|is out of range",
      })
  void quotedNumbersInOtherDigitsAndNumbersPastTheirTypeAreRefusedByName(
      String replicas, String field, String message) {
    var doc = VALID.replace("{master: 1, worker: 1}", replicas);
    assertThatThrownBy(() -> reader.read(bytes(doc)))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.errors().get(0).field()).isEqualTo(field);
              assertThat(e.errors().get(0).message()).contains(message);
            });
    // ASCII digits in quotes still read as before.
    assertThat(
            reader.read(bytes(VALID.replace("worker: 1", "worker: '2'"))).job().spec().replicas())
        .containsEntry("worker", 2);
  }

  @Test
  void validationErrorsAllComeBack() {
    var doc = VALID.replace("{master: 1, worker: 1}", "{master: 0, worker: -1, chief: 1}");
    assertThatThrownBy(() -> reader.read(bytes(doc)))
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
          malformed yaml   | 'spec: [unclosed'                           | application/yaml | not valid YAML or JSON
          malformed json   | '{"apiVersion": '                           | application/json | not valid YAML or JSON
          not an object    | '- a list'                                  | application/yaml | must be an object
          scalar           | '42'                                        | application/json | must be an object
          duplicate key    | '{"kind": "a", "kind": "b"}'                | application/json | appears twice
          trailing tokens  | '{"kind": "a"} {"kind": "b"}'               | application/json | more than one JSON document
          """)
  void refusesWhatDoesNotParse(String name, String body, String type, String message) {
    assertThatThrownBy(() -> reader.read(bytes(body)))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED);
              assertThat(e.getMessage()).contains(message);
            });
  }

  @Test
  void oneDocumentPerBody() {
    assertThatThrownBy(() -> reader.read(bytes(VALID + "---\n" + VALID)))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> assertThat(e.getMessage()).contains("more than one YAML document"));
  }

  @Test
  void anchorsAndAliasesReadAsWhatTheyStandFor() {
    var doc =
        VALID.replace("  image: python:3.11\n", "  image: &img python:3.11\n")
            + "  roles: {worker: {image: *img}}\n";
    assertThat(reader.read(bytes(doc)).job().spec().roles().get("worker").image())
        .isEqualTo("python:3.11");
  }

  @Test
  void aYamlAliasBombIsRefusedBeforeItExpands() {
    var bomb = new StringBuilder("x-a: &a [x, x, x, x, x, x, x, x, x]\n");
    for (char c = 'b'; c <= 'k'; c++) {
      var prev = (char) (c - 1);
      bomb.append("x-").append(c).append(": &").append(c).append(" [");
      for (int i = 0; i < 9; i++) {
        bomb.append(i == 0 ? "" : ", ").append('*').append(prev);
      }
      bomb.append("]\n");
    }
    assertThatThrownBy(() -> reader.read(bytes(bomb + VALID)))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.MALFORMED);
              assertThat(e.getMessage()).contains("nested aliases are not supported");
            });
  }

  @Test
  void deepNestingIsRefused() {
    var deep = "[".repeat(500) + "]".repeat(500);
    assertThatThrownBy(() -> reader.read(bytes(deep)))
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
  void aKubeflowDocumentIsConvertedWithItsAdjustmentsAsWarnings() {
    var doc =
        """
        apiVersion: kubeflow.org/v1
        kind: PyTorchJob
        metadata: {name: mnist, namespace: default}
        spec:
          pytorchReplicaSpecs:
            Master:
              replicas: 1
              template:
                spec:
                  containers: [{name: pytorch, image: pytorch/pytorch:2.3, command: [python, train.py]}]
            Worker:
              replicas: 2
              template:
                spec:
                  containers: [{name: pytorch, image: pytorch/pytorch:2.3, command: [python, train.py]}]
        """;
    var parsed = reader.read(bytes(doc));
    assertThat(parsed.job().apiVersion()).isEqualTo("trainyard.io/v1");
    assertThat(parsed.job().spec().replicas())
        .containsEntry("master", 1)
        .containsEntry("worker", 2);
    assertThat(parsed.warnings()).anyMatch(w -> w.startsWith("metadata.namespace"));
  }

  @Test
  void anMpiOperatorV2MpiJobIsReadWithItsMpiSettings() {
    var doc =
        """
        apiVersion: kubeflow.org/v2beta1
        kind: MPIJob
        metadata: {name: ring}
        spec:
          slotsPerWorker: 2
          mpiImplementation: Intel
          runPolicy: {cleanPodPolicy: Running, suspend: false}
          mpiReplicaSpecs:
            Launcher:
              replicas: 1
              template:
                spec:
                  containers: [{name: l, image: mpi:1, command: [mpirun, -n, "4", ring]}]
            Worker:
              replicas: 2
              template:
                spec:
                  containers: [{name: w, image: mpi:1, command: [/usr/sbin/sshd, -De]}]
        """;
    var parsed = reader.read(bytes(doc));
    assertThat(parsed.job().spec().processesPerReplica()).isEqualTo(2);
    assertThat(parsed.job().spec().kubernetes().mpi().implementation()).isEqualTo("Intel");
    assertThat(parsed.warnings()).anyMatch(w -> w.startsWith("spec.runPolicy.suspend"));
  }

  @Test
  void whatAKubeflowDocumentCannotCarryIsRefusedByItsPath() {
    var doc =
        """
        apiVersion: kubeflow.org/v1
        kind: TFJob
        metadata: {name: tf}
        spec:
          tfReplicaSpecs:
            PS:
              replicas: 1
              template:
                spec:
                  containers:
                    - name: tensorflow
                      image: tf:2
                      lifecycle: {preStop: {exec: {command: [sleep, "5"]}}}
        """;
    assertThatThrownBy(() -> reader.read(bytes(doc)))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> {
              assertThat(e.code()).isEqualTo(ErrorCode.INVALID_SPEC);
              assertThat(e.errors())
                  .extracting(f -> f.field())
                  .contains("spec.tfReplicaSpecs.PS.template.spec.containers[0].lifecycle");
            });
  }

  @Test
  void theSpecHashIgnoresKeyOrderAndFormatting() {
    var a = reader.read(bytes(VALID)).job();
    var reordered =
        """
        {"spec": {"replicas": {"worker": 1, "master": 1}, "command": ["python3", "train.py"],
                  "image": "python:3.11", "framework": "pytorch"},
         "metadata": {"name": "demo"}, "kind": "TrainingJob", "apiVersion": "trainyard.io/v1"}
        """;
    var b = reader.read(bytes(reordered)).job();
    assertThat(CanonicalJson.sha256(a)).isEqualTo(CanonicalJson.sha256(b)).hasSize(64);
    var c = reader.read(bytes(VALID.replace("worker: 1", "worker: 2"))).job();
    assertThat(CanonicalJson.sha256(c)).isNotEqualTo(CanonicalJson.sha256(a));
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
