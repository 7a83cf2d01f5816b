package io.trainyard.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.auth.DevIssuer;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.testing.DevApp;
import io.trainyard.gateway.testing.GatewayClient;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The queue over HTTP on the embedded default (H2, the local backend with one job slot): a job that
 * cannot run now is stored QUEUED (a job that never could is still 422), {@code GET /v1/queue}
 * shows position, priority and why, and when the slot frees the queue runs in priority order.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class QueueGatewayIT {
  private static final Path DIR = GatewayClient.tempDir("trainyard-queue");
  private static final Path REPO = Path.of("..").toAbsolutePath().normalize();

  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      DevApp.onFreePorts(DIR, config());

  private static GatewayClient client;
  private static String alice;
  private static String bob;
  private static String admin;

  @BeforeAll
  static void tokens() {
    client = new GatewayClient(APP.getLocalPort());
    var issuer = DevIssuer.loadOrCreate(DIR, AuthConfig.DEV_ISSUER);
    alice = issuer.mint("alice", Set.of("nlp"), Set.of("trainer"), Duration.ofHours(1));
    bob = issuer.mint("bob", Set.of("vision"), Set.of("trainer"), Duration.ofHours(1));
    admin = issuer.mint("root", Set.of(), Set.of("platform-admin"), Duration.ofHours(1));
  }

  @Test
  void aFullBackendQueuesJobsWhichThenRunByPriorityAsTheSlotFrees() {
    var blocker = submit(sleeper("blocker", 60, null), 201);
    var blockerId = blocker.get("id").asText();
    await(blockerId, "RUNNING");

    var quote = client.post("/v1/quotes", alice, "application/yaml", sleeper("low", 0, 100));
    var local = quote.json().get("candidates").get(0);
    assertThat(local.get("rejectedKind").asText()).isEqualTo("not-now");
    assertThat(local.get("rejected").asText()).contains("no free job slot");

    var low = submit(sleeper("low", 0, 100), 201);
    var high = submit(sleeper("high", 0, 900), 201);
    assertThat(low.get("state").asText()).isEqualTo("QUEUED");
    assertThat(high.get("state").asText()).isEqualTo("QUEUED");
    var capped = client.post("/v1/quotes", alice, "application/yaml", sleeper("capped", 0, 1000));
    assertThat(capped.json().get("warnings").toString()).contains("maxPriority 950");

    // A job no backend could ever run is still refused, and stored nowhere.
    var gpu = client.post("/v1/jobs", alice, "application/yaml", gpuJob());
    assertThat(gpu.status()).as(gpu.body()).isEqualTo(422);
    assertThat(gpu.json().get("code").asText()).isEqualTo("NO_OFFER");

    var queue = client.get("/v1/queue", alice);
    assertThat(queue.status()).as(queue.body()).isEqualTo(200);
    var jobs = queue.json().get("jobs");
    assertThat(jobs).hasSize(2);
    assertThat(jobs.get(0).get("name").asText()).isEqualTo("high");
    assertThat(jobs.get(0).get("position").asInt()).isEqualTo(1);
    assertThat(jobs.get(0).get("priority").asInt()).isEqualTo(900);
    assertThat(jobs.get(0).get("team").asText()).isEqualTo("nlp");
    assertThat(jobs.get(0).get("ageSeconds").asLong()).isGreaterThanOrEqualTo(0);
    assertThat(jobs.get(0).get("reasons").get(0).asText()).startsWith("local: no free job slot");
    assertThat(jobs.get(1).get("name").asText()).isEqualTo("low");
    assertThat(jobs.get(1).get("position").asInt()).isEqualTo(2);
    // Another team sees none of them; a platform-admin sees all.
    assertThat(client.get("/v1/queue", bob).json().get("jobs")).isEmpty();
    assertThat(client.get("/v1/queue", admin).json().get("jobs")).hasSize(2);

    assertThat(client.delete("/v1/jobs/" + blockerId, alice).status()).isEqualTo(202);
    var highDone = client.awaitEnd(high.get("id").asText(), alice);
    var lowDone = client.awaitEnd(low.get("id").asText(), alice);
    assertThat(highDone.get("state").asText()).as(highDone.toString()).isEqualTo("SUCCEEDED");
    assertThat(lowDone.get("state").asText()).as(lowDone.toString()).isEqualTo("SUCCEEDED");
    // One slot: the high-priority job ran first although it arrived later.
    assertThat(Instant.parse(lowDone.get("submittedAt").asText()))
        .isAfter(Instant.parse(highDone.get("submittedAt").asText()));
    assertThat(client.get("/v1/queue", alice).json().get("jobs")).isEmpty();
  }

  private static JsonNode submit(String yaml, int status) {
    var answer = client.post("/v1/jobs", alice, "application/yaml", yaml);
    assertThat(answer.status()).as(answer.body()).isEqualTo(status);
    return answer.json();
  }

  private static void await(String id, String state) {
    client.awaitState(id, state, alice);
  }

  private static String sleeper(String name, int seconds, Integer priority) {
    return """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: %s}
        spec:
          framework: pytorch
          image: python:3.11-slim
          command: [sleep, "%d"]
          replicas: {master: 1}
        %s"""
        .formatted(name, seconds, priority == null ? "" : "  priority: " + priority + "\n");
  }

  private static String gpuJob() {
    return """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: gpu}
        spec:
          framework: pytorch
          image: python:3.11-slim
          command: [sleep, "0"]
          resources: {gpus: 1}
          replicas: {master: 1}
        """;
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
        teams:
          nlp: {maxPriority: 950, weight: 2}
        backends:
          - type: local
            codeDir: %s
            maxConcurrentJobs: 1
        """
        .formatted(DIR, DIR, REPO);
  }
}
