package io.trainyard.gateway.algorithms;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import io.trainyard.gateway.jobs.CanonicalJson;
import io.trainyard.gateway.jobs.SpecReader;
import io.trainyard.spi.spec.FieldError;
import io.trainyard.spi.spec.Framework;
import io.trainyard.spi.spec.Resources;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Merging a version under a job's own fields, and checking hyperparameters against the schema. */
class AlgorithmResolverTest {
  private static final Instant T0 = Instant.parse("2030-01-01T00:00:00Z");

  private final Map<String, Algorithm> algorithms = new HashMap<>();
  private final Map<String, AlgorithmVersion> versions = new HashMap<>();
  private final AlgorithmResolver resolver =
      new AlgorithmResolver(
          new AlgorithmResolver.Catalog() {
            @Override
            public Optional<Algorithm> find(String team, String name) {
              return Optional.ofNullable(algorithms.get(team + "/" + name));
            }

            @Override
            public Optional<AlgorithmVersion> version(String team, String name, int version) {
              return Optional.ofNullable(versions.get(team + "/" + name + "@" + version));
            }
          });
  private final SpecReader reader = new SpecReader(1 << 16);

  static final List<HyperparameterSpec> SCHEMA =
      List.of(
          new HyperparameterSpec(
              "lr",
              HyperparameterType.FLOAT,
              0.001,
              BigDecimal.ZERO,
              BigDecimal.ONE,
              null,
              null,
              null),
          new HyperparameterSpec(
              "epochs",
              HyperparameterType.INT,
              3,
              BigDecimal.ONE,
              new BigDecimal(100),
              null,
              null,
              null),
          new HyperparameterSpec(
              "optimizer",
              HyperparameterType.ENUM,
              "adamw",
              null,
              null,
              List.of("adamw", "sgd"),
              null,
              null),
          new HyperparameterSpec(
              "fp16", HyperparameterType.BOOL, null, null, null, null, null, null),
          new HyperparameterSpec(
              "dataset", HyperparameterType.STRING, null, null, null, null, true, null));

  AlgorithmResolverTest() {
    register("nlp", "bert", Visibility.TEAM, 2);
    publish("nlp", "bert", 1, "registry.example.com/bert:1", VersionStatus.ACTIVE);
    publish("nlp", "bert", 2, "registry.example.com/bert:2", VersionStatus.ACTIVE);
    publish("nlp", "bert", 3, "registry.example.com/bert:3", VersionStatus.DEPRECATED);
    publish("nlp", "bert", 4, "registry.example.com/bert:4", VersionStatus.WITHDRAWN);
    register("shared", "resnet", Visibility.EVERYONE, 1);
    publish("shared", "resnet", 1, "registry.example.com/resnet:1", VersionStatus.ACTIVE);
  }

  @Test
  void theVersionsFieldsAreDefaultsAndHyperparametersBecomeArgumentsInSchemaOrder() {
    var resolved =
        resolve(
            "nlp",
            """
            spec:
              algorithm: bert
              hyperparameters: {dataset: imdb, lr: 3e-5, fp16: true}
            """);

    var spec = resolved.job().spec();
    assertThat(spec.algorithm()).isEqualTo("nlp/bert@2");
    assertThat(spec.framework()).isEqualTo(Framework.PYTORCH);
    assertThat(spec.image()).isEqualTo("registry.example.com/bert:2");
    assertThat(spec.command()).containsExactly("python", "train.py");
    assertThat(spec.args())
        .containsExactly(
            "--log=info",
            "--lr=3.0E-5",
            "--epochs=3",
            "--optimizer=adamw",
            "--fp16=true",
            "--dataset=imdb");
    assertThat(spec.hyperparameters())
        .containsExactly(
            Map.entry("lr", 3.0e-5),
            Map.entry("epochs", 3L),
            Map.entry("optimizer", "adamw"),
            Map.entry("fp16", true),
            Map.entry("dataset", "imdb"));
    assertThat(spec.env()).containsEntry("TOKENIZERS_PARALLELISM", "false");
    assertThat(spec.replicas()).containsEntry("master", 1).containsEntry("worker", 1);
    assertThat(resolved.warnings()).isEmpty();
  }

