package io.trainyard.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.trainyard.auth.DevIssuer;
import io.trainyard.backend.kubernetes.CrudApiServer;
import io.trainyard.backend.kubernetes.FakeTrainingOperator;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.testing.DevApp;
import io.trainyard.gateway.testing.GatewayClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The algorithm registry through the real gateway: teams register and publish their training code
 * themselves, and a job that names it runs on {@code local} (team nlp) to SUCCEEDED with its
 * hyperparameters as arguments, and on a Kubernetes cluster (fabric8's API server in CRUD mode,
 * team llm) as a PyTorchJob carrying the merged image, command and arguments.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class AlgorithmsGatewayIT {
  private static final Path DIR = GatewayClient.tempDir("trainyard-algorithms");
  private static final CrudApiServer CLUSTER = new CrudApiServer();
  private static final FakeTrainingOperator OPERATOR =
      new FakeTrainingOperator(CLUSTER.client(), Clock.systemUTC());
  private static final ObjectMapper JSON = new ObjectMapper();

  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      DevApp.onFreePorts(DIR, config());

  /** Prints its arguments: what the training code would parse. */
  private static final String ECHO_ALGORITHM =
      """
      name: echo-train
      description: prints the hyperparameters it is given
      framework: pytorch
      image: python:3.11-slim
      command: [bash, -c, 'echo "train-args: $*"', train]
      args: [--data=/data]
      replicas: {master: 1}
      hyperparameters:
        - {name: lr, type: float, default: 0.001, min: 0, max: 1}
        - {name: epochs, type: int, default: 2, min: 1, max: 50}
        - {name: optimizer, type: enum, values: [adamw, sgd], default: adamw}
      """;

  private static GatewayClient client;
  private static String alice; // trainer, nlp
  private static String adam; // team-admin, nlp
  private static String vic; // trainer, vision
  private static String lee; // trainer, llm

  @BeforeAll
  static void tokens() {
    client = new GatewayClient(APP.getLocalPort());
    var issuer = DevIssuer.loadOrCreate(DIR, AuthConfig.DEV_ISSUER);
    alice = issuer.mint("alice", Set.of("nlp"), Set.of("trainer"), Duration.ofHours(1));
    adam = issuer.mint("adam", Set.of("nlp"), Set.of("team-admin"), Duration.ofHours(1));
    vic = issuer.mint("vic", Set.of("vision"), Set.of("trainer"), Duration.ofHours(1));
    lee = issuer.mint("lee", Set.of("llm"), Set.of("trainer"), Duration.ofHours(1));
  }

  @AfterAll
  static void stop() {
    CLUSTER.close();
  }

  @Test
  void aJobByAlgorithmRunsLocallyToSucceededWithItsHyperparametersAsArguments() {
    assertThat(client.post("/v1/algorithms", alice, "application/yaml", ECHO_ALGORITHM).status())
        .isEqualTo(201);

    var job =
        """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: echo-run}
        spec:
          algorithm: echo-train
          hyperparameters: {lr: 3e-5, optimizer: sgd}
        """;
    var quote = client.post("/v1/quotes", alice, "application/yaml", job);
    assertThat(quote.status()).as(quote.body()).isEqualTo(200);
    var submitted = client.post("/v1/jobs", alice, "application/yaml", job);
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
    var id = submitted.json().get("id").asText();
    var ended = client.awaitEnd(id, alice);
    var logs = client.get("/v1/jobs/" + id + "/logs", alice).body();

    assertThat(ended.get("state").asText()).as(logs).isEqualTo("SUCCEEDED");
    assertThat(logs).contains("train-args: --data=/data --lr=3.0E-5 --epochs=2 --optimizer=sgd");
    assertThat(ended.get("algorithm").asText()).isEqualTo("nlp/echo-train@1");
  }

  @Test
  void aJobByAlgorithmReachesKubernetesWithTheMergedImageCommandAndArguments() throws IOException {
    var definition =
        """
        name: llm/sft
        framework: pytorch
        image: registry.example.com/sft:1
        command: [torchrun, sft.py]
        replicas: {master: 1, worker: 2}
        resources: {cpus: 2, memory: 4Gi}
        hyperparameters:
          - {name: lr, type: float, default: 0.0001}
          - {name: model, type: string, required: true}
        """;
    assertThat(client.post("/v1/algorithms", lee, "application/yaml", definition).status())
        .isEqualTo(201);
    var v2 = definition.replace("name: llm/sft\n", "").replace("sft:1", "sft:2");
    assertThat(put("/v1/algorithms/llm/sft/versions/2", lee, v2).status()).isEqualTo(201);

    var job =
        """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: sft-run}
        spec:
          algorithm: sft@2
          image: registry.example.com/sft:2-hotfix
          hyperparameters: {model: llama-3-8b}
        """;
    var submitted = client.post("/v1/jobs", lee, "application/yaml", job);
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
    var stored = client.awaitState(submitted.json().get("id").asText(), "SUBMITTED", lee);
    var at = FakeTrainingOperator.pytorchJob("llm-jobs", stored.get("objectName").asText());
    var object = JSON.readTree(Serialization.asJson(OPERATOR.get(at)));

    var worker = object.at("/spec/pytorchReplicaSpecs/Worker");
    assertThat(worker.get("replicas").asInt()).isEqualTo(2);
    var container = worker.at("/template/spec/containers/0");
    assertThat(container.get("image").asText()).isEqualTo("registry.example.com/sft:2-hotfix");
    assertThat(container.get("command").toString()).isEqualTo("[\"torchrun\",\"sft.py\"]");
    assertThat(container.get("args").toString())
        .isEqualTo("[\"--lr=1.0E-4\",\"--model=llama-3-8b\"]");
    assertThat(stored.get("algorithm").asText()).isEqualTo("llm/sft@2");
  }

  @Test
  void publishedVersionsNeverChangeAndTheDefaultMovesOnlyForLaterJobs() {
    var definition =
        """
        name: nlp/bert
        framework: pytorch
        image: registry.example.com/bert:1
        command: [python, train.py]
        replicas: {master: 1}
        """;
    assertThat(client.post("/v1/algorithms", alice, "application/yaml", definition).status())
        .isEqualTo(201);
    var again = client.post("/v1/algorithms", alice, "application/yaml", definition);
    assertThat(again.status()).isEqualTo(409);
    assertThat(field(again)).isEqualTo("name");

    // The file that created it is published again as is, its name matching the path.
    var v2 = definition.replace("bert:1", "bert:2");
    var misnamed = put("/v1/algorithms/nlp/bert/versions/2", alice, v2.replace("nlp/bert", "gpt"));
    assertThat(misnamed.status()).isEqualTo(422);
    assertThat(field(misnamed)).isEqualTo("name");
    assertThat(put("/v1/algorithms/nlp/bert/versions/2", alice, v2).status()).isEqualTo(201);
    assertThat(put("/v1/algorithms/nlp/bert/versions/2", alice, v2).status()).isEqualTo(200);
    var changed = put("/v1/algorithms/nlp/bert/versions/2", alice, v2.replace("bert:2", "bert:x"));
    assertThat(changed.status()).isEqualTo(409);
    assertThat(changed.json().get("code").asText()).isEqualTo("CONFLICT");
    assertThat(field(changed)).isEqualTo("version");

    var first = quoteSpec(alice, "algorithm: bert");
    var keyed = job("bert-k", "bert");
    var once = client.post("/v1/jobs", alice, "application/yaml", keyed, "Idempotency-Key", "k-1");
    assertThat(once.status()).as(once.body()).isEqualTo(201);
    var moved =
        client.post(
            "/v1/algorithms/nlp/bert/default", alice, "application/json", "{\"version\": 2}");
    assertThat(moved.status()).as(moved.body()).isEqualTo(200);
    assertThat(moved.json().get("defaultVersion").asInt()).isEqualTo(2);
    var shown = client.get("/v1/algorithms/nlp/bert", alice).json();
    assertThat(shown.get("versions")).hasSize(2);
    assertThat(shown.at("/versions/1/isDefault").asBoolean()).isTrue();
    assertThat(first.status()).isEqualTo(200);

    var submitted = client.post("/v1/jobs", alice, "application/yaml", job("bert-1", "bert@1"));
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
    var stored = client.get("/v1/jobs/" + submitted.json().get("id").asText(), alice).json();
    assertThat(stored.get("algorithm").asText()).isEqualTo("nlp/bert@1");
    var defaulted = client.post("/v1/jobs", alice, "application/yaml", job("bert-d", "bert"));
    assertThat(defaulted.json().get("algorithm").asText()).isEqualTo("nlp/bert@2");
    // The same document with the same key answers the job stored first, though the default moved.
    var replay =
        client.post("/v1/jobs", alice, "application/yaml", keyed, "Idempotency-Key", "k-1");
    assertThat(replay.status()).as(replay.body()).isIn(200, 201);
    assertThat(replay.json().get("id").asText()).isEqualTo(once.json().get("id").asText());
    assertThat(replay.json().get("algorithm").asText()).isEqualTo("nlp/bert@1");
  }

  @Test
  void rolesAndVisibilityDecideWhoSeesRunsAndChangesWhat() {
    var definition =
        """
        name: nlp/private-one
        framework: pytorch
        image: img:1
        command: [python, train.py]
        replicas: {master: 1}
        """;
    assertThat(client.post("/v1/algorithms", alice, "application/yaml", definition).status())
        .isEqualTo(201);
    var everyone = definition.replace("private-one", "public-one") + "visibility: everyone\n";
    var byTrainer = client.post("/v1/algorithms", alice, "application/yaml", everyone);
    assertThat(byTrainer.status()).isEqualTo(403);
    assertThat(field(byTrainer)).isEqualTo("visibility");
    assertThat(client.post("/v1/algorithms", adam, "application/yaml", everyone).status())
        .isEqualTo(201);

    // Another team: the private one does not exist for it, the public one does.
    assertThat(client.get("/v1/algorithms/nlp/private-one", vic).status()).isEqualTo(404);
    var list = client.get("/v1/algorithms", vic).json().get("algorithms").toString();
    assertThat(list).contains("nlp/public-one").doesNotContain("nlp/private-one");
    var hidden = client.post("/v1/jobs", vic, "application/yaml", job("p", "nlp/private-one"));
    var unknown = client.post("/v1/jobs", vic, "application/yaml", job("p", "nlp/no-such-one"));
    assertThat(hidden.status()).isEqualTo(422);
    assertThat(field(hidden)).isEqualTo("spec.algorithm");
    assertThat(hidden.json().get("message").asText())
        .isEqualTo(unknown.json().get("message").asText().replace("no-such-one", "private-one"));
    assertThat(quoteSpec(vic, "algorithm: nlp/public-one").status()).isEqualTo(200);
    var publish =
        put(
            "/v1/algorithms/nlp/public-one/versions/2",
            vic,
            definition.replace("name: nlp/private-one\n", ""));
    assertThat(publish.status()).isEqualTo(403);

    // Trainers may not deprecate, withdraw or share; team admins may.
    var status = "/v1/algorithms/nlp/private-one/versions/1/status";
    assertThat(
            client.post(status, alice, "application/json", "{\"status\":\"withdrawn\"}").status())
        .isEqualTo(403);
    assertThat(
            client.post(status, adam, "application/json", "{\"status\":\"deprecated\"}").status())
        .isEqualTo(200);
    var warned = quoteSpec(alice, "algorithm: private-one");
    assertThat(warned.json().get("warnings").toString()).contains("deprecated");
    assertThat(client.post(status, adam, "application/json", "{\"status\":\"withdrawn\"}").status())
        .isEqualTo(200);
    var refused = client.post("/v1/jobs", alice, "application/yaml", job("w", "private-one@1"));
    assertThat(refused.status()).isEqualTo(422);
    assertThat(field(refused)).isEqualTo("spec.algorithm");
    assertThat(refused.json().get("message").asText()).contains("withdrawn");

    var shared =
        client.post(
            "/v1/algorithms/nlp/private-one/visibility",
            adam,
            "application/json",
            "{\"visibility\":\"everyone\"}");
    assertThat(shared.status()).isEqualTo(200);
    assertThat(client.get("/v1/algorithms/nlp/private-one", vic).status()).isEqualTo(200);

    var audit = client.get("/v1/audit?limit=500", adminToken()).body();
    assertThat(audit)
        .contains("algorithm.create", "algorithm.status", "algorithm.visibility")
        .contains("algorithm/nlp/private-one")
        .contains("auth.denied");
  }

  @Test
  void hyperparametersTheSchemaRefusesAreNamed() {
    client.post(
        "/v1/algorithms",
        alice,
        "application/yaml",
        ECHO_ALGORITHM.replace("echo-train", "echo-schema"));
    var answer =
        client.post(
            "/v1/jobs",
            alice,
            "application/yaml",
            job("bad", "echo-schema") + "  hyperparameters: {lr: 7, momentum: 0.9}\n");

    assertThat(answer.status()).isEqualTo(422);
    assertThat(answer.json().get("errors").toString())
        .contains("spec.hyperparameters.lr", "spec.hyperparameters.momentum");
  }

  private static String adminToken() {
    return DevIssuer.loadOrCreate(DIR, AuthConfig.DEV_ISSUER)
        .mint("root", Set.of("nlp"), Set.of("platform-admin", "auditor"), Duration.ofHours(1));
  }

  private static String job(String name, String algorithm) {
    return """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: %s}
        spec:
          algorithm: %s
        """
        .formatted(name, algorithm);
  }

  private static GatewayClient.Answer quoteSpec(String token, String specLine) {
    return client.post(
        "/v1/quotes",
        token,
        "application/yaml",
        "apiVersion: trainyard.io/v1\nkind: TrainingJob\nmetadata: {name: q}\nspec:\n  "
            + specLine
            + "\n");
  }

  private static String field(GatewayClient.Answer answer) {
    JsonNode errors = answer.json().get("errors");
    return errors == null || errors.isEmpty() ? null : errors.get(0).get("field").asText();
  }

  private static GatewayClient.Answer put(String path, String token, String yaml) {
    try {
      var response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create("http://127.0.0.1:" + APP.getLocalPort() + path))
                      .header("Authorization", "Bearer " + token)
                      .header("Content-Type", "application/yaml")
                      .PUT(HttpRequest.BodyPublishers.ofString(yaml))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      return new GatewayClient.Answer(
          response.statusCode(), response.body(), response.headers().map());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String config() {
    var kubeconfig = CLUSTER.kubeconfig();
    try {
      Files.writeString(DIR.resolve("kubeconfig"), kubeconfig);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return """
        dataDir: %1$s
        auth: {mode: dev}
        reconciler: {resyncInterval: 200ms}
        server:
          applicationConnectors: [{type: http, port: 0, bindHost: 127.0.0.1}]
          adminConnectors: [{type: http, port: 0}]
        teams:
          nlp: {backends: [local]}
          vision: {backends: [local]}
          llm: {backends: [k8s], namespaces: {k8s: llm-jobs}}
        backends:
          - type: local
            id: local
            codeDir: %2$s
          - type: kubernetes
            id: k8s
            region: us-east-1
            kubeconfig: %3$s
            provider: aws
            flavor: kubeflow-v1
            nodePools:
              - {name: cpu, instanceType: m5.2xlarge, maxNodes: 20}
        """
        .formatted(DIR, DIR, DIR.resolve("kubeconfig"));
  }
}
