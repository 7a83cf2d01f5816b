package io.trainyard.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.audit.AuditVerifier;
import io.trainyard.auth.DevIssuer;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.testing.DevApp;
import io.trainyard.gateway.testing.GatewayClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.sql.DriverManager;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The audit trail end to end on the embedded default (H2, dev auth, the local backend running real
 * processes): jobs leave their events, auditors page and export them, an export verifies offline
 * with the verifier the CLI runs, planted secrets are found nowhere, and a gateway whose audit log
 * cannot be written refuses to act.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AuditFlowIT {
  private static final Path DIR = GatewayClient.tempDir("trainyard-audit-flow");
  private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
  private static final String SECRET = "wandb-" + UUID.randomUUID();

  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      DevApp.onFreePorts(DIR, config());

  private static GatewayClient client;
  private static String alice;
  private static String auditor;
  private static String admin;
  private static String jobId;

  @BeforeAll
  static void tokens() {
    client = new GatewayClient(APP.getLocalPort());
    var issuer = DevIssuer.loadOrCreate(DIR, AuthConfig.DEV_ISSUER);
    alice = issuer.mint("alice", Set.of("nlp"), Set.of("trainer"), Duration.ofHours(1));
    auditor = issuer.mint("carol", Set.of(), Set.of("auditor"), Duration.ofHours(1));
    admin = issuer.mint("root", Set.of(), Set.of("platform-admin"), Duration.ofHours(1));
  }

  @Test
  @Order(1)
  void aJobThatUsesASecretRunsAndEveryStepIsAudited() throws Exception {
    var submitted = client.post("/v1/jobs", alice, "application/yaml", secretJob());
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
    jobId = submitted.json().get("id").asText();
    assertThat(awaitEnd(jobId).get("state").asText()).isEqualTo("SUCCEEDED");
    assertThat(client.get("/v1/jobs/" + jobId + "/logs", alice).status()).isEqualTo(200);
    var sleeper = client.post("/v1/jobs", alice, "application/yaml", JobsFlowIT.sleeper("s", 30));
    var sleeperId = sleeper.json().get("id").asText();
    assertThat(client.delete("/v1/jobs/" + sleeperId, alice).status()).isEqualTo(202);
    awaitEnd(sleeperId);
    for (int i = 0; i < 20; i++) {
      assertThat(client.get("/v1/jobs", "not-a-token-" + i).status()).isEqualTo(401);
    }

    var events = allEvents(auditor);
    var mine = events.stream().filter(e -> e.get("resource").asText().equals("job/" + jobId));
    assertThat(mine.map(e -> e.get("action").asText()).toList())
        .containsSubsequence(
            "job.submit", "job.route", "job.state", "backend.submit", "job.state", "job.logs");
    var submit = find(events, "job.submit", "job/" + jobId);
    assertThat(submit.at("/actor/username").asText()).isEqualTo("alice");
    assertThat(submit.at("/actor/sourceIp").asText()).isEqualTo("127.0.0.1");
    assertThat(submit.at("/actor/requestId").asText())
        .isEqualTo(submitted.headers().get("x-request-id").get(0));
    assertThat(submit.at("/details/spec/spec/secretEnv/WANDB_API_KEY/secret").asText())
        .isEqualTo("wandb");
    assertThat(find(events, "job.cancel", "job/" + sleeperId).at("/actor/username").asText())
        .isEqualTo("alice");
    assertThat(events.get(0).get("action").asText()).isEqualTo("config.start");
    // Bad tokens are counted per source and minute, not written one row per request.
    assertThat(events.stream().filter(e -> e.get("action").asText().equals("auth.failure")))
        .hasSizeLessThanOrEqualTo(2);
  }

  @Test
  @Order(2)
  void onlyAuditorsAndPlatformAdminsReadTheLogAndOnlyAuditorsExport() {
    assertThat(client.get("/v1/audit", alice).status()).isEqualTo(403);
    assertThat(client.get("/v1/audit", admin).status()).isEqualTo(200);
    assertThat(client.get("/v1/audit?limit=0", auditor).status()).isEqualTo(400);
    assertThat(client.post("/v1/audit/exports", admin, "application/json", "{}").status())
        .isEqualTo(403);
    // An auditor reads every team's job list (issue 17) but never acts.
    assertThat(client.get("/v1/jobs", auditor).status()).isEqualTo(200);
    assertThat(client.post("/v1/jobs", auditor, "application/yaml", "kind: x").status())
        .isEqualTo(403);
    // A refusal of a caller whose token was good is evidence with a name on it.
    var denied = client.get("/v1/audit?action=auth.denied", auditor).json().get("events");
    assertThat(denied.toString())
        .contains("alice")
        .contains("GET /v1/audit")
        .contains("POST /v1/audit/exports")
        .contains("POST /v1/jobs");
    var page = client.get("/v1/audit?limit=2&action=job.*", auditor).json();
    assertThat(page.get("events")).hasSize(2);
    assertThat(page.get("nextAfterSeq").asLong()).isEqualTo(page.at("/events/1/seq").asLong());
    var bad = client.post("/v1/audit/exports", auditor, "application/json", "{\"from\":\"soon\"}");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.json().at("/errors/0/field").asText()).isEqualTo("from");
  }

  @Test
  @Order(3)
  void anExportThroughTheApiVerifiesOfflineAgainstThePublishedKey() throws Exception {
    awaitDigest();
    var key = client.get("/v1/audit/public-key", auditor).json();
    assertThat(key.get("publicKeyPem").asText()).contains("BEGIN PUBLIC KEY");
    var keyId = key.get("keyId").asText();

    var whole = client.post("/v1/audit/exports", auditor, "application/json", "{}");
    assertThat(whole.status()).as(whole.body()).isEqualTo(201);
    assertThat(whole.json().get("chainIntactAtExport").asBoolean()).isTrue();
    assertThat(whole.json().at("/manifest/digests")).isNotEmpty();
    var report = AuditVerifier.verify(exportDir(whole.json()), keyId);
    assertThat(report.ok()).as(report.toText()).isTrue();
    assertThat(report.digestsChecked()).isPositive();

    var filter =
        """
        {"teams": ["nlp"], "actions": ["job.*"], "from": "%s", "to": "%s", "name": "nlp-jobs"}
        """
            .formatted(Instant.now().minusSeconds(3600), Instant.now().plusSeconds(60));
    var filtered = client.post("/v1/audit/exports", auditor, "application/json", filter);
    assertThat(filtered.status()).as(filtered.body()).isEqualTo(201);
    var filteredReport = AuditVerifier.verify(exportDir(filtered.json()), keyId);
    assertThat(filteredReport.ok()).as(filteredReport.toText()).isTrue();
    assertThat(filteredReport.stubsChecked()).isPositive();

    var csv = client.post("/v1/audit/exports", auditor, "application/json", "{\"format\":\"csv\"}");
    assertThat(csv.status()).isEqualTo(201);
    assertThat(Files.readString(exportDir(csv.json()).resolve("events.csv")))
        .contains("job.submit");
    assertThat(client.get("/v1/audit?action=audit.export", auditor).json().get("events").size())
        .isGreaterThanOrEqualTo(3);
  }

  @Test
  @Order(4)
  void thePlantedSecretAndTheBearerTokenAreNowhere() throws Exception {
    var needles = List.of(SECRET, alice, alice.substring(alice.lastIndexOf('.') + 1));
    var haystacks = new ArrayList<String>();
    try (var c = DriverManager.getConnection(h2Url(), "trainyard", "");
        var rs = c.createStatement().executeQuery("SCRIPT")) {
      var script = new StringBuilder();
      while (rs.next()) {
        script.append(rs.getString(1)).append('\n');
      }
      assertThat(script).contains("audit_events".toUpperCase()).contains(jobId);
      haystacks.add(script.toString());
    }
    var secretsDir = DIR.resolve("secrets");
    try (var files = Files.walk(DIR)) {
      for (var file : files.filter(Files::isRegularFile).toList()) {
        if (!file.startsWith(secretsDir)) {
          haystacks.add(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1));
        }
      }
    }
    assertThat(Files.readString(DIR.resolve("gateway.log"))).contains("trainyard");
    for (var needle : needles) {
      assertThat(haystacks).noneMatch(h -> h.contains(needle));
    }
  }

  @Test
  @Order(5)
  void aGatewayThatCannotWriteItsAuditLogRefusesAndStoresNothing() throws Exception {
    try (var c = DriverManager.getConnection(h2Url(), "trainyard", "");
        var s = c.createStatement()) {
      s.execute("ALTER TABLE audit_events RENAME TO audit_events_away");
      try {
        var refused =
            client.post("/v1/jobs", alice, "application/yaml", JobsFlowIT.sleeper("unaudited", 0));
        assertThat(refused.status()).isEqualTo(503);
        assertThat(refused.json().get("code").asText()).isEqualTo("AUDIT_UNAVAILABLE");
        assertThat(refused.json().get("requestId").asText()).isNotBlank();
        assertThat(client.get("/v1/jobs", alice).body()).doesNotContain("unaudited");
      } finally {
        s.execute("ALTER TABLE audit_events_away RENAME TO audit_events");
      }
    }
    var accepted =
        client.post("/v1/jobs", alice, "application/yaml", JobsFlowIT.sleeper("unaudited", 0));
    assertThat(accepted.status()).isEqualTo(201);
  }

  private static List<JsonNode> allEvents(String token) {
    var events = new ArrayList<JsonNode>();
    long after = 0;
    while (true) {
      var page = client.get("/v1/audit?limit=100&afterSeq=" + after, token).json();
      page.get("events").forEach(events::add);
      if (page.get("nextAfterSeq").isNull()) {
        return events;
      }
      after = page.get("nextAfterSeq").asLong();
    }
  }

  private static JsonNode awaitEnd(String id) throws InterruptedException {
    var deadline = Instant.now().plusSeconds(90);
    while (Instant.now().isBefore(deadline)) {
      var job = client.get("/v1/jobs/" + id, alice).json();
      if (Set.of("SUCCEEDED", "FAILED", "CANCELLED").contains(job.get("state").asText())) {
        return job;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("job " + id + " did not end within 90 s");
  }

  private static JsonNode find(List<JsonNode> events, String action, String resource) {
    return events.stream()
        .filter(e -> e.get("action").asText().equals(action))
        .filter(e -> e.get("resource").asText().equals(resource))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no " + action + " of " + resource));
  }

  /** The digest signer runs every few seconds; an export should carry at least one digest. */
  private static void awaitDigest() throws InterruptedException {
    var deadline = Instant.now().plusSeconds(30);
    while (Instant.now().isBefore(deadline)) {
      var probe = client.post("/v1/audit/exports", auditor, "application/json", "{}").json();
      if (!probe.at("/manifest/digests").isEmpty()) {
        return;
      }
      Thread.sleep(500);
    }
    throw new AssertionError("no digest was signed within 30 s");
  }

  private static Path exportDir(JsonNode answer) {
    return DIR.resolve("audit-exports").resolve(answer.get("name").asText());
  }

  private static String secretJob() throws Exception {
    // Secrets are per team: alice's job (team nlp) reads <secretsDir>/nlp/<secret>/<key>.
    var file = DIR.resolve("secrets/nlp/wandb/api-key");
    Files.createDirectories(file.getParent());
    Files.writeString(file, SECRET + "\n");
    var hash =
        HexFormat.of()
            .formatHex(
                MessageDigest.getInstance("SHA-256")
                    .digest(SECRET.getBytes(StandardCharsets.UTF_8)));
    return """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: uses-secret}
        spec:
          framework: pytorch
          image: python:3.11-slim
          command: [python3, -c, "import os, hashlib, sys; v = os.environ['WANDB_API_KEY']; \
        sys.exit(0 if hashlib.sha256(v.encode()).hexdigest() == sys.argv[1] else 7)", "%s"]
          secretEnv: {WANDB_API_KEY: {secret: wandb, key: api-key}}
          replicas: {master: 1}
          restartPolicy: Never
        """
        .formatted(hash);
  }

  private static String h2Url() {
    return "jdbc:h2:file:" + DIR + "/db;DB_CLOSE_ON_EXIT=FALSE";
  }

  private static String config() {
    var yaml =
        """
        dataDir: %1$s
        database:
          url: "jdbc:h2:file:%1$s/db;DB_CLOSE_ON_EXIT=FALSE"
        auth:
          mode: dev
        audit:
          digestEveryEvents: 5
        reconciler:
          resyncInterval: 200ms
        logging:
          level: INFO
          appenders:
            - {type: file, currentLogFilename: "%1$s/gateway.log", archive: false}
        server:
          applicationConnectors: [{type: http, port: 0, bindHost: 127.0.0.1}]
          adminConnectors: [{type: http, port: 0}]
          requestLog:
            appenders:
              - {type: file, currentLogFilename: "%1$s/requests.log", archive: false}
        backends:
          - type: local
            codeDir: %2$s
            secretsDir: %1$s/secrets
        """
            .formatted(DIR, REPO);
    return yaml;
  }
}
