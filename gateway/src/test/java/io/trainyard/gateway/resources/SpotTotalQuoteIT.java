package io.trainyard.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.auth.DevIssuer;
import io.trainyard.backend.kubernetes.CrudApiServer;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.testing.DevApp;
import io.trainyard.gateway.testing.GatewayClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Whole-job totals for spot through the gateway: a cluster (fabric8's API server in CRUD mode) with
 * an on-demand and a spot g5.xlarge pool, {@code routing.spotInterruption} at the Advisor's {@code
 * >20%} band. The spot offer's total carries its expected re-run time, and a checkpoint shrinks it.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class SpotTotalQuoteIT {
  private static final Path DIR = GatewayClient.tempDir("trainyard-spot-total");
  private static final CrudApiServer CLUSTER = new CrudApiServer();

  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      DevApp.onFreePorts(DIR, config());

  private static GatewayClient client;
  private static String token;

  @BeforeAll
  static void connect() {
    client = new GatewayClient(APP.getLocalPort());
    token =
        DevIssuer.loadOrCreate(DIR, AuthConfig.DEV_ISSUER)
            .mint("lee", Set.of("llm"), Set.of("trainer"), Duration.ofHours(1));
  }

  @AfterAll
  static void stop() {
    CLUSTER.close();
  }

  @Test
  void theSpotOffersTotalCountsExpectedReRunsAndACheckpointShrinksThem() {
    // Without a checkpoint a 100 h spot run is refused by default (spotNeedsCheckpointAfter 1h):
    // this job accepts one, to show what restarting from the beginning costs.
    var refused = quote("");
    assertThat(refused.get("candidates").toString())
        .contains("longer than spec.placement.spotNeedsCheckpointAfter 1h, needs spec.checkpoint");
    var plain = quote("  placement: {spotNeedsCheckpointAfter: 200h}\n");
    var spot = offer(plain, true);
    var onDemand = offer(plain, false);
    assertThat(plain.get("rankedBy").asText()).isEqualTo("estimatedTotalUsd");
    assertThat(onDemand.get("estimatedTotalUsd").decimalValue())
        .isEqualByComparingTo(onDemand.get("hourlyUsd").decimalValue().multiply(HOURS));
    var spotTotal = spot.get("estimatedTotalUsd").decimalValue();
    assertThat(spotTotal).isGreaterThan(spot.get("hourlyUsd").decimalValue().multiply(HOURS));
    assertThat(spot.get("notes").toString())
        .contains("spot: 25% interruptions per instance-month (configured for k8s) × 1 instance(s)")
        .contains("no checkpoint: restart from the beginning");
    // Still far cheaper than on demand, so cheapest takes it.
    assertThat(spot.get("chosen").asBoolean()).isTrue();

    var resumed = offer(quote("  checkpoint: {uri: 's3://ckpt/llm'}\n"), true);
    assertThat(resumed.get("estimatedTotalUsd").decimalValue()).isLessThan(spotTotal);
    assertThat(resumed.get("notes").toString()).contains("resume from a checkpoint every 0.5 h");
  }

  private static final BigDecimal HOURS = new BigDecimal("100");

  private static JsonNode quote(String extra) {
    var job =
        """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: a10g-spot}
        spec:
          framework: pytorch
          image: registry.example.com/llm:1
          command: [python, train.py]
          resources: {cpus: 2, memory: 8Gi, gpus: 1, gpuType: nvidia-a10g}
          replicas: {master: 1}
          estimatedHours: 100
        """
            + extra;
    var answer = client.post("/v1/quotes", token, "application/yaml", job);
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    return answer.json();
  }

  private static JsonNode offer(JsonNode decision, boolean spot) {
    for (var candidate : decision.get("candidates")) {
      if (!candidate.has("rejected") && candidate.get("spot").asBoolean() == spot) {
        return candidate;
      }
    }
    throw new AssertionError("no " + (spot ? "spot" : "on-demand") + " offer in " + decision);
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
        server:
          applicationConnectors: [{type: http, port: 0, bindHost: 127.0.0.1}]
          adminConnectors: [{type: http, port: 0}]
        routing:
          spotInterruption: {k8s: ">20%%"}
        teams:
          llm: {backends: [k8s], namespaces: {k8s: llm-jobs}}
        backends:
          - type: kubernetes
            id: k8s
            region: us-east-1
            kubeconfig: %2$s
            provider: aws
            flavor: kubeflow-v1
            nodePools:
              - {name: a10g, instanceType: g5.xlarge, maxNodes: 4}
              - {name: a10g-spot, instanceType: g5.xlarge, maxNodes: 4, spot: true}
        """
        .formatted(DIR, DIR.resolve("kubeconfig"));
  }
}
