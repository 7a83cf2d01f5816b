package io.trainyard.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.auth.DevIssuer;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.testing.DevApp;
import io.trainyard.gateway.testing.GatewayClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Model metrics end to end on the embedded default (H2, dev auth, the local backend unsandboxed so
 * its replicas reach the gateway on loopback): the example posts its loss with the URL and token it
 * got, a token posts for its own job only and not after the job ended, log lines become metrics
 * when the logs are followed, and runs compare side by side.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class MetricsGatewayIT {
  private static final Path DIR = GatewayClient.tempDir("trainyard-metrics");
  private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
  private static final ObjectMapper JSON = new ObjectMapper();

  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      DevApp.onFreePorts(DIR, config());

  private static GatewayClient client;
  private static String alice;
  private static String bob;

  @BeforeAll
  static void tokens() {
    client = new GatewayClient(APP.getLocalPort());
    var issuer = DevIssuer.loadOrCreate(DIR, AuthConfig.DEV_ISSUER);
    alice = issuer.mint("alice", Set.of("nlp"), Set.of("trainer"), Duration.ofHours(1));
    bob = issuer.mint("bob", Set.of("vision"), Set.of("trainer"), Duration.ofHours(1));
  }

  @Test
  void theExamplePostsItsLossPerEpochWithTheEnvironmentItGot() throws Exception {
    var yaml = Files.readString(REPO.resolve("examples/linear-regression.yaml"));
    var submitted = client.post("/v1/jobs", alice, "application/yaml", yaml);
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
    var id = submitted.json().get("id").asText();

    var job = client.awaitEnd(id, alice);
    assertThat(job.get("state").asText()).as(job.toString()).isEqualTo("SUCCEEDED");

    var metrics = client.get("/v1/jobs/" + id + "/metrics", alice);
    assertThat(metrics.status()).as(metrics.body()).isEqualTo(200);
    var loss = series(metrics.json(), "loss");
    assertThat(loss.get("points")).hasSize(20);
    assertThat(loss.get("goal").asText()).isEqualTo("min");
    assertThat(loss.get("last").get("epoch").asLong()).isEqualTo(20);
    // Gradient descent on a convex loss: the last epoch is the best.
    assertThat(loss.get("best").get("value").asDouble())
        .isEqualTo(loss.get("last").get("value").asDouble());
    assertThat(loss.get("points").get(0).get("value").asDouble())
        .isGreaterThan(loss.get("last").get("value").asDouble());
    // Posted, not printed: the job had its URL and token, and neither shows in its logs.
    var logs = client.get("/v1/jobs/" + id + "/logs", alice).body();
    assertThat(logs).contains("epoch 20 loss").doesNotContain("trainyard-metric");
    assertThat(logs).doesNotContain("tym_").doesNotContain("metrics post failed");
    assertThat(client.get("/v1/jobs/" + id + "/events", alice).body()).doesNotContain("tym_");
    // Another team cannot read them.
    assertThat(client.get("/v1/jobs/" + id + "/metrics", bob).status()).isEqualTo(404);
  }

  @Test
  void aTokenPostsForItsOwnLiveJobOnly() throws Exception {
    var a = submit(sleeper("metrics-a"));
    var b = submit(sleeper("metrics-b"));
    client.awaitState(a, "RUNNING", alice);
    client.awaitState(b, "RUNNING", alice);
    var env = gatewayEnv(a);
    assertThat(env.get("TRAINYARD_METRICS_URL"))
        .isEqualTo("http://127.0.0.1:" + APP.getLocalPort() + "/v1/jobs/" + a + "/metrics");
    var tokenA = env.get("TRAINYARD_METRICS_TOKEN");
    assertThat(tokenA).startsWith("tym_").hasSizeGreaterThanOrEqualTo(4 + 43);
    var tokenB = gatewayEnv(b).get("TRAINYARD_METRICS_TOKEN");

    var batch =
        """
        [{"name": "accuracy", "value": 0.5, "step": 10, "epoch": 1},
         {"name": "accuracy", "value": 0.75, "step": 20, "epoch": 2, "time": "2026-11-30T10:00:00Z"},
         {"name": "loss", "value": 0.9, "step": 10, "epoch": 1}]
        """;
    var posted = client.post("/v1/jobs/" + a + "/metrics", tokenA, "application/json", batch);
    assertThat(posted.status()).as(posted.body()).isEqualTo(200);
    assertThat(posted.json().get("stored").asInt()).isEqualTo(3);
    // The same points again are known already: stored once.
    var again = client.post("/v1/jobs/" + a + "/metrics", tokenA, "application/json", batch);
    assertThat(again.json().get("stored").asInt()).isZero();

    // Another job's token, a made-up one, none, or an OIDC token: refused, nothing stored.
    var foreign = client.post("/v1/jobs/" + a + "/metrics", tokenB, "application/json", batch);
    assertThat(foreign.status()).isEqualTo(403);
    assertThat(foreign.json().get("errors").get(0).get("field").asText())
        .isEqualTo("Authorization");
    var madeUp = "tym_" + "A".repeat(43);
    assertThat(
            client.post("/v1/jobs/" + b + "/metrics", madeUp, "application/json", batch).status())
        .isEqualTo(401);
    assertThat(client.post("/v1/jobs/" + b + "/metrics", null, "application/json", batch).status())
        .isEqualTo(401);
    assertThat(client.post("/v1/jobs/" + b + "/metrics", alice, "application/json", batch).status())
        .isEqualTo(401);
    assertThat(client.get("/v1/jobs/" + b + "/metrics", alice).json().get("metrics")).isEmpty();

    // Bounds: each refusal names the field, and a batch with one bad point stores nothing.
    var bad =
        client.post(
            "/v1/jobs/" + b + "/metrics",
            tokenB,
            "application/json",
            "[{\"name\": \"loss\", \"value\": 1, \"step\": 1}, {\"name\": \"loss\", \"value\": 1e300,"
                + " \"step\": 2}]");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.json().get("errors").get(0).get("field").asText()).isEqualTo("[1].value");
    var noStep =
        client.post(
            "/v1/jobs/" + b + "/metrics",
            tokenB,
            "application/json",
            "[{\"name\": \"bad name!\", \"value\": 1}]");
    assertThat(noStep.status()).isEqualTo(400);
    assertThat(noStep.body()).contains("[0].name").contains("[0].step");
    var tooMany = new StringBuilder("[");
    for (int i = 0; i <= 1000; i++) {
      tooMany
          .append(i == 0 ? "" : ",")
          .append("{\"name\":\"l\",\"value\":1,\"step\":")
          .append(i)
          .append('}');
    }
    assertThat(
            client
                .post("/v1/jobs/" + b + "/metrics", tokenB, "application/json", tooMany + "]")
                .status())
        .isEqualTo(413);
    assertThat(client.get("/v1/jobs/" + b + "/metrics", alice).json().get("metrics")).isEmpty();

    // Read back: per name, the series, the last and the best.
    var read = client.get("/v1/jobs/" + a + "/metrics", alice).json();
    var accuracy = series(read, "accuracy");
    assertThat(accuracy.get("goal").asText()).isEqualTo("max");
    assertThat(accuracy.get("points")).hasSize(2);
    assertThat(accuracy.get("best").get("value").asDouble()).isEqualTo(0.75);
    assertThat(accuracy.get("points").get(1).get("time").asText())
        .isEqualTo("2026-11-30T10:00:00Z");
    var minAccuracy = client.get("/v1/jobs/" + a + "/metrics?name=accuracy&goal=min", alice).json();
    assertThat(minAccuracy.get("metrics")).hasSize(1);
    assertThat(series(minAccuracy, "accuracy").get("best").get("value").asDouble()).isEqualTo(0.5);
    assertThat(client.get("/v1/jobs/" + a + "/metrics?goal=up", alice).status()).isEqualTo(400);

    // Side by side, only runs the caller may read.
    client.post(
        "/v1/jobs/" + b + "/metrics",
        tokenB,
        "application/json",
        "[{\"name\": \"loss\", \"value\": 0.4, \"epoch\": 1}]");
    var compare = client.get("/v1/metrics/compare?jobs=" + a + "," + b + "&name=loss", alice);
    assertThat(compare.status()).as(compare.body()).isEqualTo(200);
    assertThat(compare.json().get("runs")).hasSize(2);
    assertThat(compare.json().get("runs").get(0).get("jobId").asText()).isEqualTo(a);
    assertThat(compare.json().get("runs").get(1).get("series").get("best").get("value").asDouble())
        .isEqualTo(0.4);
    var hidden = client.get("/v1/metrics/compare?jobs=" + a + "&name=loss", bob);
    assertThat(hidden.status()).isEqualTo(404);
    assertThat(hidden.json().get("errors").get(0).get("field").asText()).isEqualTo("jobs");
    assertThat(client.get("/v1/metrics/compare?jobs=" + a, alice).status()).isEqualTo(400);

    // Once the job has ended its token is refused.
    client.delete("/v1/jobs/" + a, alice);
    client.delete("/v1/jobs/" + b, alice);
    client.awaitEnd(a, alice);
    client.awaitEnd(b, alice);
    var late =
        client.post(
            "/v1/jobs/" + a + "/metrics", tokenA, "application/json", batch.replace("10", "11"));
    assertThat(late.status()).isEqualTo(403);
    assertThat(late.body()).contains("expired");
  }

  @Test
  void metricLinesAreReadFromFollowedLogsOnce() {
    var spec =
        """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: printed-metrics}
        spec:
          framework: pytorch
          image: python:3.11-slim
          command: [python3, -c, "for e in (1, 2, 3): print(f'trainyard-metric name=val_loss value={1.0/e} epoch={e}', flush=True)"]
          replicas: {master: 1}
        """;
    var id = submit(spec);
    var followed = client.get("/v1/jobs/" + id + "/logs?follow=true", alice);
    assertThat(followed.body()).contains("trainyard-metric name=val_loss value=0.5 epoch=2");
    client.awaitEnd(id, alice);
    // Read again: the same lines are the same points.
    client.get("/v1/jobs/" + id + "/logs", alice);
    var loss = series(client.get("/v1/jobs/" + id + "/metrics", alice).json(), "val_loss");
    assertThat(loss.get("points")).hasSize(3);
    assertThat(loss.get("best").get("epoch").asLong()).isEqualTo(3);
    assertThat(loss.get("last").get("value").asDouble()).isEqualTo(1.0 / 3);
  }

  private static JsonNode series(JsonNode answer, String name) {
    for (var s : answer.get("metrics")) {
      if (s.get("name").asText().equals(name)) {
        return s;
      }
    }
    throw new AssertionError("no series " + name + " in " + answer);
  }

  private static String submit(String yaml) {
    var answer = client.post("/v1/jobs", alice, "application/yaml", yaml);
    assertThat(answer.status()).as(answer.body()).isEqualTo(201);
    return answer.json().get("id").asText();
  }

  /** What the local backend keeps for the attempt's replicas (the gateway-only attempt dir). */
  @SuppressWarnings("unchecked")
  private static Map<String, String> gatewayEnv(String id) throws IOException {
    try (var files = Files.walk(DIR)) {
      var file =
          files
              .filter(f -> f.getFileName().toString().equals("gateway-env.json"))
              .filter(f -> f.getParent().getFileName().toString().startsWith("ty-" + id))
              .findFirst()
              .orElseThrow(() -> new AssertionError("no gateway env for " + id));
      return JSON.readValue(file.toFile(), Map.class);
    }
  }

  static String sleeper(String name) {
    return """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: %s}
        spec:
          framework: pytorch
          image: python:3.11-slim
          command: [sleep, "60"]
          replicas: {master: 1}
        """
        .formatted(name);
  }

  private static String config() {
    return """
        dataDir: %s
        database:
          url: "jdbc:h2:file:%s/db;DB_CLOSE_ON_EXIT=FALSE"
        auth:
          mode: dev
        reconciler:
          resyncInterval: 200ms
        server:
          applicationConnectors: [{type: http, port: 0, bindHost: 127.0.0.1}]
          adminConnectors: [{type: http, port: 0}]
        backends:
          - type: local
            codeDir: %s
            sandbox: none
        """
        .formatted(DIR, DIR, REPO);
  }
}
