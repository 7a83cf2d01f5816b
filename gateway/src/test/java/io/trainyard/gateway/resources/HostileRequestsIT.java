package io.trainyard.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.testing.DevApp;
import io.trainyard.gateway.testing.GatewayClient;
import io.trainyard.gateway.testing.RawHttp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue #13's hostile requests against the real gateway: parameters Jersey read leniently or
 * answered 404, pages Jetty answered in HTML, and documents that answered 500, 503 or 20 MB. Every
 * answer must be the documented JSON error shape with the offending field named.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class HostileRequestsIT {
  private static final Path DIR = GatewayClient.tempDir("trainyard-hostile");
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SPEC =
      """
      {"apiVersion": "trainyard.io/v1", "kind": "TrainingJob", "metadata": {"name": "h"%s},
       "spec": {"framework": "pytorch", "image": "python:3.11", "command": ["true"],
       "replicas": {"master": 1}%s}}
      """;

  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      DevApp.onFreePorts(DIR, config());

  private static GatewayClient client;
  private static RawHttp raw;
  private static RawHttp admin;
  private static String alice;
  private static String auditor;

  @BeforeAll
  static void setUp() {
    client = new GatewayClient(APP.getLocalPort());
    raw = new RawHttp(APP.getLocalPort());
    admin = new RawHttp(APP.getAdminPort());
    var issuer =
        io.trainyard.auth.DevIssuer.loadOrCreate(
            DIR, io.trainyard.gateway.config.AuthConfig.DEV_ISSUER);
    alice = issuer.mint("alice", Set.of("nlp"), Set.of("trainer"), Duration.ofHours(1));
    auditor = issuer.mint("carol", Set.of("nlp"), Set.of("auditor"), Duration.ofHours(1));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          /v1/jobs?limit=abc                    | limit
          /v1/jobs?limit=99999999999            | limit
          /v1/jobs/j-1/logs?follow=maybe        | follow
          /v1/jobs/j-1/logs?follow=1            | follow
          /v1/audit?afterSeq=x                  | afterSeq
          /v1/audit?limit=1.5                   | limit
          /v1/jobs?limit=%D9%A1%D9%A2           | limit
          /v1/audit?afterSeq=%EF%BC%91          | afterSeq
          /v1/jobs?limit=1&limit=5000           | limit
          /v1/jobs?limit=                       | limit
          /v1/jobs?team                         | team
          /v1/jobs?limt=3                       | limt
          /v1/audit?days=3                      | days
          /v1/jobs/;x=1                         | path
          /v1/jobs;limit=3                      | path
          /v1/jobs/j-1;x=1/logs                 | path
          """)
  void aParameterThatDoesNotConvertIs400NamingIt(String target, String parameter) {
    var token = target.startsWith("/v1/audit") ? auditor : alice;
    var answer = client.get(target, token);
    assertThat(answer.status()).as(answer.body()).isEqualTo(400);
    assertErrorShape(answer.json(), parameter);
  }

  @Test
  void dryRunMaybeSubmitsNothing() {
    var before = client.get("/v1/jobs", alice).json().get("jobs").size();
    var answer =
        client.post("/v1/jobs?dryRun=maybe", alice, "application/json", SPEC.formatted("", ""));
    assertThat(answer.status()).as(answer.body()).isEqualTo(400);
    assertErrorShape(answer.json(), "dryRun");
    assertThat(client.get("/v1/jobs", alice).json().get("jobs")).hasSize(before);
    // A misspelt parameter is not ignored: it would submit a real job.
    var misspelt =
        client.post("/v1/jobs?dryrun=true", alice, "application/json", SPEC.formatted("", ""));
    assertThat(misspelt.status()).as(misspelt.body()).isEqualTo(400);
    assertErrorShape(misspelt.json(), "dryrun");
    assertThat(misspelt.json().get("message").asText())
        .contains("is not a parameter of this endpoint; it takes dryRun");
    assertThat(client.get("/v1/jobs", alice).json().get("jobs")).hasSize(before);
    // A list parameter may be repeated.
    assertThat(client.get("/v1/jobs?state=RUNNING&state=FAILED", alice).status()).isEqualTo(200);
    var quote =
        client.post("/v1/jobs?dryRun=TRUE", alice, "application/json", SPEC.formatted("", ""));
    assertThat(quote.status()).as(quote.body()).isEqualTo(200);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          lone surrogate in a label   | , "labels": {"x": "\\ud800"} |                               | metadata.labels.x
          lone surrogate in an arg    |                              | , "args": ["\\udfff"]         | spec.args[0]
          NUL in an env value         |                              | , "env": {"A": "\\u0000"}     | spec.env.A
          estimatedHours 1e400        |                              | , "estimatedHours": 1e400     | spec.estimatedHours
          maxRuntime overflow         |                              | , "maxRuntime": "9223372036854775807d" | spec.maxRuntime
          """)
  void aHostileDocumentIsA4xxNotA500Or503(String name, String meta, String spec, String field) {
    var body = SPEC.formatted(meta == null ? "" : meta, spec == null ? "" : spec);
    var answer = client.post("/v1/jobs", alice, "application/json", body);
    assertThat(answer.status()).as(answer.body()).isBetween(400, 499);
    assertErrorShape(answer.json(), field);
  }

  @Test
  void aKubeflowMemoryBombIsRefusedSmallAndFast() {
    var body =
        """
        {"apiVersion":"kubeflow.org/v1","kind":"PyTorchJob","metadata":{"name":"b"},"spec":
        {"pytorchReplicaSpecs":{"Master":{"replicas":1,"template":{"spec":{"containers":
        [{"name":"pytorch","image":"p","resources":{"limits":{"memory":1e999999999}}}]}}}}}}
        """;
    var answer = client.post("/v1/jobs", alice, "application/json", body);
    assertThat(answer.status()).as(answer.body()).isBetween(400, 499);
    assertThat(answer.body().length()).isLessThan(2_000);
    assertErrorShape(
        answer.json(),
        "spec.pytorchReplicaSpecs.Master.template.spec.containers[0].resources.limits.memory");
  }

  @Test
  void aDocumentWithManyErrorsListsAHundredAndCountsThemAll() {
    var env = new StringBuilder();
    for (int i = 0; i < 5_000; i++) {
      env.append(",\"").append(i).append("x\": \"v\"");
    }
    var body = SPEC.formatted("", ", \"env\": {" + env.substring(1) + "}");
    var answer = client.post("/v1/jobs", alice, "application/json", body);
    assertThat(answer.status()).isEqualTo(422);
    assertThat(answer.json().get("errors")).hasSize(100);
    assertThat(answer.json().get("errorCount").asInt()).isEqualTo(5_000);
    assertThat(answer.json().get("message").asText()).contains("4900 more");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          application/json                  | ---\\nnot: json
          application/json; charset=utf-16  | -x
          application/json                  | {"name": [1
          application/json                  | [1, 2]
          application/json                  | DEEP
          """)
  void aJsonBodyThatDoesNotReadIs400NotA500(String type, String body) {
    // Found by HttpApiFuzzIT: Jersey's JSON reader failed the audit export with a 500 (a body
    // that is not JSON, or nested deeper than Jackson's 1,000 levels).
    var text = body.equals("DEEP") ? "[".repeat(1_001) + "]".repeat(1_001) : body;
    var answer = client.post("/v1/audit/exports", auditor, type, text.replace("\\n", "\n"));
    assertThat(answer.status()).as(answer.body()).isEqualTo(400);
    assertErrorShape(answer.json(), "body");
  }

  @Test
  void anExportRequestWithAMemberItDoesNotKnowOrAControlCharacterIsRefusedNotWidened() {
    var misspelt =
        client.post("/v1/audit/exports", auditor, "application/json", "{\"team\": \"nlp\"}");
    assertThat(misspelt.status()).as(misspelt.body()).isEqualTo(400);
    assertErrorShape(misspelt.json(), "team");
    var nul =
        client.post("/v1/audit/exports", auditor, "application/json", "{\"teams\": [\"\\u0000\"]}");
    assertThat(nul.status()).as(nul.body()).isEqualTo(400);
    assertErrorShape(nul.json(), "teams");
  }

  @Test
  void aMalformedIdempotencyKeyIsRefusedOnADryRunToo() {
    var answer =
        raw.send(
            ("POST /v1/jobs?dryRun=true HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                    + alice
                    + "\r\nIdempotency-Key: caf\u00e9\r\nContent-Type: application/yaml\r\n"
                    + "Content-Length: 4\r\nConnection: close\r\n\r\na: b")
                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    assertThat(answer.status()).as(answer.head() + answer.body()).isEqualTo(400);
    assertErrorShape(parse(answer.body()), "Idempotency-Key");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "//v1/jobs",
        "/v1//jobs",
        "/%2e%2e/v1/jobs",
        "/v1/%2e/jobs",
        "/v1/jobs/%2F..%2Fx",
        "/v1/jobs/a%5Cb",
        "/v1/nothing-here",
        "/favicon.ico"
      })
  void jettysOwnRefusalsComeInTheErrorShape(String target) {
    var answer = raw.get(target, "Authorization: Bearer " + alice);
    assertThat(answer.status()).as(answer.head()).isBetween(400, 499);
    assertThat(answer.isJson()).as(answer.head() + "\n" + answer.body()).isTrue();
    assertErrorShape(parse(answer.body()), null);
  }

  @Test
  void oversizeHeadersUriAndGarbageComeInTheErrorShape() {
    var headers = raw.get("/v1/jobs", "X-Big: " + "a".repeat(64 * 1024));
    assertThat(headers.status()).isEqualTo(431);
    assertThat(headers.isJson()).as(headers.head()).isTrue();
    assertErrorShape(parse(headers.body()), "headers");

    var uri = raw.get("/v1/jobs?x=" + "a".repeat(64 * 1024));
    assertThat(uri.status()).isIn(414, 431);
    assertThat(uri.isJson()).as(uri.head()).isTrue();
    assertErrorShape(parse(uri.body()), null);

    var garbage = raw.send("GET /v1/jobs HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n".getBytes());
    assertThat(garbage.status()).isEqualTo(400);
    assertThat(garbage.isJson()).as(garbage.head()).isTrue();
    assertErrorShape(parse(garbage.body()), "request");
  }

  @Test
  void aBodyThatIsNotItsContentEncodingOrAnHttpVersionNotSpokenIsA400() {
    var gzip =
        raw.send(
            ("POST /v1/jobs?dryRun=true HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                    + alice
                    + "\r\nContent-Type: application/yaml\r\nContent-Encoding: gzip\r\n"
                    + "Content-Length: 3\r\nConnection: close\r\n\r\nabc")
                .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    assertThat(gzip.status()).as(gzip.head() + gzip.body()).isEqualTo(400);
    assertErrorShape(parse(gzip.body()), "Content-Encoding");
    for (var coding : List.of("br", "deflate", "gzip, zstd", "identity;q=0")) {
      var unread =
          raw.send(
              ("POST /v1/jobs?dryRun=true HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                      + alice
                      + "\r\nContent-Type: application/yaml\r\nContent-Encoding: "
                      + coding
                      + "\r\nContent-Length: 3\r\nConnection: close\r\n\r\nabc")
                  .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
      assertThat(unread.status()).as(coding + ": " + unread.head() + unread.body()).isEqualTo(415);
      assertErrorShape(parse(unread.body()), "Content-Encoding");
    }

    for (var version : List.of("HTTP/1.2", "HTTP/3.0")) {
      var answer =
          raw.send(
              ("GET /v1/jobs " + version + "\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                  .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
      assertThat(answer.status()).as(answer.head()).isEqualTo(400);
      assertErrorShape(parse(answer.body()), "request");
    }
  }

  @Test
  void aHeaderThatDoesNotParseIsNamed() {
    for (var contentType : List.of("garbage", "application/", ";;;")) {
      var answer =
          raw.send(
              ("POST /v1/jobs?dryRun=true HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                      + alice
                      + "\r\nContent-Type: "
                      + contentType
                      + "\r\nContent-Length: 4\r\nConnection: close\r\n\r\na: b")
                  .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
      assertThat(answer.status()).as(answer.head()).isBetween(400, 415);
      assertErrorShape(parse(answer.body()), "Content-Type");
    }
    var accept = raw.get("/v1/jobs", "Authorization: Bearer " + alice, "Accept: */*;q=abc");
    assertThat(accept.status()).as(accept.head()).isBetween(400, 406);
    assertErrorShape(parse(accept.body()), "Accept");
  }

  @Test
  void optionsIsAMethodNotServedNotAForbiddenOne() {
    for (var target : List.of("/v1/jobs", "/openapi.json")) {
      var answer =
          raw.send(
              ("OPTIONS "
                      + target
                      + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                      + alice
                      + "\r\nConnection: close\r\n\r\n")
                  .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
      assertThat(answer.status()).as(answer.head()).isEqualTo(405);
      assertErrorShape(parse(answer.body()), "method");
    }
  }

  @Test
  void aBodyTrickledInSlowerThanAKibibyteASecondIsRefusedNotWaitedFor() {
    // Past its grace (2 s here, 10 s by default) a body must average 1 KiB/s since its first read.
    var head =
        ("POST /v1/jobs?dryRun=true HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                + alice
                + "\r\nContent-Type: application/yaml\r\nContent-Length: 100\r\n"
                + "Connection: close\r\n\r\n")
            .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    var answer = raw.sendSlowly(head, "x".repeat(100).getBytes(), Duration.ofMillis(500));
    assertThat(answer.status()).as(answer.head() + answer.body()).isEqualTo(408);
    assertErrorShape(parse(answer.body()), "body");
  }

  @ParameterizedTest
  @ValueSource(strings = {"/nothing-here", "//healthcheck", "/%2e%2e/tasks"})
  void theAdminPortAnswersInTheErrorShapeToo(String target) {
    var answer = admin.get(target);
    assertThat(answer.status()).as(answer.head()).isBetween(400, 499);
    assertThat(answer.isJson()).as(answer.head() + "\n" + answer.body()).isTrue();
    assertErrorShape(parse(answer.body()), null);
  }

  /** {code, message, errors[{field, message}], requestId}, with {@code field} named if given. */
  static void assertErrorShape(JsonNode body, String field) {
    assertThat(body.path("code").asText()).as(body.toString()).isNotBlank();
    assertThat(body.path("message").asText()).as(body.toString()).isNotBlank();
    assertThat(body.path("requestId").asText()).as(body.toString()).isNotBlank();
    assertThat(body.path("errors").isArray()).as(body.toString()).isTrue();
    assertThat(body.path("errors")).as(body.toString()).isNotEmpty();
    body.path("errors")
        .forEach(e -> assertThat(e.path("field").asText()).as(body.toString()).isNotBlank());
    if (field != null) {
      assertThat(body.path("errors").findValuesAsText("field")).as(body.toString()).contains(field);
    }
  }

  private static JsonNode parse(String body) {
    try {
      return JSON.readTree(body);
    } catch (IOException e) {
      throw new UncheckedIOException("not JSON: " + body, e);
    }
  }

  private static String config() {
    var yaml =
        """
        dataDir: %s
        database:
          url: "jdbc:h2:file:%s/db;DB_CLOSE_ON_EXIT=FALSE"
        auth:
          mode: dev
        requestBodies: {grace: 2s}
        server:
          applicationConnectors: [{type: http, port: 0, bindHost: 127.0.0.1}]
          adminConnectors: [{type: http, port: 0}]
        backends:
          - type: local
        """
            .formatted(DIR, DIR);
    return yaml;
  }
}
