package io.trainyard.gateway.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.DropwizardTestSupport;
import io.trainyard.auth.DevIssuer;
import io.trainyard.gateway.TrainyardApplication;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.testing.GatewayClient;
import io.trainyard.gateway.testing.RawHttp;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Fuzzes the HTTP API of a real gateway (H2, dev auth, the local backend) with random methods,
 * paths (with encoded dots, slashes, NULs, invalid UTF-8), query parameters, headers and bodies
 * (hostile job documents, random bytes), written by hand on a socket so nothing is cleaned up on
 * the way. Every answer must be below 500, and every 4xx must be the JSON error shape with each
 * error naming a field. POSTs to {@code /v1/jobs} always carry a {@code dryRun} value, so no
 * generated command is ever run. Requests: {@link FuzzRun} (500 in {@code mvn verify}, 25,000 with
 * {@code -Pfuzz}).
 */
class HttpApiFuzzIT {
  private static final Path DIR = GatewayClient.tempDir("trainyard-fuzz");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HostileDocuments TRAINYARD = HostileDocuments.trainyard();
  private static final HostileDocuments KUBEFLOW = HostileDocuments.kubeflow();
  private static final AtomicLong REQUESTS = new AtomicLong();
  private static final Map<Integer, AtomicLong> BY_STATUS = new ConcurrentHashMap<>();
  private static final long STARTED = System.nanoTime();

  private static final List<String> METHODS =
      List.of(
          "GET", "GET", "GET", "GET", "POST", "POST", "POST", "POST", "DELETE", "PUT", "PATCH",
          "OPTIONS", "HEAD");
  private static final List<String> PATHS =
      List.of(
          "/v1/jobs",
          "/v1/jobs/{id}",
          "/v1/jobs/{id}/logs",
          "/v1/jobs/{id}/events",
          "/v1/quotes",
          "/v1/audit",
          "/v1/audit/exports",
          "/v1/audit/public-key",
          "/v1/backends",
          "/v1/teams/{team}/spend",
          "/v1/algorithms",
          "/v1/algorithms/{team}/bert",
          "/v1/algorithms/{team}/bert/versions/1",
          "/openapi.json",
          "/dev-idp/jwks.json",
          "/{junk}",
          "/v1/{junk}/jobs");
  private static final List<String> PARAMETERS =
      List.of(
          "limit",
          "state",
          "follow",
          "replica",
          "since",
          "afterSeq",
          "actor",
          "team",
          "action",
          "backend",
          "from",
          "to",
          "month",
          "access_token",
          "dryRun");
  private static final List<String> VALUES =
      List.of(
          "true",
          "false",
          "maybe",
          "1",
          "0",
          "-1",
          "abc",
          "",
          "100",
          "1001",
          "99999999999999999999",
          "1.5",
          "2026-11-30T10:00:00Z",
          "2026-13",
          "2026-11",
          "RUNNING",
          "succeeded",
          "nope",
          "master-0",
          "%00",
          "%ff",
          "%ed%a0%80",
          "%0d%0aX-Injected:%201",
          "%2e%2e",
          "%2f",
          "a%20b",
          "%e2%80%ae",
          "x".repeat(3_000));
  private static final List<String> JUNK =
      List.of(
          "j-1",
          "%2e%2e",
          "%2e",
          "..",
          "%2f",
          "%5c",
          "%00",
          "%ff",
          "%ed%a0%80",
          "%e2%80%ae",
          "",
          "a;b",
          "a%3bb",
          "~",
          "x".repeat(2_000),
          "nlp",
          "NLP",
          "%252e");
  private static final List<String> CONTENT_TYPES =
      List.of(
          "application/json",
          "application/yaml",
          "text/plain",
          "application/x-yaml",
          "multipart/form-data; boundary=x",
          "application/json; charset=utf-16",
          "garbage",
          "");

  private static DropwizardTestSupport<TrainyardConfiguration> app;
  private static RawHttp raw;
  private static List<String> tokens;
  private static String jobId;

  private static final FuzzRun RUN = FuzzRun.configured();

