package io.trainyard.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.auth.DevIssuer;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.testing.DevApp;
import io.trainyard.gateway.testing.GatewayClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The REST surface end to end on the embedded default: H2, dev auth, the local backend running real
 * processes. What a user with {@code curl} would see.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class JobsFlowIT {
  private static final Path DIR = GatewayClient.tempDir("trainyard-flow");
  private static final Path REPO = Path.of("..").toAbsolutePath().normalize();

  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      DevApp.onFreePorts(DIR, config());

  private static GatewayClient client;
  private static String alice;
  private static String bob;
  private static String auditor;
  private static String nlpAdmin;

  @BeforeAll
  static void tokens() {
    client = new GatewayClient(APP.getLocalPort());
    var issuer = DevIssuer.loadOrCreate(DIR, AuthConfig.DEV_ISSUER);
    alice = issuer.mint("alice", Set.of("nlp"), Set.of("trainer"), Duration.ofHours(1));
    bob = issuer.mint("bob", Set.of("vision"), Set.of("trainer"), Duration.ofHours(1));
    auditor = issuer.mint("carol", Set.of("nlp"), Set.of("auditor"), Duration.ofHours(1));
    nlpAdmin = issuer.mint("dave", Set.of("nlp"), Set.of("team-admin"), Duration.ofHours(1));
  }

  @Test
  void aTwoReplicaJobTrainsAndSucceedsWithLogsAndEvents() throws Exception {
    var yaml = Files.readString(REPO.resolve("examples/linear-regression.yaml"));
    var quote = client.post("/v1/quotes", alice, "application/yaml", yaml);
    assertThat(quote.status()).isEqualTo(200);
    assertThat(quote.json().get("chosen").asText()).isEqualTo("local");
    assertThat(quote.json().get("candidates").get(0).get("notes").get(0).asText())
        .contains("recorded but not run");

    var submitted = client.post("/v1/jobs", alice, "application/yaml", yaml);
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
    var id = submitted.json().get("id").asText();
    assertThat(submitted.json().get("state").asText()).isEqualTo("PENDING");
    assertThat(submitted.json().get("team").asText()).isEqualTo("nlp");
    assertThat(submitted.json().get("decision").get("chosen").asText()).isEqualTo("local");

    var logs = client.get("/v1/jobs/" + id + "/logs?follow=true", alice);
    assertThat(logs.status()).isEqualTo(200);
    assertThat(logs.body()).contains("[master-0] epoch").contains("[worker-0] epoch");

    var job = awaitEnd(id, alice);
    assertThat(job.get("state").asText()).as(job.toString()).isEqualTo("SUCCEEDED");
    assertThat(job.get("durationSeconds").asLong()).isGreaterThanOrEqualTo(0);
    var events = client.get("/v1/jobs/" + id + "/events", alice).json().get("events");
    assertThat(events.toString()).contains("PENDING", "SUBMITTED", "RUNNING", "SUCCEEDED");

    // Another team cannot see it, and cannot tell it exists.
    var foreign = client.get("/v1/jobs/" + id, bob);
    assertThat(foreign.status()).isEqualTo(404);
    assertThat(client.get("/v1/jobs/" + id + "/logs", bob).status()).isEqualTo(404);
    assertThat(client.get("/v1/jobs", bob).json().get("jobs")).isEmpty();
    assertThat(client.get("/v1/jobs", alice).body()).contains(id);
  }

  @Test
  void idempotencyKeysAreScopedToTeamAndCallerAndBoundToTheDocument() {
    var spec = sleeper("idem", 0);
    var first = client.post("/v1/jobs", alice, "application/yaml", spec, "Idempotency-Key", "k-1");
    var again = client.post("/v1/jobs", alice, "application/yaml", spec, "Idempotency-Key", "k-1");
    assertThat(first.status()).isEqualTo(201);
    assertThat(again.status()).isEqualTo(200);
    assertThat(again.json().get("id")).isEqualTo(first.json().get("id"));

    var other = sleeper("idem", 1);
    var conflict =
        client.post("/v1/jobs", alice, "application/yaml", other, "Idempotency-Key", "k-1");
    assertThat(conflict.status()).isEqualTo(409);
    assertThat(conflict.json().get("errors").get(0).get("field").asText())
        .isEqualTo("Idempotency-Key");

    var bobs = client.post("/v1/jobs", bob, "application/yaml", spec, "Idempotency-Key", "k-1");
    assertThat(bobs.status()).isEqualTo(201);
    assertThat(bobs.json().get("id")).isNotEqualTo(first.json().get("id"));
  }

  @Test
  void aLiveJobsNameIsTakenUntilItEnds() {
    var first = client.post("/v1/jobs", alice, "application/yaml", sleeper("unique-name", 30));
    assertThat(first.status()).isEqualTo(201);
    var second = client.post("/v1/jobs", alice, "application/yaml", sleeper("unique-name", 30));
    assertThat(second.status()).isEqualTo(409);
    assertThat(second.json().get("errors").get(0).get("field").asText()).isEqualTo("metadata.name");

    var id = first.json().get("id").asText();
    var cancel = client.delete("/v1/jobs/" + id, alice);
    assertThat(cancel.status()).isEqualTo(202);
    var job = awaitEnd(id, alice);
    assertThat(job.get("state").asText()).isEqualTo("CANCELLED");
    assertThat(
            client.post("/v1/jobs", alice, "application/yaml", sleeper("unique-name", 0)).status())
        .isEqualTo(201);
  }

  @Test
  void aFailingReplicaFailsTheJobWithItsWords() {
    var spec =
        """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: fails}
        spec:
          framework: pytorch
          image: python:3.11-slim
          command: [python3, -c, "import sys; print('bad data in shard 3'); sys.exit(3)"]
          replicas: {master: 1}
          restartPolicy: Never
        """;
    var id = client.post("/v1/jobs", alice, "application/yaml", spec).json().get("id").asText();
    var job = awaitEnd(id, alice);
    assertThat(job.get("state").asText()).isEqualTo("FAILED");
    assertThat(job.get("reason").asText()).contains("master-0").contains("3").contains("bad data");
  }

  @Test
  void noBackendCanRunAGpuJobSoNothingIsStored() {
    var spec =
        sleeper("gpu", 0)
            .replace("replicas:", "resources: {gpus: 1, gpuType: nvidia-t4}\n  replicas:");
    var answer = client.post("/v1/jobs", alice, "application/yaml", spec);
    assertThat(answer.status()).isEqualTo(422);
    assertThat(answer.json().get("code").asText()).isEqualTo("NO_OFFER");
    assertThat(answer.json().get("decision").get("candidates").get(0).get("rejected").asText())
        .contains("no GPUs");
    assertThat(client.get("/v1/jobs", alice).body()).doesNotContain("\"gpu\"");
  }

  @Test
  void badInputGetsTheErrorShapeWithTheFieldNamed() {
    var invalid = client.post("/v1/jobs", alice, "application/yaml", sleeper("Bad_Name", 0));
    assertThat(invalid.status()).isEqualTo(422);
    assertThat(invalid.json().get("code").asText()).isEqualTo("INVALID_SPEC");
    assertThat(invalid.json().get("errors").get(0).get("field").asText())
        .isEqualTo("metadata.name");
    assertThat(invalid.json().get("requestId").asText()).isNotBlank();
    assertThat(invalid.headers()).containsKey("x-request-id");

    var malformed = client.post("/v1/jobs", alice, "application/json", "{\"spec\": ");
    assertThat(malformed.status()).isEqualTo(400);
    assertThat(malformed.body()).doesNotContain("at com.").doesNotContain("Exception");

    var huge = client.postBytes("/v1/jobs", alice, "application/json", new byte[2 << 20]);
    assertThat(huge.status()).isEqualTo(413);

    var unknown = client.get("/v1/nothing-here", alice);
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.json().get("code").asText()).isEqualTo("NOT_FOUND");
  }

  @Test
  void everyBadTokenGetsTheSameGeneric401() {
    var none = client.get("/v1/jobs", null);
    var garbage = client.get("/v1/jobs", "not-a-jwt");
    var foreignKey =
        DevIssuer.loadOrCreate(DIR.resolve("other"), AuthConfig.DEV_ISSUER)
            .mint("mallory", Set.of("nlp"), Set.of("platform-admin"), Duration.ofHours(1));
    var forged = client.get("/v1/jobs", foreignKey);
    for (var answer : new GatewayClient.Answer[] {none, garbage, forged}) {
      assertThat(answer.status()).isEqualTo(401);
      assertThat(answer.json().get("message").asText())
          .isEqualTo("a valid bearer token is required");
    }
  }

  @Test
  void rolesAreCheckedOnEveryEndpoint() {
    // Auditors read the job list (issue 17), and never act.
    assertThat(client.get("/v1/jobs", auditor).status()).isEqualTo(200);
    assertThat(client.get("/v1/jobs/x", auditor).status()).isEqualTo(403);
    assertThat(client.post("/v1/jobs", auditor, "application/yaml", sleeper("x", 0)).status())
        .isEqualTo(403);
    assertThat(client.get("/openapi.json", null).status()).isEqualTo(200);
    var backends = client.get("/v1/backends", alice);
    assertThat(backends.json().get("backends").get(0).get("id").asText()).isEqualTo("local");
    assertThat(backends.json().get("backends").get(0).get("healthy").asBoolean()).isTrue();
  }

  @Test
  void teamAdminsSeeTheirTeamsSpendAndNobodyElseDoes() {
    var spend = client.get("/v1/teams/nlp/spend", nlpAdmin);
    assertThat(spend.status()).as(spend.body()).isEqualTo(200);
    assertThat(spend.json().get("team").asText()).isEqualTo("nlp");
    assertThat(spend.json().get("month").asText()).matches("\\d{4}-\\d{2}");
    assertThat(spend.json().get("totalUsd").decimalValue()).isNotNegative();
    assertThat(client.get("/v1/teams/vision/spend", nlpAdmin).status()).isEqualTo(404);
    assertThat(client.get("/v1/teams/nlp/spend", alice).status()).isEqualTo(403);
    assertThat(client.get("/v1/teams/nlp/spend?month=soon", nlpAdmin).status()).isEqualTo(400);
  }

  @Test
  void theSeedsKubeflowDocumentsAreQuotedAsTheyAreWithWarnings() throws Exception {
    // The seeds as shared/ has them; the kubeflow module keeps copies for a checkout without it.
    var shared = REPO.resolve("../shared/examples/kubeflow");
    var seeds =
        Files.isDirectory(shared) ? shared : REPO.resolve("kubeflow/src/test/resources/seeds");
    var seed000 = Files.readString(seeds.resolve("seed-000-bert-pytorchjob.yaml"));
    var quote = client.post("/v1/quotes", alice, "application/yaml", seed000);
    assertThat(quote.status()).as(quote.body()).isEqualTo(200);
    assertThat(quote.json().get("warnings").toString()).contains("spec.volumes");
    var local = quote.json().get("candidates").get(0);
    assertThat(local.get("backendId").asText()).isEqualTo("local");
    assertThat(local.get("rejected").asText()).contains("no GPUs");

    var seed004 = Files.readString(seeds.resolve("seed-004-pytorchjob-master-2-workers.yaml"));
    var answer = client.post("/v1/jobs", alice, "application/yaml", seed004);
    assertThat(answer.status()).isEqualTo(422);
    assertThat(answer.json().get("code").asText()).isEqualTo("NO_OFFER");
  }

  @Test
  void aDryRunQuotesAndStoresNothing() {
    var answer = client.post("/v1/jobs?dryRun=true", alice, "application/yaml", sleeper("dry", 0));
    assertThat(answer.status()).isEqualTo(200);
    assertThat(answer.json().get("dryRun").asBoolean()).isTrue();
    assertThat(answer.json().get("chosen").asText()).isEqualTo("local");
    assertThat(client.get("/v1/jobs", alice).body()).doesNotContain("\"dry\"");
  }

  static String sleeper(String name, int seconds) {
    return """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: %s}
        spec:
          framework: pytorch
          image: python:3.11-slim
          command: [sleep, "%d"]
          replicas: {master: 1}
        """
        .formatted(name, seconds);
  }

  static com.fasterxml.jackson.databind.JsonNode awaitEnd(String id, String token) {
    return client.awaitEnd(id, token);
  }

  private static String config() {
    var yaml =
        """
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
        """
            .formatted(DIR, DIR, REPO);
    return yaml;
  }
}
