package io.trainyard.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.auth.DevIssuer;
import io.trainyard.gateway.TrainyardApplication;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.auth.AccessFeature;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.testing.GatewayClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

/**
 * The hardening of issue #13 on the real gateway (H2, dev auth, the local backend running real
 * processes, and a backend whose cloud is down at start): follow limits, cancel rights, backend
 * faults at start, escaped log lines and a redacted access log.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class OperationalLimitsIT {
  private static final Path DIR = GatewayClient.tempDir("trainyard-limits");
  private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
  private static final Path OUTAGE = DIR.resolve("gke-outage");

  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      new DropwizardAppExtension<>(
          TrainyardApplication.class,
          writeConfig(),
          ConfigOverride.config("server.applicationConnectors[0].port", "0"),
          ConfigOverride.config("server.adminConnectors[0].port", "0"));

  private static GatewayClient client;
  private static String alice;
  private static String erin;
  private static String bob;
  private static String carol;
  private static String nlpAdmin;
  private static final List<String> JOBS = new ArrayList<>();

  @BeforeAll
  static void tokens() {
    client = new GatewayClient(APP.getLocalPort());
    var issuer = DevIssuer.loadOrCreate(DIR, AuthConfig.DEV_ISSUER);
    alice = issuer.mint("alice", Set.of("nlp"), Set.of("trainer"), Duration.ofHours(1));
    erin = issuer.mint("erin", Set.of("nlp"), Set.of("trainer"), Duration.ofHours(1));
    carol = issuer.mint("carol", Set.of("nlp"), Set.of("trainer"), Duration.ofHours(1));
    bob = issuer.mint("bob", Set.of("vision"), Set.of("trainer"), Duration.ofHours(1));
    nlpAdmin = issuer.mint("dave", Set.of("nlp"), Set.of("team-admin"), Duration.ofHours(1));
  }

  @AfterAll
  static void cancelWhatIsLeft() {
    for (var id : JOBS) {
      client.delete("/v1/jobs/" + id, nlpAdmin);
    }
  }

  @Test
  void aBackendWhoseCloudIsDownAtStartIsShownUnhealthyAndStartsByItselfWhenItIsBack()
      throws Exception {
    var down = backend("gke-usc1");
    assertThat(down.path("healthy").asBoolean()).isFalse();
    assertThat(down.path("message").asText())
        .isEqualTo("not started: gke-usc1: the cluster API answered 503 Service Unavailable");
    assertThat(backend("local").path("healthy").asBoolean()).isTrue();
    // The admin port reports the backend; readiness does not depend on it (a pod taken out of
    // its Service for a cloud's outage would only add an outage of its own).
    assertThat(admin("/healthcheck").statusCode()).isEqualTo(500);
    var ready = admin("/ready");
    assertThat(ready.statusCode()).as(ready.body()).isEqualTo(200);
    assertThat(ready.body())
        .contains("\"ready\":true")
        .contains("\"database\":\"healthy\"")
        .doesNotContain("backend-");

    Files.delete(OUTAGE);
    var deadline = Instant.now().plusSeconds(30);
    while (!backend("gke-usc1").path("healthy").asBoolean() && Instant.now().isBefore(deadline)) {
      Thread.sleep(100);
    }
    assertThat(backend("gke-usc1").path("healthy").asBoolean()).isTrue();
  }

  private static java.net.http.HttpResponse<String> admin(String path) throws Exception {
    return java.net.http.HttpClient.newHttpClient()
        .send(
            java.net.http.HttpRequest.newBuilder(
                    java.net.URI.create("http://127.0.0.1:" + APP.getAdminPort() + path))
                .build(),
            java.net.http.HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void followsAreBoundedPerCallerAndInTotalAndEndAfterTheMaximum() throws Exception {
    var mine = submit(alice, "follow-a");
    var bobs = submit(bob, "follow-b");
    var held = new ArrayList<InputStream>();
    try {
      held.add(follow(mine, alice, 200));
      held.add(follow(mine, alice, 200));

      var third = client.get("/v1/jobs/" + mine + "/logs?follow=true", alice);
      assertThat(third.status()).isEqualTo(429);
      assertThat(third.headers().get("retry-after")).containsExactly("7");
      assertThat(third.json().get("code").asText()).isEqualTo("TOO_MANY_REQUESTS");
      assertThat(third.json().at("/errors/0/field").asText()).isEqualTo("follow");
      assertThat(third.json().get("message").asText()).contains("already follow 2 log streams");
      assertThat(third.json().get("requestId").asText()).isNotBlank();
      // Reading without follow holds no thread and is never limited.
      assertThat(client.get("/v1/jobs/" + mine + "/logs", alice).status()).isEqualTo(200);

      held.add(follow(bobs, bob, 200));
      var fourth = client.get("/v1/jobs/" + mine + "/logs?follow=true", carol);
      assertThat(fourth.status()).isEqualTo(429);
      assertThat(fourth.json().get("message").asText()).contains("already serves 3 followed");

      // A follow ends after logFollow.maxDuration, saying how to resume.
      var text = readAll(held.get(0));
      assertThat(text).contains("[master-0] started");
      assertThat(text).containsPattern("--- follow ended after PT10S .*since=\\S+ ---");
      // A quiet job's follow says now and then that it is still there.
      assertThat(text).contains("--- no output for 500 ms; still following ---");
      for (var stream : held) {
        readAll(stream);
      }
      assertThat(
              client
                  .get("/v1/jobs/" + mine + "/logs?follow=true&since=" + Instant.now(), carol)
                  .status())
          .as("every place is given back when the follows end")
          .isEqualTo(200);
    } finally {
      for (var stream : held) {
        stream.close();
      }
    }
  }

  @Test
  void aQuietJobsFollowWhoseReaderWentAwayGivesItsPlaceBackLongBeforeItsMaximum() throws Exception {
    var done =
        client.post(
            "/v1/jobs",
            nlpAdmin,
            "application/yaml",
            """
            apiVersion: trainyard.io/v1
            kind: TrainingJob
            metadata: {name: follow-done}
            spec:
              framework: pytorch
              image: python:3.11-slim
              command: [python3, -c, "print('done')"]
              replicas: {master: 1}
            """);
    assertThat(done.status()).as(done.body()).isEqualTo(201);
    var ended = done.json().get("id").asText();
    client.awaitState(ended, "SUCCEEDED", nlpAdmin);
    var quiet = submit(nlpAdmin, "follow-quiet");
    for (int i = 0; i < 2; i++) {
      // A client that reads the answer's head, then goes away without a word.
      try (var socket = new java.net.Socket("127.0.0.1", APP.getLocalPort())) {
        socket
            .getOutputStream()
            .write(
                ("GET /v1/jobs/"
                        + quiet
                        + "/logs?follow=true HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                        + nlpAdmin
                        + "\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
        var in =
            new BufferedReader(
                new InputStreamReader(socket.getInputStream(), StandardCharsets.ISO_8859_1));
        assertThat(in.readLine()).as("the head comes at once, before any line").contains(" 200 ");
      }
    }
    // Both places are held now (the third follow, of a job that has ended, is refused) until the
    // heartbeats find the readers gone: long before logFollow.maxDuration (10 s).
    var closed = System.nanoTime();
    int status = 0;
    while (System.nanoTime() - closed < Duration.ofSeconds(8).toNanos()) {
      status = client.get("/v1/jobs/" + ended + "/logs?follow=true", nlpAdmin).status();
      if (status == 200) {
        break;
      }
      assertThat(status).isEqualTo(429);
      Thread.sleep(100);
    }
    assertThat(status).as("a place given back before logFollow.maxDuration").isEqualTo(200);
  }

  @Test
  void oneCallersRequestsInProgressAreBoundedAndTheirPlacesComeBackWhenTheyEnd() throws Exception {
    // Six requests whose bodies trickle in: four hold carol's four places (callerRequests: 4),
    // two are answered 429 at once, whichever of them Jetty happens to dispatch last.
    var held = new ArrayList<java.net.Socket>();
    try {
      for (int i = 0; i < 6; i++) {
        var socket = new java.net.Socket("127.0.0.1", APP.getLocalPort());
        socket.setSoTimeout(50);
        held.add(socket);
        socket
            .getOutputStream()
            .write(
                ("POST /v1/quotes HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                        + carol
                        + "\r\nContent-Type: application/yaml\r\nContent-Length: 4000\r\n\r\n"
                        + "apiVersion: trainyard.io/v1\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
      }
      var answered = new ArrayList<String>();
      var deadline = System.nanoTime() + Duration.ofSeconds(8).toNanos();
      while (answered.size() < 2 && System.nanoTime() < deadline) {
        for (var socket : held) {
          try {
            var head = new byte[64];
            int n = socket.getInputStream().read(head);
            if (n > 0) {
              answered.add(new String(head, 0, n, StandardCharsets.ISO_8859_1));
            }
          } catch (java.net.SocketTimeoutException stillHeld) {
            // no answer yet: it holds a place
          }
        }
      }
      assertThat(answered).hasSize(2).allMatch(head -> head.startsWith("HTTP/1.1 429 "));
      // Nothing else of carol's is in flight now: her next request finds the four places taken.
      var refused = client.get("/v1/jobs?limit=1", carol);
      assertThat(refused.status()).as(refused.body()).isEqualTo(429);
      assertThat(refused.headers().get("retry-after")).containsExactly("3");
      assertThat(refused.json().at("/errors/0/field").asText()).isEqualTo("request");
      assertThat(refused.json().get("message").asText())
          .contains("4 requests in progress on this gateway");
      // Another caller of the same team is not held back by carol's.
      assertThat(client.get("/v1/jobs?limit=1", erin).status()).isEqualTo(200);
    } finally {
      for (var socket : held) {
        socket.close();
      }
    }
    // A dropped connection gives its place back: carol is served again.
    waitFor(() -> client.get("/v1/jobs?limit=1", carol), 200);
  }

  private static GatewayClient.Answer waitFor(
      java.util.function.Supplier<GatewayClient.Answer> call, int status)
      throws InterruptedException {
    var deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    var answer = call.get();
    while (answer.status() != status && System.nanoTime() < deadline) {
      Thread.sleep(50);
      answer = call.get();
    }
    assertThat(answer.status()).as(answer.body()).isEqualTo(status);
    return answer;
  }

  @Test
  void aJsonAnswerIsSentWholeWithItsLengthAndStillCompressedWhenAsked() throws Exception {
    var id = submit(erin, "sized-answer");
    for (var path : List.of("/v1/jobs/" + id, "/v1/jobs/01nosuchjob000000000000000")) {
      var answer = client.get(path, erin);
      assertThat(answer.status()).isIn(200, 404);
      assertThat(answer.headers().get("content-length"))
          .as(path)
          .containsExactly(String.valueOf(answer.body().getBytes(StandardCharsets.UTF_8).length));
      assertThat(answer.headers()).as(path).doesNotContainKey("transfer-encoding");
    }
    var compressed =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + APP.getLocalPort() + "/v1/jobs?limit=50"))
                    .header("Authorization", "Bearer " + erin)
                    .header("Accept-Encoding", "gzip")
                    .build(),
                HttpResponse.BodyHandlers.ofByteArray());
    assertThat(compressed.statusCode()).isEqualTo(200);
    assertThat(compressed.headers().firstValue("content-encoding")).contains("gzip");
    compressed
        .headers()
        .firstValueAsLong("content-length")
        .ifPresent(length -> assertThat(length).isEqualTo(compressed.body().length));
    try (var in =
        new java.util.zip.GZIPInputStream(new java.io.ByteArrayInputStream(compressed.body()))) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).contains(id);
    }
  }

  @Test
  void logsOfAReplicaTheJobCannotHaveAre404NamingTheOnesItHas() {
    var id = submit(erin, "replica-names");
    for (var wrong : List.of("nope", "master-1", "worker-0", "Master-0")) {
      var answer = client.get("/v1/jobs/" + id + "/logs?replica=" + wrong, erin);
      assertThat(answer.status()).as(wrong + ": " + answer.body()).isEqualTo(404);
      assertThat(answer.json().at("/errors/0/field").asText()).isEqualTo("replica");
      assertThat(answer.json().get("message").asText()).contains("its replicas are master-0");
    }
    assertThat(client.get("/v1/jobs/" + id + "/logs?replica=master-0", erin).status())
        .isEqualTo(200);
  }

  @Test
  void trainersCancelTheirOwnJobsAndTeamAdminsAnyOfTheirTeam() {
    var id = submit(alice, "not-yours");
    assertThat(client.get("/v1/jobs/" + id, erin).status())
        .as("teammates still read")
        .isEqualTo(200);
    var refused = client.delete("/v1/jobs/" + id, erin);
    assertThat(refused.status()).isEqualTo(403);
    assertThat(refused.json().get("code").asText()).isEqualTo("FORBIDDEN");
    assertThat(refused.json().get("message").asText())
        .contains("submitted by alice")
        .contains("only its submitter or a team-admin of nlp may cancel it");
    assertThat(client.get("/v1/jobs/" + id, erin).json().get("cancelRequested").asBoolean(false))
        .isFalse();
    var auditor =
        DevIssuer.loadOrCreate(DIR, AuthConfig.DEV_ISSUER)
            .mint("carol", Set.of("nlp"), Set.of("auditor"), Duration.ofHours(1));
    assertThat(client.get("/v1/audit?action=auth.denied", auditor).body())
        .as("a refused cancel is evidence like any refusal")
        .contains("DELETE /v1/jobs/" + id)
        .contains("\"username\":\"erin\"");
    assertThat(client.delete("/v1/jobs/" + id, bob).status()).isEqualTo(404);
    assertThat(client.delete("/v1/jobs/" + id, nlpAdmin).status()).isEqualTo(202);

    var own = submit(erin, "mine-to-cancel");
    assertThat(client.delete("/v1/jobs/" + own, erin).status()).isEqualTo(202);
  }

  @Test
  void aTokenHeaderCannotForgeLogLines() {
    var appender = new ListAppender<ILoggingEvent>();
    appender.start();
    var logger = (Logger) LoggerFactory.getLogger(AccessFeature.class);
    logger.addAppender(appender);
    try {
      var header =
          "{\"alg\":\"RS256\",\"kid\":\"k\",\"typ\":\"JWT\\r\\nERROR FORGED admin login\"}";
      var token = b64(header) + "." + b64("{\"sub\":\"x\"}") + ".c2ln";
      assertThat(client.get("/v1/jobs", token).status()).isEqualTo(401);
      var lines =
          appender.list.stream().map(ILoggingEvent::getFormattedMessage).toList().toString();
      assertThat(lines).contains("JWT\\r\\nERROR FORGED").doesNotContain("\n").doesNotContain("\r");
      // More of the same from the same place this minute: counted by the audit log, not logged.
      for (int i = 0; i < 5; i++) {
        assertThat(client.get("/v1/jobs", token).status()).isEqualTo(401);
      }
      assertThat(
              appender.list.stream()
                  .filter(e -> e.getFormattedMessage().startsWith("token refused from"))
                  .count())
          .isEqualTo(1);
    } finally {
      logger.detachAppender(appender);
    }
  }

  @Test
  void anAccessTokenInTheQueryStringIsRedactedInTheAccessLog() throws Exception {
    var marker = "marker" + System.nanoTime();
    client.get("/v1/backends?access_token=" + alice + "&mark=" + marker, alice);
    client.get("/v1/backends?Access%5Ftoken=" + erin + "&mark=" + marker, null);
    var log = DIR.resolve("access.log");
    var deadline = Instant.now().plusSeconds(20);
    String text = "";
    while (Instant.now().isBefore(deadline)) {
      text = Files.exists(log) ? Files.readString(log) : "";
      if (text.split(marker, -1).length > 2) {
        break;
      }
      Thread.sleep(100);
    }
    assertThat(text).contains("access_token=REDACTED&mark=" + marker);
    assertThat(text).contains("Access%5Ftoken=REDACTED&mark=" + marker);
    assertThat(text).doesNotContain(alice).doesNotContain(erin);
  }

  @Test
  void aJobThatPrintsItsSecretLeavesItNowhereTheGatewayStoresOrServes() throws Exception {
    var secret = "wandb-" + java.util.UUID.randomUUID();
    var file = DIR.resolve("secrets/nlp/wandb/api-key");
    Files.createDirectories(file.getParent());
    Files.writeString(file, secret + "\n");
    var jwt = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJtZSJ9.c2lnbmF0dXJlLWhlcmU";
    // The spec holds the token shapes only in pieces: what is searched for is what the job printed.
    var spec =
        """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: leaky}
        spec:
          framework: pytorch
          image: python:3.11-slim
          command: [python3, -u, -c, "import os; print('key', os.environ['WANDB_API_KEY']); \
        print('Authorization: Bearer', 'eyJhbGciOiJSUzI1NiJ9.ey' + 'JzdWIiOiJtZSJ9.c2lnbmF0dXJlLWhlcmU'); \
        print('aws', 'AKIA' + 'IOSFODNN7EXAMPLE'); raise SystemExit(3)"]
          secretEnv: {WANDB_API_KEY: {secret: wandb, key: api-key}}
          replicas: {master: 1}
          restartPolicy: Never
        """;
    var answer = client.post("/v1/jobs", alice, "application/yaml", spec);
    assertThat(answer.status()).as(answer.body()).isEqualTo(201);
    var id = answer.json().get("id").asText();
    var job = client.awaitState(id, "FAILED", alice);
    assertThat(job.get("reason").asText())
        .as("the last lines are still the reason, with the secrets taken out")
        .contains("exited with code 3")
        .contains("key [REDACTED]")
        .contains("Authorization: Bearer [REDACTED]")
        .contains("aws [REDACTED]");

    var auditor =
        DevIssuer.loadOrCreate(DIR, AuthConfig.DEV_ISSUER)
            .mint("carol", Set.of("nlp"), Set.of("auditor"), Duration.ofHours(1));
    var served =
        List.of(
            job.toString(),
            client.get("/v1/jobs/" + id + "/events", alice).body(),
            client.get("/v1/jobs/" + id + "/logs", alice).body(),
            client.get("/v1/audit?limit=1000", auditor).body());
    assertThat(served.get(2)).contains("[master-0] key [REDACTED]");
    var stored = new ArrayList<>(served);
    try (var c =
            java.sql.DriverManager.getConnection(
                "jdbc:h2:file:" + DIR + "/db;DB_CLOSE_ON_EXIT=FALSE", "trainyard", "");
        var rs = c.createStatement().executeQuery("SCRIPT")) {
      while (rs.next()) {
        stored.add(rs.getString(1));
      }
    }
    for (var needle : List.of(secret, jwt, "AKIAIOSFODNN7EXAMPLE")) {
      assertThat(stored).noneMatch(text -> text.contains(needle));
    }
  }

  private static com.fasterxml.jackson.databind.JsonNode backend(String id) {
    for (var b : client.get("/v1/backends", alice).json().get("backends")) {
      if (b.get("id").asText().equals(id)) {
        return b;
      }
    }
    throw new AssertionError("no backend " + id);
  }

  private static String submit(String token, String name) {
    var spec =
        """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: %s}
        spec:
          framework: pytorch
          image: python:3.11-slim
          command: [python3, -u, -c, "print('started'); import time; time.sleep(60)"]
          replicas: {master: 1}
        """
            .formatted(name);
    var answer = client.post("/v1/jobs", token, "application/yaml", spec);
    assertThat(answer.status()).as(answer.body()).isEqualTo(201);
    var id = answer.json().get("id").asText();
    JOBS.add(id);
    client.awaitState(id, "RUNNING", token);
    return id;
  }

  /** Opens a follow and waits until its first line arrives, so the place is surely taken. */
  private static InputStream follow(String id, String token, int status) throws Exception {
    var request =
        HttpRequest.newBuilder(
                URI.create(
                    "http://127.0.0.1:"
                        + APP.getLocalPort()
                        + "/v1/jobs/"
                        + id
                        + "/logs?follow=true"))
            .header("Authorization", "Bearer " + token)
            .build();
    var response =
        HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofInputStream());
    assertThat(response.statusCode()).isEqualTo(status);
    return response.body();
  }

  private static String readAll(InputStream in) throws IOException {
    var out = new StringBuilder();
    var reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
    for (var line = reader.readLine(); line != null; line = reader.readLine()) {
      out.append(line).append('\n');
    }
    return out.toString();
  }

  private static String b64(String json) {
    return Base64.getUrlEncoder()
        .withoutPadding()
        .encodeToString(json.getBytes(StandardCharsets.UTF_8));
  }

  private static String writeConfig() {
    try {
      Files.createFile(OUTAGE);
      var yaml =
          """
          dataDir: %1$s
          database:
            url: "jdbc:h2:file:%1$s/db;DB_CLOSE_ON_EXIT=FALSE"
          auth:
            mode: dev
          reconciler:
            resyncInterval: 200ms
          backendHealth:
            checkEvery: 200ms
            retryStartEvery: 200ms
          callerRequests:
            maxConcurrent: 4
            retryAfter: 3s
          logFollow:
            maxPerCaller: 2
            maxTotal: 3
            maxDuration: 10s
            retryAfter: 7s
            heartbeat: 500ms
          server:
            applicationConnectors: [{type: http, port: 0, bindHost: 127.0.0.1}]
            adminConnectors: [{type: http, port: 0}]
            requestLog:
              appenders:
                - type: file
                  currentLogFilename: %1$s/access.log
                  archive: false
          backends:
            - type: local
              codeDir: %2$s
              secretsDir: %1$s/secrets
            - type: switched
              id: gke-usc1
              region: us-central1
              downWhile: %3$s
          """
              .formatted(DIR, REPO, OUTAGE);
      var file = DIR.resolve("trainyard.yml");
      Files.writeString(file, yaml);
      return file.toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