  @Test
  void theJobsOwnFieldsOverrideTheVersions() {
    var resolved =
        resolve(
            "nlp",
            """
            spec:
              algorithm: nlp/bert@1
              image: registry.example.com/bert:patched
              args: [--log=debug]
              env: {TOKENIZERS_PARALLELISM: "true", EXTRA: "1"}
              resources: {gpus: 2}
              replicas: {master: 1}
              hyperparameters: {dataset: imdb, epochs: 10}
            """);

    var spec = resolved.job().spec();
    assertThat(spec.algorithm()).isEqualTo("nlp/bert@1");
    assertThat(spec.image()).isEqualTo("registry.example.com/bert:patched");
    assertThat(spec.args()).startsWith("--log=debug").contains("--epochs=10");
    assertThat(spec.env())
        .containsEntry("TOKENIZERS_PARALLELISM", "true")
        .containsEntry("EXTRA", "1");
    assertThat(spec.resources()).isEqualTo(new Resources(2, null, 4.0, "8Gi"));
    assertThat(spec.replicas()).containsOnlyKeys("master");
  }

  @Test
  void theStoredJobNamesTheVersionForeverAndReadsBackTheSame() {
    var resolved = resolve("nlp", "spec: {algorithm: bert@default, hyperparameters: {dataset: x}}");
    algorithms.put("nlp/bert", algorithm("nlp", "bert", Visibility.TEAM, 1));

    assertThat(resolved.job().spec().algorithm()).isEqualTo("nlp/bert@2");
    var again = resolver.resolve(resolved.job(), "nlp");
    assertThat(again.job().spec().image()).isEqualTo("registry.example.com/bert:2");
    assertThat(CanonicalJson.write(again.job().spec().hyperparameters()))
        .isEqualTo(CanonicalJson.write(resolved.job().spec().hyperparameters()));
  }

  @Test
  void hyperparametersOutsideTheSchemaOfTheWrongTypeOrOutOfRangeAreNamed() {
    assertThat(
            errors(
                "nlp",
                """
                spec:
                  algorithm: bert
                  hyperparameters: {lr: 2, epochs: 1.5, optimizer: adam, fp16: maybe, momentum: 0.9}
                """))
        .containsExactlyInAnyOrder(
            "spec.hyperparameters.momentum",
            "spec.hyperparameters.lr",
            "spec.hyperparameters.epochs",
            "spec.hyperparameters.optimizer",
            "spec.hyperparameters.fp16",
            "spec.hyperparameters.dataset");
    var e = thrown("nlp", "spec: {algorithm: bert, hyperparameters: {dataset: x, epochs: 0}}");
    assertThat(e.errors())
        .containsExactly(
            new FieldError("spec.hyperparameters.epochs", "must be at least 1, not 0"));
    assertThat(e.code()).isEqualTo(ErrorCode.INVALID_SPEC);
  }

  @Test
  void anotherTeamsPrivateAlgorithmAnswersAsAnUnknownOne() {
    var privateOne = thrown("vision", "spec: {algorithm: nlp/bert}");
    var unknown = thrown("vision", "spec: {algorithm: nlp/no-such}");

    assertThat(privateOne.errors().get(0).field()).isEqualTo("spec.algorithm");
    assertThat(privateOne.getMessage()).isEqualTo(unknown.getMessage().replace("no-such", "bert"));
    assertThat(
            resolve("vision", "spec: {algorithm: shared/resnet, hyperparameters: {dataset: x}}")
                .job()
                .spec()
                .image())
        .isEqualTo("registry.example.com/resnet:1");
  }

  @Test
  void deprecatedVersionsRunWithAWarningAndWithdrawnOnesAreRefused() {
    var deprecated = resolve("nlp", "spec: {algorithm: bert@3, hyperparameters: {dataset: x}}");
    assertThat(deprecated.warnings()).singleElement().asString().contains("deprecated");

    var withdrawn = thrown("nlp", "spec: {algorithm: bert@4, hyperparameters: {dataset: x}}");
    assertThat(withdrawn.errors().get(0).field()).isEqualTo("spec.algorithm");
    assertThat(withdrawn.getMessage()).contains("nlp/bert@4 is withdrawn");
    assertThat(thrown("nlp", "spec: {algorithm: bert@9}").getMessage())
        .contains("has no version 9");
  }

  @Test
  void aJobByAlgorithmPassesTheReadersValidationOnlyOnceExpanded() {
    var yaml =
        """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: by-algorithm}
        spec:
          algorithm: bert
          hyperparameters: {dataset: imdb}
        """
            .getBytes(StandardCharsets.UTF_8);

    var parsed =
        reader.read(
            yaml,
            job -> {
              var r = resolver.resolve(job, "nlp");
              return new SpecReader.ParsedJob(r.job(), r.warnings());
            });

    assertThat(parsed.job().spec().image()).isEqualTo("registry.example.com/bert:2");
    assertThatThrownBy(() -> reader.read(yaml))
        .isInstanceOfSatisfying(
            ApiException.class,
            e -> assertThat(e.errors()).extracting(FieldError::field).contains("spec.framework"));
  }

