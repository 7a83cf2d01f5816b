package io.trainyard.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodListBuilder;
import io.trainyard.auth.DevIssuer;
import io.trainyard.backend.kubernetes.CrudApiServer;
import io.trainyard.gateway.TrainyardApplication;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.testing.GatewayClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code fastest} through the gateway on fabric8's API server: a cluster with an on-demand and a
 * spot GPU pool. With nothing pending the cheaper spot pool is the fastest too (no one waits on
 * either); once pods pinned to the spot pool wait for nodes, the quote picks the on-demand pool and
 * its notes say what waits where. The CRUD server does not filter pods by {@code status.phase}, so
 * the test answers the field-selected list from its store, as a real API server would.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class PendingPodsQuoteIT {
  private static final Path DIR = GatewayClient.tempDir("trainyard-pending");
  private static final CrudApiServer CLUSTER = new CrudApiServer();

  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      new DropwizardAppExtension<>(TrainyardApplication.class, writeConfig());

  private static final String JOB =
      """
      apiVersion: trainyard.io/v1
      kind: TrainingJob
      metadata: {name: fast}
      spec:
        framework: pytorch
        image: registry.example.com/train:1
        command: [python, train.py]
        resources: {gpus: 4, gpuType: nvidia-a10g, cpus: 16, memory: 64Gi}
        replicas: {master: 1}
        placement: {policy: fastest, spot: allowed}
      """;

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
    CLUSTER.close();
  }

  @Test
  void podsWaitingForTheSpotPoolMakeFastestPickTheOnDemandPool() {
    var before = quote();
    assertThat(pool(chosen(before))).isEqualTo("gpu-spot");

    for (var name : new String[] {"a", "b", "c"}) {
      pendingPod("other-team", name, Map.of("pool", "gpu-spot"));
    }
    servePendingPods();
    // The backend lists pending pods at most every 2 s, one list answering the quotes between.
    var after = quote();
    var deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (pool(chosen(after)).equals("gpu-spot") && System.nanoTime() < deadline) {
      sleep(100);
      after = quote();
    }
    var chosen = chosen(after);
    assertThat(pool(chosen)).isEqualTo("gpu");
    assertThat(after.get("choice").asText()).contains("0 pods waiting ahead");
    assertThat(chosen.get("notes").toString()).contains("start: 0 pods waiting ahead");
    for (var c : after.get("candidates")) {
      if (c.get("spot").asBoolean() && !c.has("rejected")) {
        assertThat(c.get("placement").get("waitingAhead").get("count").asInt()).isEqualTo(3);
        assertThat(c.get("notes").toString()).contains("start: 3 pods waiting ahead");
      }
    }
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static JsonNode quote() {
    var answer = client.post("/v1/quotes", token, "application/yaml", JOB);
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    return answer.json();
  }

  private static JsonNode chosen(JsonNode decision) {
    for (var c : decision.get("candidates")) {
      if (c.path("chosen").asBoolean()) {
        return c;
      }
    }
    throw new AssertionError("nothing chosen in " + decision);
  }

  private static String pool(JsonNode candidate) {
    return candidate.get("placement").get("lines").get(0).get("pool").asText();
  }

  private static void pendingPod(String namespace, String name, Map<String, String> selector) {
    var pod =
        new PodBuilder()
            .withNewMetadata()
            .withNamespace(namespace)
            .withName(name)
            .endMetadata()
            .withNewSpec()
            .withNodeSelector(selector)
            .addNewContainer()
            .withName("main")
            .withImage("busybox")
            .endContainer()
            .endSpec()
            .withNewStatus()
            .withPhase("Pending")
            .endStatus()
            .build();
    CLUSTER.client().pods().inNamespace(namespace).resource(pod).create();
  }

  /** The next field-selected pod list, answered from the store as a real API server would. */
  private static void servePendingPods() {
    var pending =
        CLUSTER.client().pods().inAnyNamespace().list().getItems().stream()
            .filter(p -> "Pending".equals(p.getStatus().getPhase()))
            .toList();
    CLUSTER
        .expect()
        .get()
        .withPath("/api/v1/pods?fieldSelector=status.phase%3DPending")
        .andReturn(200, new PodListBuilder().withItems(pending).build())
        .once();
  }

  private static String writeConfig() {
    var kubeconfig = CLUSTER.kubeconfig();
    var yaml =
        """
        dataDir: %s
        auth: {mode: dev}
        reconciler: {resyncInterval: 200ms}
        server:
          applicationConnectors: [{type: http, port: 0, bindHost: 127.0.0.1}]
          adminConnectors: [{type: http, port: 0}]
        teams:
          ml: {backends: [k8s], namespaces: {k8s: ml-jobs}}
        backends:
          - type: kubernetes
            id: k8s
            region: us-east-1
            kubeconfig: %s
            provider: aws
            nodePools:
              - {name: gpu, instanceType: g5.12xlarge, maxNodes: 2, labels: {pool: gpu}}
              - {name: gpu-spot, instanceType: g5.12xlarge, maxNodes: 8, spot: true, labels: {pool: gpu-spot}}
        """
            .formatted(DIR, DIR.resolve("kubeconfig"));
    try {
      Files.writeString(DIR.resolve("kubeconfig"), kubeconfig);
      var file = DIR.resolve("trainyard.yml");
      Files.writeString(file, yaml);
      return file.toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
