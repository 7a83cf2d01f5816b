package io.trainyard.gateway.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.audit.DigestSigner;
import io.trainyard.gateway.TrainyardApplication;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.testing.GatewayClient;
import io.trainyard.gateway.testing.cluster.TestIssuer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A real gateway in OIDC mode (a loopback issuer serving discovery and JWKS, H2, the local backend
 * running a real process, logs as JSON lines in a file): one job's life through the API, then the
 * admin port's {@code /prometheus} holds each infrastructure family with the labels and counts of
 * what the test did, and every log line is JSON with the job's fields and no secret.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InfrastructureMetricsGatewayIT {
  private static final Path DIR = GatewayClient.tempDir("trainyard-infra-metrics");
  private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
  private static final Path LOG = DIR.resolve("gateway.json");
  private static final Path REQUEST_LOG = DIR.resolve("requests.json");
  private static final String DB_PASSWORD = "db-pw-" + UUID.randomUUID();
  private static final String SECRET_VALUE = "wandb-" + UUID.randomUUID();
  private static final String HMAC_KEY = hmacKey();
  private static final TestIssuer IDP = TestIssuer.start();
  private static final ObjectMapper JSON = new ObjectMapper();

  static final DropwizardAppExtension<TrainyardConfiguration> APP = app();

  private static GatewayClient client;
  private static GatewayClient admin;
  private static String token;
  private static String jobId;
  private static String requestId;
  private static int polls;

  @BeforeAll
  static void runOneJob() {
    client = new GatewayClient(APP.getLocalPort());
    admin = new GatewayClient(APP.getAdminPort());
    token = IDP.mint("erin", List.of("ml"), List.of("trainer"));

    assertThat(client.post("/v1/jobs", null, "application/yaml", job()).status()).isEqualTo(401);
    var submitted = client.post("/v1/jobs", token, "application/yaml", job());
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
    jobId = submitted.json().get("id").asText();
    requestId = submitted.headers().get("x-request-id").get(0);
    // Polled here, not with awaitEnd, so that the test knows how many GETs it made.
    var deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    String state;
    do {
      var answer = client.get("/v1/jobs/" + jobId, token);
      polls++;
      assertThat(answer.status()).isEqualTo(200);
      state = answer.json().get("state").asText();
      if (System.nanoTime() > deadline) {
        throw new AssertionError("job never ended; last state " + state);
      }
      pause();
    } while (!List.of("SUCCEEDED", "FAILED", "CANCELLED").contains(state));
    assertThat(state).isEqualTo("SUCCEEDED");
    assertThat(client.get("/v1/jobs/" + "0".repeat(26), token).status()).isEqualTo(404);
    assertThat(client.get("/v1/no/such/" + UUID.randomUUID(), token).status()).isEqualTo(404);
    // A misconfigured client's token in the query string: refused as a parameter the endpoint
    // does not take, and kept out of the access log.
    var misconfigured = client.get("/v1/jobs?access_token=" + token, token);
    assertThat(misconfigured.status()).isEqualTo(400);
    assertThat(misconfigured.body()).contains("access_token").doesNotContain(token);
  }

  @AfterAll
  static void stopIssuer() {
    IDP.close();
  }

  @Test
  @Order(1)
  void httpRequestsAreCountedByRouteTemplateAndStatus() {
    var http = "trainyard_http_server_request_duration_seconds_count";
    var scrape =
        await(
            s ->
                s.valueOrZero(http, route("GET", "unmatched", "404")) == 1
                    && s.valueOrZero(http, route("GET", "/v1/jobs/{id}", "200")) == polls);
    assertThat(scrape.valueOrZero(http, route("POST", "/v1/jobs", "201"))).isEqualTo(1.0);
    assertThat(scrape.valueOrZero(http, route("POST", "/v1/jobs", "401"))).isEqualTo(1.0);
    assertThat(scrape.valueOrZero(http, route("GET", "/v1/jobs/{id}", "404"))).isEqualTo(1.0);
    // Never the raw path: no job id, no made-up path in any label.
    assertThat(scrape.samples())
        .noneMatch(s -> s.labels().values().stream().anyMatch(v -> v.contains(jobId)))
        .noneMatch(s -> s.labels().getOrDefault("route", "").contains("no/such"));
    assertThat(scrape.types())
        .containsEntry("trainyard_http_server_request_duration_seconds", "histogram");
    var inf = new java.util.HashMap<>(route("POST", "/v1/jobs", "201"));
    inf.put("le", "+Inf");
    assertThat(scrape.valueOrZero("trainyard_http_server_request_duration_seconds_bucket", inf))
        .isEqualTo(1.0);
  }

  @Test
  @Order(2)
  void backendCallsAreCountedByBackendAndOperation() {
    var calls = "trainyard_backend_call_duration_seconds_count";
    var scrape = scrape();
    assertThat(scrape.valueOrZero(calls, call("submit", "ok"))).isEqualTo(1.0);
    assertThat(scrape.valueOrZero(calls, call("submit", "error"))).isZero();
    assertThat(scrape.valueOrZero(calls, call("quote", "ok"))).isGreaterThanOrEqualTo(1.0);
    assertThat(scrape.valueOrZero(calls, call("status", "ok"))).isGreaterThanOrEqualTo(1.0);
    assertThat(scrape.valueOrZero(calls, call("health", "ok"))).isGreaterThanOrEqualTo(1.0);
    assertThat(scrape.samples())
        .filteredOn(s -> s.name().equals("trainyard_backend_call_errors_total"))
        .allMatch(s -> s.labels().get("operation").equals("cleanup") || s.value() == 0);
  }

  @Test
  @Order(3)
  void reconcilerAuditAndJwksAreMeasured() {
    var scrape = scrape();
    var local = Map.of("backend", "local");
    // The job was stepped at least through SUBMITTED, RUNNING and SUCCEEDED.
    assertThat(scrape.valueOrZero("trainyard_reconciler_step_lag_seconds_count", local))
        .isGreaterThanOrEqualTo(3.0);
    assertThat(scrape.valueOrZero("trainyard_reconciler_step_duration_seconds_count", local))
        .isGreaterThanOrEqualTo(3.0);
    assertThat(scrape.valueOrZero("trainyard_reconciler_pass_duration_seconds_count", Map.of()))
        .isGreaterThanOrEqualTo(3.0);
    assertThat(scrape.valueOrZero("trainyard_reconciler_last_pass_timestamp_seconds", Map.of()))
        .isGreaterThan(System.currentTimeMillis() / 1000.0 - 600);
    // The submission and each of the job's state changes appended audit events.
    assertThat(
            scrape.valueOrZero(
                "trainyard_audit_append_duration_seconds_count", Map.of("outcome", "ok")))
        .isGreaterThanOrEqualTo(4.0);
    assertThat(
            scrape.valueOrZero(
                "trainyard_audit_append_duration_seconds_count", Map.of("outcome", "error")))
        .isZero();
    // One token's key: discovery once, the key set once, however many requests it signed.
    assertThat(scrape.valueOrZero("trainyard_jwks_fetches_total", jwks("discovery", "ok")))
        .isEqualTo(1.0);
    assertThat(scrape.valueOrZero("trainyard_jwks_fetches_total", jwks("jwks", "ok")))
        .isEqualTo(1.0);
    assertThat(
            scrape.valueOrZero(
                "trainyard_jwks_fetch_duration_seconds_count", Map.of("document", "jwks")))
        .isEqualTo(1.0);
  }

  @Test
  @Order(4)
  void jettyAndTheDatabasePoolAreReadAsConfigured() {
    var scrape = scrape();
    assertThat(scrape.value("trainyard_jetty_threads_max", Map.of())).contains(64.0);
    // This scrape is being served by one of them.
    assertThat(scrape.valueOrZero("trainyard_jetty_threads_busy", Map.of()))
        .isGreaterThanOrEqualTo(1.0);
    assertThat(scrape.valueOrZero("trainyard_jetty_threads", Map.of()))
        .isLessThanOrEqualTo(64.0)
        .isGreaterThanOrEqualTo(scrape.valueOrZero("trainyard_jetty_threads_busy", Map.of()));
    assertThat(scrape.value("trainyard_jetty_queued_requests", Map.of())).isPresent();
    assertThat(scrape.valueOrZero("trainyard_jetty_connections", Map.of("connector", "admin")))
        .isGreaterThanOrEqualTo(1.0);
    assertThat(scrape.value("trainyard_jetty_connections", Map.of("connector", "application")))
        .isPresent();
    assertThat(scrape.value("trainyard_db_pool_max_connections", Map.of())).contains(7.0);
    var active = scrape.value("trainyard_db_pool_active_connections", Map.of()).orElseThrow();
    var idle = scrape.value("trainyard_db_pool_idle_connections", Map.of()).orElseThrow();
    assertThat(active + idle).isBetween(1.0, 7.0);
    assertThat(scrape.value("trainyard_db_pool_waiting_threads", Map.of())).contains(0.0);
  }

  @Test
  @Order(5)
  void everyLogLineIsJsonAndTheJobsLinesCarryItsFieldsAndNoSecret() throws IOException {
    Supplier<List<JsonNode>> read = InfrastructureMetricsGatewayIT::logLines;
    var deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    var lines = read.get();
    // The file appender writes asynchronously: wait for the job's end to be written.
    while (lines.stream().noneMatch(l -> l.path("message").asText().contains("-> SUCCEEDED"))) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no line of the job's end in " + LOG);
      }
      pause();
      lines = read.get();
    }
    var aboutJob = lines.stream().filter(l -> l.path("message").asText().contains(jobId)).toList();
    assertThat(aboutJob).hasSizeGreaterThanOrEqualTo(4); // stored, SUBMITTED, RUNNING, SUCCEEDED
    for (var line : aboutJob) {
      assertThat(line.path("jobId").asText()).as(line.toString()).isEqualTo(jobId);
      assertThat(line.path("team").asText()).as(line.toString()).isEqualTo("ml");
      assertThat(line.path("backend").asText()).as(line.toString()).isEqualTo("local");
      assertThat(line.path("level").asText()).isNotBlank();
      assertThat(line.has("timestamp")).isTrue();
    }
    // The line the API wrote when it stored the job carries the request's id.
    assertThat(aboutJob)
        .anyMatch(
            l ->
                l.path("message").asText().contains("stored PENDING")
                    && l.path("requestId").asText().equals(requestId));
    // The reconciler's lines (no request) carry the job's fields all the same.
    assertThat(aboutJob)
        .anyMatch(l -> l.path("message").asText().contains("-> RUNNING") && !l.has("requestId"));

    var text = Files.readString(LOG);
    for (var secret : List.of(token, token.substring(token.lastIndexOf('.') + 1), DB_PASSWORD)) {
      assertThat(text).doesNotContain(secret);
    }
    assertThat(text).doesNotContain(SECRET_VALUE).doesNotContain(HMAC_KEY);
  }

  @Test
  @Order(6)
  void theAccessLogIsJsonToo() {
    var deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    var lines = logLines(REQUEST_LOG);
    // Dropwizard's access-json fields: uri without the query, method, status, time, address.
    while (lines.stream()
        .noneMatch(
            l ->
                l.path("uri").asText().equals("/v1/jobs")
                    && l.path("method").asText().equals("GET"))) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the request with a token in its query was never logged");
      }
      pause();
      lines = logLines(REQUEST_LOG);
    }
    assertThat(lines).anyMatch(l -> l.toString().contains("/v1/jobs/" + jobId));
    assertThat(lines).noneMatch(l -> l.toString().contains(token.substring(0, 40)));
  }

  private static List<JsonNode> logLines() {
    return logLines(LOG);
  }

  /** Every complete line of a log file, each parsed as a JSON object (any other fails). */
  private static List<JsonNode> logLines(Path file) {
    try {
      var text = Files.exists(file) ? Files.readString(file) : "";
      var complete = text.substring(0, text.lastIndexOf('\n') + 1);
      var parsed = new ArrayList<JsonNode>();
      for (var line : complete.split("\n")) {
        if (line.isEmpty()) {
          continue;
        }
        var node = JSON.readTree(line);
        assertThat(node.isObject()).as(line).isTrue();
        parsed.add(node);
      }
      return parsed;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Map<String, String> route(String method, String route, String status) {
    return Map.of("method", method, "route", route, "status", status);
  }

  private static Map<String, String> call(String operation, String outcome) {
    return Map.of("backend", "local", "operation", operation, "outcome", outcome);
  }

  private static Map<String, String> jwks(String document, String outcome) {
    return Map.of("document", document, "outcome", outcome);
  }

  private static PrometheusText scrape() {
    var answer = admin.get("/prometheus", null);
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    return PrometheusText.parse(answer.body());
  }

  /** Scrapes until {@code ready}: a request is observed once its answer is written. */
  private static PrometheusText await(Predicate<PrometheusText> ready) {
    var deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    var last = scrape();
    while (!ready.test(last)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the scrape never got there; last:\n" + last.samples());
      }
      pause();
      last = scrape();
    }
    return last;
  }

  private static void pause() {
    try {
      Thread.sleep(100);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String job() {
    return """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: observed}
        spec:
          framework: pytorch
          image: python:3.11-slim
          command: [sleep, "1"]
          secretEnv: {WANDB_API_KEY: {secret: wandb, key: api-key}}
          replicas: {master: 1}
          restartPolicy: Never
        """;
  }

  private static String hmacKey() {
    var key = new byte[32];
    new SecureRandom().nextBytes(key);
    return Base64.getEncoder().encodeToString(key);
  }

  private static DropwizardAppExtension<TrainyardConfiguration> app() {
    DigestSigner.loadOrGenerate(DIR);
    try {
      var secret = DIR.resolve("secrets/ml/wandb/api-key");
      Files.createDirectories(secret.getParent());
      Files.writeString(secret, SECRET_VALUE);
      var yaml =
          """
          dataDir: %1$s
          database:
            url: "jdbc:h2:file:%1$s/db;DB_CLOSE_ON_EXIT=FALSE"
            user: trainyard
            password: "%3$s"
            maxPoolSize: 7
          audit:
            signingKeyFile: %1$s/%4$s
            hmacKey: %5$s
          auth:
            mode: oidc
            issuer: http://replaced-at-start/realms/none
            audience: trainyard
          reconciler:
            resyncInterval: 200ms
          logging:
            level: INFO
            appenders:
              - type: file
                currentLogFilename: "%1$s/gateway.json"
                archive: false
                layout: {type: json, flattenMdc: true}
          server:
            maxThreads: 64
            applicationConnectors: [{type: http, port: 0, bindHost: 127.0.0.1}]
            adminConnectors: [{type: http, port: 0}]
            requestLog:
              appenders:
                - type: file
                  currentLogFilename: "%1$s/requests.json"
                  archive: false
                  layout: {type: access-json}
          teams:
            ml: {backends: [local]}
          backends:
            - type: local
              codeDir: %2$s
              secretsDir: %1$s/secrets
          """
              .formatted(DIR, REPO, DB_PASSWORD, DigestSigner.PRIVATE_KEY_FILE, HMAC_KEY);
      var file = DIR.resolve("trainyard.yml");
      Files.writeString(file, yaml);
      return new DropwizardAppExtension<>(
          TrainyardApplication.class,
          file.toString(),
          ConfigOverride.config("auth.issuer", IDP.issuer()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