  @Test
  void definitionsAreCheckedBeforeTheyArePublished() {
    var check = new AlgorithmDefinitionCheck();
    var bad =
        new AlgorithmDefinition(
            Framework.PYTORCH,
            "img",
            null,
            null,
            Map.of("1BAD", "x"),
            null,
            Map.of("chief", 1),
            List.of(
                new HyperparameterSpec(
                    "lr", HyperparameterType.FLOAT, "fast", null, null, null, null, null),
                new HyperparameterSpec(
                    "lr", HyperparameterType.ENUM, null, null, null, null, null, null),
                new HyperparameterSpec(
                    "--x",
                    HyperparameterType.STRING,
                    null,
                    BigDecimal.ONE,
                    null,
                    null,
                    null,
                    null)),
            null);

    assertThat(check.errors(bad))
        .extracting(FieldError::field)
        .contains(
            "env.1BAD",
            "replicas.chief",
            "hyperparameters[0].default",
            "hyperparameters[1].name",
            "hyperparameters[1].values",
            "hyperparameters[2].name",
            "hyperparameters[2]");
    assertThat(check.errors(definition("img"))).isEmpty();
    var nul =
        new AlgorithmDefinition(
            Framework.PYTORCH, "img", null, null, null, null, null, null, "a\u0000b");
    assertThat(check.errors(nul)).extracting(FieldError::field).containsExactly("description");
    // Bounds written as strings skip the reader's number limits: 1e999999999 was spelled out as a
    // billion digits in the error.
    var huge =
        new AlgorithmDefinition(
            Framework.PYTORCH,
            "img",
            null,
            null,
            null,
            null,
            null,
            List.of(
                new HyperparameterSpec(
                    "steps",
                    HyperparameterType.INT,
                    null,
                    new BigDecimal("1e999999999"),
                    new BigDecimal("-1e-999999999"),
                    null,
                    null,
                    null)),
            null);
    assertThat(check.errors(huge))
        .extracting(FieldError::field)
        .contains("hyperparameters[0].min", "hyperparameters[0].max");
  }

  @Test
  void aHyperparameterValueBeyondTheNumberLimitsIsRefusedWithoutSpellingItOut() {
    var e =
        thrown(
            "nlp",
            "spec: {algorithm: bert, hyperparameters: {dataset: x, epochs: \"1e999999999\"}}");
    assertThat(e.errors())
        .singleElement()
        .satisfies(
            error -> {
              assertThat(error.field()).isEqualTo("spec.hyperparameters.epochs");
              assertThat(error.message()).startsWith("is out of range");
            });
  }

  private AlgorithmResolver.Resolved resolve(String team, String yaml) {
    return resolver.resolve(job(yaml), team);
  }

  private ApiException thrown(String team, String yaml) {
    try {
      resolve(team, yaml);
    } catch (ApiException e) {
      return e;
    }
    throw new AssertionError("expected a refusal");
  }

  private List<String> errors(String team, String yaml) {
    return thrown(team, yaml).errors().stream().map(FieldError::field).toList();
  }

  private static io.trainyard.spi.spec.TrainingJob job(String yaml) {
    try {
      var mapper =
          new com.fasterxml.jackson.databind.ObjectMapper(
              new com.fasterxml.jackson.dataformat.yaml.YAMLFactory());
      return mapper.readValue(
          "apiVersion: trainyard.io/v1\nkind: TrainingJob\nmetadata: {name: j}\n" + yaml,
          io.trainyard.spi.spec.TrainingJob.class);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private void register(String team, String name, Visibility visibility, int defaultVersion) {
    algorithms.put(team + "/" + name, algorithm(team, name, visibility, defaultVersion));
  }

  private static Algorithm algorithm(
      String team, String name, Visibility visibility, int defaultVersion) {
    return new Algorithm(team, name, null, visibility, defaultVersion, "alice", T0, T0);
  }

  private void publish(String team, String name, int v, String image, VersionStatus status) {
    var d = definition(image);
    versions.put(
        team + "/" + name + "@" + v,
        new AlgorithmVersion(team, name, v, d, CanonicalJson.sha256(d), status, "alice", T0));
  }

  static AlgorithmDefinition definition(String image) {
    return new AlgorithmDefinition(
        Framework.PYTORCH,
        image,
        List.of("python", "train.py"),
        List.of("--log=info"),
        Map.of("TOKENIZERS_PARALLELISM", "false"),
        new Resources(null, null, 4.0, "8Gi"),
        Map.of("master", 1, "worker", 1),
        SCHEMA,
        "BERT fine-tuning");
  }
}
