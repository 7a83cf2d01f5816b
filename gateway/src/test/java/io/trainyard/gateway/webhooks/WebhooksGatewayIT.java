package io.trainyard.gateway.webhooks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.auth.DevIssuer;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.testing.DevApp;
import io.trainyard.gateway.testing.GatewayClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Completion events through the real gateway: a job run to SUCCEEDED on the local backend is
 * POSTed, signed, to a real HTTP receiver in this test that fails twice and then takes it; a
 * receiver that always fails is given up after {@code webhooks.maxAttempts} with every attempt
 * visible to the team; a redirect is not followed; URLs and roles are checked.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class WebhooksGatewayIT {
  private static final Path DIR = GatewayClient.tempDir("trainyard-webhooks");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_ATTEMPTS = 3;

  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      DevApp.onFreePorts(DIR, config());

  /** What a receiver was sent. */
  record Received(String path, Map<String, List<String>> headers, byte[] body) {
    String header(String name) {
      var values = headers.get(name);
      return values == null ? null : values.get(0);
    }
  }

  private static final List<Received> RECEIVED = new CopyOnWriteArrayList<>();
  private static final AtomicInteger FLAKY_CALLS = new AtomicInteger();
  private static HttpServer receiver;
  private static String receiverBase;
  private static GatewayClient client;
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static String alice;
  private static String bob;
  private static String nlpAdmin;
  private static String visionAdmin;
  private static String auditor;
  private static String platformAdmin;

  @BeforeAll
  static void start() throws IOException {
    receiver = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    receiver.createContext(
        "/flaky", ex -> answer(ex, FLAKY_CALLS.incrementAndGet() <= 2 ? 500 : 204, null));
    receiver.createContext("/down", ex -> answer(ex, 500, null));
    receiver.createContext("/moved", ex -> answer(ex, 302, receiverBase + "/sink"));
    receiver.createContext("/sink", ex -> answer(ex, 200, null));
    receiver.start();
    receiverBase = "http://127.0.0.1:" + receiver.getAddress().getPort();

    client = new GatewayClient(APP.getLocalPort());
    var issuer = DevIssuer.loadOrCreate(DIR, AuthConfig.DEV_ISSUER);
    alice = issuer.mint("alice", Set.of("nlp"), Set.of("trainer"), Duration.ofHours(1));
    bob = issuer.mint("bob", Set.of("vision"), Set.of("trainer"), Duration.ofHours(1));
    nlpAdmin = issuer.mint("dave", Set.of("nlp"), Set.of("team-admin"), Duration.ofHours(1));
    visionAdmin = issuer.mint("erin", Set.of("vision"), Set.of("team-admin"), Duration.ofHours(1));
    auditor = issuer.mint("carol", Set.of("nlp"), Set.of("auditor"), Duration.ofHours(1));
    platformAdmin =
        issuer.mint("root", Set.of("ops"), Set.of("platform-admin"), Duration.ofHours(1));
  }

  @AfterAll
  static void stop() {
    receiver.stop(0);
  }

  private static void answer(HttpExchange ex, int status, String location) throws IOException {
    try (ex) {
      var body = ex.getRequestBody().readAllBytes();
      RECEIVED.add(
          new Received(ex.getRequestURI().getPath(), Map.copyOf(ex.getRequestHeaders()), body));
      if (location != null) {
        ex.getResponseHeaders().add("Location", location);
      }
      ex.sendResponseHeaders(status, -1);
    }
  }

  @Test
  void aSucceededJobIsDeliveredSignedOnceAfterTwoFailuresAndAFailingReceiverIsGivenUp()
      throws Exception {
    var created = put("nlp", "deploy", nlpAdmin, hook("/flaky", null));
    assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
    var secret = JSON.readTree(created.body()).get("secret").asText();
    assertThat(secret).startsWith("whsec_");
    var shown = client.get("/v1/teams/nlp/webhooks/deploy", nlpAdmin);
    assertThat(shown.status()).isEqualTo(200);
    assertThat(shown.json().has("secret")).isFalse();
    assertThat(shown.json().get("secretSet").asBoolean()).isTrue();
    assertThat(shown.body()).doesNotContain(secret);

    var given = "given-secret-0123456789";
    assertThat(put("nlp", "down", nlpAdmin, hook("/down", given)).statusCode()).isEqualTo(201);
    assertThat(put("nlp", "moved", nlpAdmin, hook("/moved", given)).statusCode()).isEqualTo(201);

    var submitted = client.post("/v1/jobs", alice, "application/yaml", job("ship-it"));
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
    var id = submitted.json().get("id").asText();
    assertThat(client.awaitEnd(id, alice).get("state").asText()).isEqualTo("SUCCEEDED");

    var deliveries =
        awaitDeliveries(
            alice,
            list ->
                list.size() == 3
                    && list.stream().noneMatch(d -> d.get("status").asText().equals("PENDING")));
    var byHook = new java.util.HashMap<String, JsonNode>();
    deliveries.forEach(d -> byHook.put(d.get("webhook").asText(), d));

    // The flaky receiver: the same event, the same bytes, three times; taken the third time.
    var flaky = RECEIVED.stream().filter(r -> r.path().equals("/flaky")).toList();
    assertThat(flaky).hasSize(3);
    for (var r : flaky) {
      assertThat(r.body()).isEqualTo(flaky.get(0).body());
      assertThat(WebhookSignature.verify(secret, r.header("Trainyard-signature"), r.body()))
          .as("signature of attempt %s", r.header("Trainyard-attempt"))
          .isTrue();
      assertThat(WebhookSignature.verify(given, r.header("Trainyard-signature"), r.body()))
          .isFalse();
      assertThat(r.header("Content-type")).startsWith("application/cloudevents+json");
    }
    assertThat(flaky).extracting(r -> r.header("Trainyard-attempt")).containsExactly("1", "2", "3");
    var event = JSON.readTree(flaky.get(0).body());
    assertThat(event.get("specversion").asText()).isEqualTo("1.0");
    assertThat(event.get("type").asText()).isEqualTo("io.trainyard.job.succeeded");
    assertThat(event.get("subject").asText()).isEqualTo(id);
    assertThat(event.get("source").asText()).isEqualTo("/trainyard/it-gateway/jobs");
    var data = event.get("data");
    assertThat(data.get("jobId").asText()).isEqualTo(id);
    assertThat(data.get("name").asText()).isEqualTo("ship-it");
    assertThat(data.get("team").asText()).isEqualTo("nlp");
    assertThat(data.get("state").asText()).isEqualTo("SUCCEEDED");
    assertThat(data.get("backend").asText()).isEqualTo("local");
    assertThat(data.get("outputUri").asText()).isEqualTo("file:///tmp/ship-it-model/");
    assertThat(data.get("cost").has("accruedUsd")).isTrue();
    assertThat(data.get("metrics").isObject()).isTrue();

    var deploy = byHook.get("deploy");
    assertThat(deploy.get("status").asText()).isEqualTo("DELIVERED");
    assertThat(deploy.get("eventId").asText()).isEqualTo(event.get("id").asText());
    assertThat(deploy.get("attempts").asInt()).isEqualTo(3);
    assertThat(codes(deploy)).containsExactly(500, 500, 204);
    assertThat(deploy.get("attemptLog").get(0).get("error").asText())
        .isEqualTo("the receiver answered 500");

    // The always-failing receiver: given up after the bound, every attempt visible.
    var down = byHook.get("down");
    assertThat(down.get("status").asText()).isEqualTo("FAILED");
    assertThat(down.get("attempts").asInt()).isEqualTo(MAX_ATTEMPTS);
    assertThat(codes(down)).containsExactly(500, 500, 500);
    assertThat(down.get("lastError").asText()).isEqualTo("the receiver answered 500");
    assertThat(down.get("eventId").asText())
        .as("one event, whichever webhook")
        .isEqualTo(event.get("id").asText());
    assertThat(RECEIVED.stream().filter(r -> r.path().equals("/down"))).hasSize(MAX_ATTEMPTS);

    // A redirect is an answer, not an instruction: recorded, never followed.
    var moved = byHook.get("moved");
    assertThat(moved.get("status").asText()).isEqualTo("FAILED");
    assertThat(moved.get("lastStatusCode").asInt()).isEqualTo(302);
    assertThat(moved.get("lastError").asText()).contains("redirects are not followed");
    assertThat(RECEIVED.stream().filter(r -> r.path().equals("/sink"))).isEmpty();

    var one = client.get("/v1/teams/nlp/webhooks/down/deliveries", nlpAdmin);
    assertThat(one.status()).isEqualTo(200);
    assertThat(one.json().get("deliveries")).hasSize(1);

    // Deleting a webhook keeps its history.
    assertThat(client.delete("/v1/teams/nlp/webhooks/down", nlpAdmin).status()).isEqualTo(204);
    assertThat(client.get("/v1/teams/nlp/webhooks/down", nlpAdmin).status()).isEqualTo(404);
    assertThat(
            client
                .get("/v1/teams/nlp/webhooks/deliveries?webhook=down", alice)
                .json()
                .get("deliveries"))
        .hasSize(1);
  }

  @Test
  void receiverUrlsAreCheckedWithTheFieldNamed() throws Exception {
    var admin = APP.getAdminPort();
    for (var url :
        List.of(
            "ftp://127.0.0.1/x",
            "http://169.254.169.254/latest/meta-data/",
            "http://[fe80::1]/hook",
            "http://127.0.0.1:" + admin + "/healthcheck",
            "http://user:pw@127.0.0.1/hook",
            "http://metadata.google.internal/computeMetadata/v1/",
            "https://elsewhere.invalid/hook",
            "http://127.0.0.1:99999/hook",
            "not a url")) {
      var answer = put("nlp", "bad", nlpAdmin, Map.of("url", url));
      assertThat(answer.statusCode()).as(url).isEqualTo(400);
      var error = JSON.readTree(answer.body());
      assertThat(error.get("errors").get(0).get("field").asText()).as(url).isEqualTo("url");
      assertThat(answer.body()).doesNotContain("Exception");
    }
    var adminPort = put("nlp", "bad", nlpAdmin, Map.of("url", "http://127.0.0.1:" + admin + "/"));
    assertThat(adminPort.body()).contains("admin port");
    var types =
        put(
            "nlp",
            "bad",
            nlpAdmin,
            Map.of("url", receiverBase + "/sink", "eventTypes", List.of("job.done")));
    assertThat(JSON.readTree(types.body()).get("errors").get(0).get("field").asText())
        .isEqualTo("eventTypes[0]");
    var badId = put("nlp", "Bad_Id", nlpAdmin, Map.of("url", receiverBase + "/sink"));
    assertThat(badId.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(badId.body()).get("errors").get(0).get("field").asText())
        .isEqualTo("id");
    var shape =
        put(
            "nlp",
            "bad",
            nlpAdmin,
            Map.of("url", receiverBase + "/sink", "enabled", "yes", "sekret", "x"));
    assertThat(shape.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(shape.body()).get("errors").findValuesAsText("field"))
        .containsExactlyInAnyOrder("enabled", "sekret");
    assertThat(client.get("/v1/teams/nlp/webhooks/bad", nlpAdmin).status()).isEqualTo(404);
  }

  @Test
  void onlyTheTeamsAdminsConfigureAndOnlyTheTeamSees() throws Exception {
    var body = hook("/sink", "roles-secret-0123456789");
    assertThat(put("nlp", "roles", alice, body).statusCode()).as("trainer").isEqualTo(403);
    assertThat(put("nlp", "roles", auditor, body).statusCode()).as("auditor").isEqualTo(403);
    assertThat(put("nlp", "roles", visionAdmin, body).statusCode()).as("other team").isEqualTo(404);
    assertThat(put("nlp", "roles", nlpAdmin, body).statusCode()).isEqualTo(201);
    assertThat(put("nlp", "roles", platformAdmin, body).statusCode()).isEqualTo(200);

    assertThat(client.get("/v1/teams/nlp/webhooks", alice).body()).contains("\"roles\"");
    assertThat(client.get("/v1/teams/nlp/webhooks", bob).status()).isEqualTo(404);
    assertThat(client.get("/v1/teams/nlp/webhooks/roles", visionAdmin).status()).isEqualTo(404);
    assertThat(client.get("/v1/teams/nlp/webhooks/deliveries", bob).status()).isEqualTo(404);
    assertThat(client.get("/v1/teams/nlp/webhooks/deliveries", auditor).status()).isEqualTo(403);
    assertThat(client.get("/v1/teams/vision/webhooks", bob).json().get("webhooks")).isEmpty();
    assertThat(client.delete("/v1/teams/nlp/webhooks/roles", alice).status()).isEqualTo(403);
    assertThat(client.delete("/v1/teams/nlp/webhooks/roles", visionAdmin).status()).isEqualTo(404);
    assertThat(client.delete("/v1/teams/nlp/webhooks/roles", nlpAdmin).status()).isEqualTo(204);
  }

  private static List<Integer> codes(JsonNode delivery) {
    var codes = new java.util.ArrayList<Integer>();
    delivery.get("attemptLog").forEach(a -> codes.add(a.get("statusCode").asInt()));
    return codes;
  }

  private static List<JsonNode> awaitDeliveries(String token, Predicate<List<JsonNode>> done) {
    var deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    List<JsonNode> last = List.of();
    while (System.nanoTime() < deadline) {
      var answer = client.get("/v1/teams/nlp/webhooks/deliveries", token);
      assertThat(answer.status()).as(answer.body()).isEqualTo(200);
      var list = new java.util.ArrayList<JsonNode>();
      answer.json().get("deliveries").forEach(list::add);
      last = list;
      if (done.test(list)) {
        return list;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    throw new AssertionError("deliveries never settled; last: " + last);
  }

  private static Map<String, Object> hook(String path, String secret) {
    var body = new java.util.LinkedHashMap<String, Object>();
    body.put("url", receiverBase + path);
    body.put("eventTypes", List.of("io.trainyard.job.succeeded"));
    if (secret != null) {
      body.put("secret", secret);
    }
    return body;
  }

  private static HttpResponse<String> put(
      String team, String id, String token, Map<String, Object> body) {
    try {
      var request =
          HttpRequest.newBuilder(
                  URI.create(
                      "http://127.0.0.1:"
                          + APP.getLocalPort()
                          + "/v1/teams/"
                          + team
                          + "/webhooks/"
                          + id))
              .header("Authorization", "Bearer " + token)
              .header("Content-Type", "application/json")
              .PUT(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
              .build();
      return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String job(String name) {
    return """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: %s}
        spec:
          framework: pytorch
          image: python:3.11-slim
          command: [sleep, "0"]
          replicas: {master: 1}
          output: {uri: "file:///tmp/%s-model/"}
        """
        .formatted(name, name);
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
        webhooks:
          gatewayName: it-gateway
          allowLoopback: true
          allowedHosts: ["127.0.0.1", "169.254.169.254", "[fe80::1]", "metadata.google.internal"]
          maxAttempts: %d
          initialBackoff: 100ms
          maxBackoff: 200ms
          pollInterval: 100ms
          connectTimeout: 2s
          readTimeout: 2s
          lease: 10s
        """
        .formatted(DIR, DIR, Path.of("..").toAbsolutePath().normalize(), MAX_ATTEMPTS);
  }
}
