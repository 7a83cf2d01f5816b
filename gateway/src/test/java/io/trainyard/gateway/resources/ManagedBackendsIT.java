package io.trainyard.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.cloud.aiplatform.v1.JobState;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.grpc.Status;
import io.trainyard.auth.DevIssuer;
import io.trainyard.backend.sagemaker.SageMakerStub;
import io.trainyard.backend.vertex.FakeJobService;
import io.trainyard.gateway.TrainyardApplication;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.testing.GatewayClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The same spec through the gateway to SageMaker and Vertex AI: the real SDK clients against a
 * local server speaking SageMaker's JSON protocol and an in-process Vertex JobService, which the
 * test moves through the platforms' states.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class ManagedBackendsIT {
  private static final Path DIR = GatewayClient.tempDir("trainyard-managed");
  private static final SageMakerStub SAGEMAKER = start(SageMakerStub::new);
  private static final FakeJobService VERTEX = start(FakeJobService::new);

  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      new DropwizardAppExtension<>(TrainyardApplication.class, writeConfig());

  private static GatewayClient client;
  private static String token;

  @BeforeAll
  static void connect() {
    client = new GatewayClient(APP.getLocalPort());
    token =
        DevIssuer.loadOrCreate(DIR, AuthConfig.DEV_ISSUER)
            .mint("mia", Set.of("ml"), Set.of("trainer"), Duration.ofHours(1));
  }

  @AfterAll
  static void stop() {
    SAGEMAKER.close();
    VERTEX.close();
  }

  @Test
  void aJobPinnedToSageMakerRunsToSuccess() {
    var job = submit("sm-ok", "[sm]");
    var name = awaitState(job, "SUBMITTED").get("objectName").asText();
    SAGEMAKER.move(name, "InProgress", "Training", null);
    awaitState(job, "RUNNING");
    SAGEMAKER.move(name, "Completed", "Completed", null);
    assertThat(awaitState(job, "SUCCEEDED").get("backend").asText()).isEqualTo("sm");
    var created = SAGEMAKER.calls("CreateTrainingJob").get(0).body();
    assertThat(created.path("ResourceConfig").path("InstanceType").asText()).startsWith("ml.");
  }

  @Test
  void aFailedSageMakerJobCarriesThePlatformsReason() {
    var job = submit("sm-fails", "[sm]");
    var name = awaitState(job, "SUBMITTED").get("objectName").asText();
    SAGEMAKER.move(name, "Failed", "Failed", "AlgorithmError: loss is NaN at step 120");
    var failed = awaitState(job, "FAILED");
    assertThat(failed.get("reason").asText()).contains("loss is NaN at step 120");
  }

  @Test
  void aJobPinnedToVertexRunsToSuccessAndACancelStopsAnother() {
    var job = submit("vx-ok", "[vx]");
    var resource = vertexJob(awaitState(job, "SUBMITTED"));
    VERTEX.move(resource, JobState.JOB_STATE_RUNNING, null);
    awaitState(job, "RUNNING");
    VERTEX.move(resource, JobState.JOB_STATE_SUCCEEDED, null);
    awaitState(job, "SUCCEEDED");

    var doomed = submit("vx-cancel", "[vx]");
    var other = vertexJob(awaitState(doomed, "SUBMITTED"));
    VERTEX.move(other, JobState.JOB_STATE_RUNNING, null);
    awaitState(doomed, "RUNNING");
    assertThat(client.delete("/v1/jobs/" + doomed, token).status()).isEqualTo(202);
    awaitState(doomed, "CANCELLING");
    VERTEX.move(other, JobState.JOB_STATE_CANCELLED, null);
    awaitState(doomed, "CANCELLED");
  }

  @Test
  void aCapacityRefusalFailsOverToTheNextOffer() {
    // Vertex's n1-standard-4 is the cheapest on-demand offer; it refuses, SageMaker takes the job.
    VERTEX.failNext("CreateCustomJob", Status.Code.RESOURCE_EXHAUSTED, "no n1 capacity");
    var job = submit("fail-over", "[]", "never");
    var moved = awaitState(job, "SUBMITTED");
    assertThat(moved.get("backend").asText()).isEqualTo("sm");
    assertThat(moved.get("attempt").asInt()).isEqualTo(2);
    var events = client.get("/v1/jobs/" + job + "/events", token).body();
    assertThat(events).contains("FAILOVER").contains("no n1 capacity");
  }

  /** The Vertex resource of an attempt: its display name is the attempt's object name. */
  private static String vertexJob(JsonNode job) {
    var objectName = job.get("objectName").asText();
    return VERTEX.jobs().stream()
        .filter(j -> j.getDisplayName().equals(objectName))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no Vertex job named " + objectName))
        .getName();
  }

  /**
   * SageMaker managed spot is offered: the EC2 spot price of m5.2xlarge times SageMaker's on-demand
   * ratio to EC2 (0.1546 × 0.461/0.384), estimated, cheaper than every on-demand offer. A 6h job
   * without a checkpoint gets no spot offer, and says why.
   */
  @Test
  void aQuoteOffersSageMakerManagedSpotAndALongJobWithoutACheckpointGetsNone() {
    var withCheckpoint = quote("checkpoint: {uri: s3://ml-ckpt/q/}");
    assertThat(withCheckpoint.status()).as(withCheckpoint.body()).isEqualTo(200);
    var spot = candidate(withCheckpoint.json(), "sm", true);
    assertThat(spot.has("rejected")).as(spot.toString()).isFalse();
    assertThat(spot.get("chosen").asBoolean()).isTrue();
    assertThat(spot.get("estimated").asBoolean()).isTrue();
    assertThat(spot.get("hourlyUsd").decimalValue()).isEqualByComparingTo("0.1856");
    assertThat(spot.get("placement").get("lines").get(0).get("instanceType").asText())
        .isEqualTo("ml.m5.2xlarge");
    assertThat(spot.get("notes").toString())
        .contains("ec2 spot price of m5.2xlarge $0.1546/h")
        .contains("sagemaker/ec2 on-demand ratio 0.461/0.384");

    var without = quote("");
    assertThat(without.status()).as(without.body()).isEqualTo(200);
    var refused = candidate(without.json(), "sm", true);
    assertThat(refused.get("rejected").asText())
        .contains("expected to run 6h (maxRuntime)")
        .contains("needs spec.checkpoint");
    assertThat(refused.get("rejectedKind").asText()).isEqualTo("never");
    var onDemand = candidate(without.json(), "sm", false);
    assertThat(onDemand.get("chosen").asBoolean()).isTrue();
    assertThat(onDemand.get("hourlyUsd").decimalValue()).isEqualByComparingTo("0.461");
  }

  private static GatewayClient.Answer quote(String checkpoint) {
    var spec =
        """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: spot-quote}
        spec:
          framework: pytorch
          image: registry.example.com/train:1
          command: [python, train.py]
          resources: {cpus: 2, memory: 8Gi}
          replicas: {master: 1}
          maxRuntime: 6h
          %s
          placement: {backends: [sm]}
        """
            .formatted(checkpoint);
    return client.post("/v1/quotes", token, "application/yaml", spec);
  }

  /** The first row of the backend with that spot flag, offer or rejection. */
  private static JsonNode candidate(JsonNode decision, String backend, boolean spot) {
    for (var candidate : decision.get("candidates")) {
      if (candidate.get("backendId").asText().equals(backend)
          && candidate.get("spot").asBoolean() == spot) {
        return candidate;
      }
    }
    throw new AssertionError("no row of " + backend + " spot=" + spot + " in " + decision);
  }

  private static String submit(String name, String backends) {
    return submit(name, backends, "allowed");
  }

  private static String submit(String name, String backends, String spot) {
    var spec =
        """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: %s}
        spec:
          framework: pytorch
          image: registry.example.com/train:1
          command: [python, train.py]
          resources: {cpus: 2, memory: 8Gi}
          replicas: {master: 1}
          placement: {backends: %s, spot: %s}
        """
            .formatted(name, backends, spot);
    var answer = client.post("/v1/jobs", token, "application/yaml", spec);
    assertThat(answer.status()).as(answer.body()).isEqualTo(201);
    return answer.json().get("id").asText();
  }

  private static JsonNode awaitState(String id, String state) {
    return client.awaitState(id, state, token);
  }

  private interface Starter<T> {
    T start() throws IOException;
  }

  private static <T> T start(Starter<T> starter) {
    try {
      return starter.start();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String writeConfig() {
    var yaml =
        """
        dataDir: %s
        auth: {mode: dev}
        reconciler: {resyncInterval: 200ms}
        server:
          applicationConnectors: [{type: http, port: 0, bindHost: 127.0.0.1}]
          adminConnectors: [{type: http, port: 0}]
        teams:
          ml: {backends: [sm, vx]}
        backends:
          - type: sagemaker
            id: sm
            region: us-east-1
            roleArn: arn:aws:iam::123456789012:role/trainyard
            outputPath: s3://ml-out/trainyard/
            endpoint: %s
            accessKeyId: test
            secretAccessKey: test
            maxAttempts: 1
            logPollInterval: 100ms
          - type: vertex
            id: vx
            region: us-central1
            project: ml-prod
            baseOutputDirectory: gs://ml-out/trainyard
            endpoint: %s
            plaintext: true
        """
            .formatted(DIR, SAGEMAKER.endpoint(), VERTEX.endpoint());
    try {
      var file = DIR.resolve("trainyard.yml");
      Files.writeString(file, yaml);
      return file.toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
