package io.trainyard.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import io.trainyard.auth.DevIssuer;
import io.trainyard.gateway.TrainyardApplication;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.testing.GatewayClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A gateway that stops while its job runs, and a new one on the same data directory: the job is
 * followed to its end without being started again.
 */
class GatewayRestartIT {

  @Test
  void aRunningJobSurvivesAGatewayRestartAndIsNotStartedTwice(@TempDir Path dir) throws Exception {
    var config = dir.resolve("trainyard.yml");
    Files.writeString(
        config,
        """
        dataDir: %s
        auth: {mode: dev}
        reconciler: {resyncInterval: 200ms}
        server:
          applicationConnectors: [{type: http, port: 0, bindHost: 127.0.0.1}]
          adminConnectors: [{type: http, port: 0}]
        """
            .formatted(dir));
    var token =
        DevIssuer.loadOrCreate(dir, AuthConfig.DEV_ISSUER)
            .mint("alice", Set.of("nlp"), Set.of("trainer"), Duration.ofHours(1));
    var spec =
        """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: survivor}
        spec:
          framework: pytorch
          image: python:3.11-slim
          command: [sh, -c, "echo started; sleep 3; echo finished"]
          replicas: {master: 1}
        """;

    var first = start(config);
    String id;
    try {
      var client = new GatewayClient(first.getLocalPort());
      id = client.post("/v1/jobs", token, "application/yaml", spec).json().get("id").asText();
      await(client, id, token, "RUNNING");
    } finally {
      first.after();
    }

    var second = start(config);
    try {
      var client = new GatewayClient(second.getLocalPort());
      var job = await(client, id, token, "SUCCEEDED");
      assertThat(job.get("attempt").asInt()).isEqualTo(1);
      // Started once: the replica's own log (it cannot write outside its sandbox) says so.
      var logs = client.get("/v1/jobs/" + id + "/logs", token).body();
      assertThat(logs.lines().filter(l -> l.contains("[master-0] started"))).hasSize(1);
      assertThat(logs).contains("[master-0] finished");
    } finally {
      second.after();
    }
  }

  private static DropwizardTestSupport<TrainyardConfiguration> start(Path config) throws Exception {
    var support =
        new DropwizardTestSupport<>(
            TrainyardApplication.class,
            config.toString(),
            ConfigOverride.config("server.applicationConnectors[0].port", "0"));
    support.before();
    return support;
  }

  private static com.fasterxml.jackson.databind.JsonNode await(
      GatewayClient client, String id, String token, String state) throws InterruptedException {
    var deadline = Instant.now().plusSeconds(60);
    while (Instant.now().isBefore(deadline)) {
      var job = client.get("/v1/jobs/" + id, token).json();
      if (job.get("state").asText().equals(state)) {
        return job;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("job " + id + " never reached " + state);
  }
}