  @BeforeAll
  static void start() throws Exception {
    app =
        new DropwizardTestSupport<>(
            TrainyardApplication.class,
            writeConfig(),
            ConfigOverride.config("server.applicationConnectors[0].port", "0"),
            ConfigOverride.config("server.adminConnectors[0].port", "0"));
    app.before();
    raw = new RawHttp(app.getLocalPort());
    var issuer = DevIssuer.loadOrCreate(DIR, AuthConfig.DEV_ISSUER);
    var day = Duration.ofHours(24);
    tokens =
        List.of(
            issuer.mint("alice", Set.of("nlp"), Set.of("trainer"), day),
            issuer.mint("carol", Set.of("nlp"), Set.of("auditor"), day),
            issuer.mint("dave", Set.of("nlp"), Set.of("team-admin"), day),
            issuer.mint("erin", Set.of(), Set.of("platform-admin"), day),
            issuer.mint("mallory", Set.of("nope"), Set.of(), day));
    // One real job, so that paths with an id also reach the code behind the 404.
    var job =
        new GatewayClient(app.getLocalPort())
            .post(
                "/v1/jobs",
                tokens.get(0),
                "application/json",
                """
                {"apiVersion": "trainyard.io/v1", "kind": "TrainingJob", "metadata": {"name": "f"},
                 "spec": {"framework": "pytorch", "image": "i", "command": ["true"],
                 "replicas": {"master": 1}}}
                """);
    assertThat(job.status()).as(job.body()).isEqualTo(201);
    jobId = job.json().get("id").asText();
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.after();
    }
    System.out.printf(
        "HTTP API fuzz (seed %d): %d requests, 0 answers of 5xx, statuses %s, %d ms%n",
        RUN.seed(),
        REQUESTS.get(),
        new java.util.TreeMap<>(BY_STATUS),
        (System.nanoTime() - STARTED) / 1_000_000);
  }

  @Test
  void everyAnswerIsBelow500AndEveryRefusalNamesAField() {
    RUN.check(
        random -> request(random, TRAINYARD.generate(random), KUBEFLOW.generate(random)),
        HttpApiFuzzIT::check);
  }

  private static void check(byte[] request) {
    var reply = raw.send(request);
    REQUESTS.incrementAndGet();
    BY_STATUS.computeIfAbsent(reply.status(), s -> new AtomicLong()).incrementAndGet();
    var shown = preview(request) + "\n=> " + reply.head() + "\n" + reply.body();
    assertThat(reply.status()).as(shown).isBetween(100, 499);
    if (reply.status() >= 400 && !startsWith(request, "HEAD ")) {
      assertThat(reply.isJson()).as(shown).isTrue();
      JsonNode body;
      try {
        body = JSON.readTree(reply.body());
      } catch (IOException e) {
        throw new AssertionError("not JSON: " + shown, e);
      }
      assertThat(body.path("code").asText()).as(shown).isNotBlank();
      assertThat(body.path("message").asText()).as(shown).isNotBlank();
      assertThat(body.path("requestId").asText()).as(shown).isNotBlank();
      assertThat(body.path("errors")).as(shown).isNotEmpty();
      body.path("errors").forEach(e -> assertThat(e.path("field").asText()).as(shown).isNotBlank());
    }
  }

  private static byte[] request(Random random, byte[] spec, byte[] kubeflow) {
    var method = pick(METHODS, random);
    var path =
        pick(PATHS, random)
            .replace("{id}", random.nextInt(3) == 0 ? pick(JUNK, random) : jobId)
            .replace("{team}", random.nextBoolean() ? "nlp" : pick(JUNK, random))
            .replace("{junk}", pick(JUNK, random));
    var query = new ArrayList<String>();
    for (int i = random.nextInt(4); i > 0; i--) {
      query.add(pick(PARAMETERS, random) + "=" + pick(VALUES, random));
    }
    if (method.equals("POST") && path.equals("/v1/jobs")) {
      // Never a real submission: a dry run, or a value that must be refused.
      query.removeIf(q -> q.startsWith("dryRun="));
      query.add("dryRun=" + pick(List.of("true", "TRUE", "maybe", "1", "", "%00"), random));
    }
    var target = path + (query.isEmpty() ? "" : "?" + String.join("&", query));
    var head = new StringBuilder(method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    switch (random.nextInt(6)) {
      case 0 -> {}
      case 1 -> head.append("Authorization: Bearer x.y.z\r\n");
      case 2 -> head.append("Authorization: Basic YTpi\r\n");
      default -> head.append("Authorization: Bearer ").append(pick(tokens, random)).append("\r\n");
    }
    var type = pick(CONTENT_TYPES, random);
    if (!type.isEmpty()) {
      head.append("Content-Type: ").append(type).append("\r\n");
    }
    if (random.nextInt(4) == 0) {
      head.append("Accept: ")
          .append(pick(List.of("text/html", "application/xml", "*/*", "x/y;q=oops"), random))
          .append("\r\n");
    }
    if (random.nextInt(4) == 0) {
      head.append("Idempotency-Key: ").append(pick(VALUES, random)).append("\r\n");
    }
    if (random.nextInt(4) == 0) {
      head.append("X-Request-Id: ").append(pick(VALUES, random)).append("\r\n");
    }
    byte[] body =
        switch (random.nextInt(5)) {
          case 0 -> new byte[0];
          case 1 -> {
            var bytes = new byte[random.nextInt(300)];
            random.nextBytes(bytes);
            yield bytes;
          }
          case 2 -> kubeflow;
          default -> spec;
        };
    if (method.equals("GET") || method.equals("DELETE") || method.equals("OPTIONS")) {
      body = random.nextInt(8) == 0 ? body : new byte[0];
    }
    head.append("Content-Length: ").append(body.length).append("\r\n");
    head.append("Connection: close\r\n\r\n");
    var out = new ByteArrayOutputStream();
    out.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
    out.writeBytes(body);
    return out.toByteArray();
  }

  private static boolean startsWith(byte[] request, String prefix) {
    return new String(request, 0, Math.min(request.length, prefix.length()), StandardCharsets.UTF_8)
        .equals(prefix);
  }

  private static String preview(byte[] request) {
    var text = new String(request, StandardCharsets.UTF_8);
    return text.length() > 2_000 ? text.substring(0, 2_000) + "..." : text;
  }

  private static <T> T pick(List<T> values, Random random) {
    return values.get(random.nextInt(values.size()));
  }

  private static String writeConfig() {
    var yaml =
        """
        dataDir: %s
        database:
          url: "jdbc:h2:file:%s/db;DB_CLOSE_ON_EXIT=FALSE"
        auth:
          mode: dev
        logging:
          level: WARN
        server:
          requestLog:
            appenders: []
          applicationConnectors: [{type: http, port: 0, bindHost: 127.0.0.1}]
          adminConnectors: [{type: http, port: 0}]
        backends:
          - type: local
        """
            .formatted(DIR, DIR);
    try {
      var file = DIR.resolve("trainyard.yml");
      Files.writeString(file, yaml);
      return file.toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
