package io.trainyard.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.audit.AuditVerifier;
import io.trainyard.auth.DevIssuer;
import io.trainyard.backend.sagemaker.SageMakerStub;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.testing.DevApp;
import io.trainyard.gateway.testing.GatewayClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Issue 17's API over real HTTP on the real gateway: the job list's filters and cursor, spend over
 * time with the managed comparison from real routing evidence (the local backend and a SageMaker
 * endpoint speaking its wire protocol quote every job), backend load, audit verification and export
 * download. Roles as everywhere: deny unless a role allows.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DashboardApiGatewayIT {
  private static final Path DIR = GatewayClient.tempDir("trainyard-dashboard-api");
  private static final SageMakerStub SAGEMAKER = startSageMaker();

  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      DevApp.onFreePorts(DIR, config());

  private static GatewayClient client;
  private static String alice;
  private static String bob;
  private static String nlpAdmin;
  private static String platformAdmin;
  private static String auditor;

  /** Every job the tests submitted, by team, with its routing decision. */
  private static final List<String> NLP = new ArrayList<>();

  private static final List<String> VISION = new ArrayList<>();
  private static final List<JsonNode> DECISIONS = new ArrayList<>();

  @BeforeAll
  static void tokens() {
    client = new GatewayClient(APP.getLocalPort());
    var issuer = DevIssuer.loadOrCreate(DIR, AuthConfig.DEV_ISSUER);
    alice = issuer.mint("alice", Set.of("nlp"), Set.of("trainer"), Duration.ofHours(1));
    bob = issuer.mint("bob", Set.of("vision"), Set.of("trainer"), Duration.ofHours(1));
    nlpAdmin = issuer.mint("dave", Set.of("nlp"), Set.of("team-admin"), Duration.ofHours(1));
    platformAdmin = issuer.mint("pat", Set.of(), Set.of("platform-admin"), Duration.ofHours(1));
    auditor = issuer.mint("carol", Set.of(), Set.of("auditor"), Duration.ofHours(1));
  }

  @AfterAll
  static void stop() {
    SAGEMAKER.close();
  }

  @Test
  @Order(1)
  void theJobListFiltersAndPagesWithoutGapsOrDuplicatesWhileJobsAreAdded() {
    for (int i = 0; i < 5; i++) {
      NLP.add(submit(alice, "nlp-" + i, 0));
    }
    VISION.add(submit(bob, "vision-0", 0));
    VISION.add(submit(bob, "vision-1", 0));

    // Paging through alice's team with limit 2, a new job arriving between pages.
    var seen = new ArrayList<String>();
    String cursor = null;
    int pages = 0;
    do {
      var page =
          client.get(
              "/v1/jobs?team=nlp&limit=2" + (cursor == null ? "" : "&cursor=" + cursor), alice);
      assertThat(page.status()).as(page.body()).isEqualTo(200);
      page.json().get("jobs").forEach(j -> seen.add(j.get("id").asText()));
      cursor = page.json().path("next").isTextual() ? page.json().get("next").asText() : null;
      if (pages++ == 0) {
        NLP.add(submit(alice, "arrives-meanwhile", 0));
      }
    } while (cursor != null);
    assertThat(seen).doesNotHaveDuplicates();
    assertThat(new HashSet<>(seen)).isEqualTo(new HashSet<>(NLP.subList(0, 5)));
    assertThat(pages).isEqualTo(3);

    // Newest first, the caller's teams only.
    assertThat(ids(client.get("/v1/jobs", alice))).containsExactlyElementsOf(reversed(NLP));
    assertThat(ids(client.get("/v1/jobs", bob))).containsExactlyElementsOf(reversed(VISION));
    // Filters alone.
    assertThat(ids(client.get("/v1/jobs?team=nlp", bob))).isEmpty();
    assertThat(ids(client.get("/v1/jobs?team=vision", platformAdmin)))
        .containsExactlyElementsOf(reversed(VISION));
    assertThat(ids(client.get("/v1/jobs?owner=bob", platformAdmin)))
        .containsExactlyElementsOf(reversed(VISION));
    assertThat(ids(client.get("/v1/jobs?backend=local", alice)))
        .containsExactlyElementsOf(reversed(NLP));
    assertThat(ids(client.get("/v1/jobs?backend=sm", alice))).isEmpty();
    assertThat(ids(client.get("/v1/jobs?algorithm=nlp/none", alice))).isEmpty();
    var third = client.get("/v1/jobs/" + NLP.get(2), alice).json().get("createdAt").asText();
    var fifth = client.get("/v1/jobs/" + NLP.get(4), alice).json().get("createdAt").asText();
    assertThat(ids(client.get("/v1/jobs?since=" + third + "&until=" + fifth, alice)))
        .containsExactly(NLP.get(3), NLP.get(2));
    // Combined, and the auditor reads every team.
    assertThat(ids(client.get("/v1/jobs?team=vision&owner=alice", platformAdmin))).isEmpty();
    assertThat(ids(client.get("/v1/jobs?owner=alice&since=" + fifth, auditor)))
        .containsExactly(NLP.get(5), NLP.get(4));
    assertThat(ids(client.get("/v1/jobs", auditor))).hasSize(NLP.size() + VISION.size());

    // A malformed parameter is a 400 naming it.
    assertField(client.get("/v1/jobs?state=BOGUS", alice), "state");
    assertField(client.get("/v1/jobs?limit=0", alice), "limit");
    assertField(client.get("/v1/jobs?since=yesterday", alice), "since");
    assertField(client.get("/v1/jobs?until=2026-13-01", alice), "until");
    assertField(client.get("/v1/jobs?algorithm=bert", alice), "algorithm");
    assertField(client.get("/v1/jobs?cursor=!!!", alice), "cursor");
    var first = client.get("/v1/jobs?team=nlp&limit=1", alice).json().get("next").asText();
    assertField(client.get("/v1/jobs?team=vision&limit=1&cursor=" + first, alice), "cursor");
    assertThat(client.get("/v1/jobs?team=nlp&limit=1&cursor=" + first, alice).status())
        .isEqualTo(200);
  }

  @Test
  @Order(2)
  void spendSeriesAddUpToTheTeamsSpendAndTheComparisonComesFromTheRoutingEvidence() {
    for (var id : NLP) {
      assertThat(client.awaitEnd(id, alice).get("state").asText()).isEqualTo("SUCCEEDED");
    }
    for (var id : VISION) {
      client.awaitEnd(id, bob);
    }
    var answer = client.get("/v1/spend?team=nlp", nlpAdmin);
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    var report = answer.json();
    assertThat(report.get("granularity").asText()).isEqualTo("day");
    var summed = BigDecimal.ZERO;
    for (var series : report.get("series")) {
      assertThat(series.get("team").asText()).isEqualTo("nlp");
      assertThat(series.get("backend").asText()).isEqualTo("local");
      for (var point : series.get("points")) {
        summed = summed.add(point.get("usd").decimalValue());
      }
    }
    var month = Instant.now().toString().substring(0, 7);
    var teamSpend = client.get("/v1/teams/nlp/spend?month=" + month, nlpAdmin).json();
    assertThat(summed).isPositive();
    assertThat(summed)
        .isCloseTo(teamSpend.get("accruedUsd").decimalValue(), within(new BigDecimal("0.00001")));
    assertThat(report.at("/budgets/0/team").asText()).isEqualTo("nlp");
    assertThat(report.at("/budgets/0/monthlyUsd").decimalValue()).isEqualByComparingTo("500");

    // What the same jobs would have cost on SageMaker: its offer in each job's evidence × the
    // hours the job ran.
    var expected = BigDecimal.ZERO;
    for (int i = 0; i < NLP.size(); i++) {
      var job = client.get("/v1/jobs/" + NLP.get(i), alice).json();
      var ms =
          Duration.between(
                  Instant.parse(job.get("startedAt").asText()),
                  Instant.parse(job.get("endedAt").asText()))
              .toMillis();
      var hourly = sageMakerOnDemand(DECISIONS.get(i));
      expected =
          expected.add(
              hourly
                  .multiply(BigDecimal.valueOf(ms))
                  .divide(BigDecimal.valueOf(3_600_000L), 12, java.math.RoundingMode.HALF_UP));
    }
    var comparison = report.at("/comparison/0");
    assertThat(comparison.get("team").asText()).isEqualTo("nlp");
    assertThat(comparison.get("jobs").asInt()).isEqualTo(NLP.size());
    assertThat(comparison.get("actualUsd").decimalValue())
        .isCloseTo(summed, within(new BigDecimal("0.00001")));
    var managed = comparison.get("managed");
    assertThat(managed).hasSize(1);
    assertThat(managed.at("/0/backend").asText()).isEqualTo("sm");
    assertThat(managed.at("/0/jobsQuoted").asInt()).isEqualTo(NLP.size());
    assertThat(managed.at("/0/usd").decimalValue())
        .isCloseTo(expected, within(new BigDecimal("0.00001")))
        .isGreaterThan(comparison.get("actualUsd").decimalValue());

    // Scoping as GET /v1/teams/{team}/spend; bad parameters named.
    assertThat(client.get("/v1/spend", alice).status()).isEqualTo(403);
    assertThat(client.get("/v1/spend?team=vision", nlpAdmin).status()).isEqualTo(404);
    var all = client.get("/v1/spend?granularity=month", platformAdmin).json();
    assertThat(all.get("series").findValuesAsText("team")).contains("nlp", "vision");
    assertThat(all.at("/series/0/points")).hasSize(1);
    var own = client.get("/v1/spend", nlpAdmin).json();
    assertThat(own.get("series").findValuesAsText("team")).containsOnly("nlp");
    assertField(client.get("/v1/spend?granularity=week", nlpAdmin), "granularity");
    assertField(client.get("/v1/spend?since=soon", nlpAdmin), "since");
    assertField(
        client.get("/v1/spend?since=2026-02-01T00:00:00Z&until=2026-01-01T00:00:00Z", nlpAdmin),
        "until");
    assertField(
        client.get("/v1/spend?since=2000-01-01T00:00:00Z&until=2026-01-01T00:00:00Z", nlpAdmin),
        "since");
    // The earliest instant there is: refused without walking a billion years day by day (this
    // used to run until the heap was gone).
    for (var granularity : List.of("day", "month")) {
      assertField(
          client.get(
              "/v1/spend?granularity=" + granularity + "&since=-999999999-01-01T00:00:00Z",
              nlpAdmin),
          "since");
      assertField(
          client.get(
              "/v1/spend?granularity=" + granularity + "&until=%2B999999999-12-31T00:00:00Z",
              nlpAdmin),
          "since");
    }
  }

  @Test
  @Order(3)
  void backendsShowTheJobsPlacedOnThemAndWhatTheyHold() {
    var running = List.of(submit(alice, "holds-a", 60), submit(bob, "holds-b", 60));
    for (var id : running) {
      client.awaitState(id, "RUNNING", platformAdminOr(id));
    }
    var asked = Instant.now();
    var backends = client.get("/v1/backends", alice);
    var answered = Instant.now().plusSeconds(1);
    assertThat(backends.status()).isEqualTo(200);
    var local = backend(backends.json(), "local");
    assertThat(local.get("healthy").asBoolean()).isTrue();
    assertThat(local.at("/health/healthy").asBoolean()).isTrue();
    assertThat(local.at("/health/reason").isNull()).isTrue();
    assertThat(local.at("/jobs/running").asInt()).isEqualTo(2);
    assertThat(local.at("/jobs/queued").asInt()).isZero();
    assertThat(local.at("/capacity/cpus/used").asDouble()).isEqualTo(4.0);
    assertThat(local.at("/capacity/cpus/limit").asDouble()).isEqualTo(16.0);
    assertThat(local.at("/capacity/gpus/used").asInt()).isZero();
    assertThat(local.at("/capacity/gpus/limit").asInt()).isZero();
    assertThat(local.at("/capacity/jobs/used").asInt()).isEqualTo(2);
    assertThat(local.at("/capacity/jobs/limit").isNull()).isTrue();
    assertThat(local.at("/catalog/source").asText()).isEqualTo("embedded catalog");
    var asOf = Instant.parse(local.at("/catalog/asOf").asText());
    assertThat(local.at("/catalog/ageSeconds").asLong())
        .isBetween(
            Duration.between(asOf, asked).toSeconds(),
            Duration.between(asOf, answered).toSeconds());
    var sm = backend(backends.json(), "sm");
    assertThat(sm.at("/jobs/running").asInt()).isZero();
    assertThat(sm.at("/capacity/gpus/limit").isNull()).isTrue();
    for (var id : running) {
      client.delete("/v1/jobs/" + id, platformAdmin);
      client.awaitEnd(id, platformAdmin);
    }
  }

  @Test
  @Order(4)
  void auditorsSeeVerificationAndListDownloadAndVerifyExports() throws Exception {
    awaitDigest();
    var verification = client.get("/v1/audit/verification", auditor);
    assertThat(verification.status()).as(verification.body()).isEqualTo(200);
    var chain = verification.json().get("chain");
    assertThat(chain.get("ok").asBoolean()).as(chain.toString()).isTrue();
    assertThat(chain.get("head").asLong()).isPositive();
    assertThat(chain.get("verifiedThrough").asLong()).isEqualTo(chain.get("head").asLong());
    assertThat(chain.get("problem").isNull()).isTrue();
    var today = verification.json().at("/digests/0");
    assertThat(today.get("day").asText()).isEqualTo(Instant.now().toString().substring(0, 10));
    assertThat(today.get("problem").isNull() || !today.get("signed").asBoolean()).isTrue();
    assertThat(client.get("/v1/audit/verification", platformAdmin).status()).isEqualTo(200);
    assertThat(client.get("/v1/audit/verification", alice).status()).isEqualTo(403);
    assertField(client.get("/v1/audit/verification?days=0", auditor), "days");

    var created =
        client.post(
            "/v1/audit/exports", auditor, "application/json", "{\"name\":\"for-download\"}");
    assertThat(created.status()).as(created.body()).isEqualTo(201);
    var listing = client.get("/v1/audit/exports", auditor);
    assertThat(listing.status()).isEqualTo(200);
    assertThat(listing.json().get("exports").findValuesAsText("name")).contains("for-download");
    var one = client.get("/v1/audit/exports/for-download", auditor).json();
    assertThat(one.get("format").asText()).isEqualTo("jsonl");
    assertThat(Instant.parse(one.get("createdAt").asText())).isBefore(Instant.now().plusSeconds(1));
    var blobs = new LinkedHashSet<String>();
    one.get("blobs").forEach(b -> blobs.add(b.asText()));
    var returned = new LinkedHashSet<String>();
    created.json().get("blobs").forEach(b -> returned.add(b.asText()));
    assertThat(blobs).isEqualTo(returned).contains("for-download/manifest.json");

    // Downloaded byte for byte as the sink holds them, and verified offline from the download.
    var downloaded = Files.createTempDirectory(DIR, "download");
    var sink = DIR.resolve("audit-exports");
    for (var blob : blobs) {
      var file = blob.substring(blob.indexOf('/') + 1);
      var response = download("/v1/audit/exports/for-download/blobs/" + file, auditor);
      assertThat(response.statusCode()).isEqualTo(200);
      assertThat(response.headers().firstValue("Content-Disposition").orElseThrow())
          .startsWith("attachment");
      assertThat(response.body()).isEqualTo(Files.readAllBytes(sink.resolve(blob)));
      Files.write(downloaded.resolve(file), response.body());
    }
    var keyId = client.get("/v1/audit/public-key", auditor).json().get("keyId").asText();
    var report = AuditVerifier.verify(downloaded, keyId);
    assertThat(report.ok()).as(report.toText()).isTrue();

    // Auditors only; unknown names answer 404, malformed ones 400.
    assertThat(client.get("/v1/audit/exports", platformAdmin).status()).isEqualTo(403);
    assertThat(client.get("/v1/audit/exports", alice).status()).isEqualTo(403);
    assertThat(download("/v1/audit/exports/for-download/blobs/manifest.json", alice).statusCode())
        .isEqualTo(403);
    assertThat(client.get("/v1/audit/exports/nothing-here", auditor).status()).isEqualTo(404);
    assertThat(client.get("/v1/audit/exports/for-download/blobs/secrets.txt", auditor).status())
        .isEqualTo(404);
    assertField(client.get("/v1/audit/exports/..%20x", auditor), "name");
  }

  private static String platformAdminOr(String id) {
    return platformAdmin;
  }

  private static JsonNode backend(JsonNode list, String id) {
    for (var b : list.get("backends")) {
      if (b.get("id").asText().equals(id)) {
        return b;
      }
    }
    throw new AssertionError("no backend " + id + " in " + list);
  }

  /** SageMaker's cheapest on-demand offer in a decision. */
  private static BigDecimal sageMakerOnDemand(JsonNode decision) {
    BigDecimal best = null;
    for (var c : decision.get("candidates")) {
      if (c.get("backendId").asText().equals("sm")
          && !c.get("spot").asBoolean()
          && c.path("rejected").isMissingNode() | c.path("rejected").isNull()
          && c.hasNonNull("hourlyUsd")) {
        var price = c.get("hourlyUsd").decimalValue();
        best = best == null ? price : best.min(price);
      }
    }
    assertThat(best).as("a SageMaker offer in " + decision).isNotNull();
    return best;
  }

  private static String submit(String token, String name, int seconds) {
    var spec =
        """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: %s}
        spec:
          framework: pytorch
          image: registry.example.com/train:1
          command: [sleep, "%d"]
          resources: {cpus: 2, memory: 8Gi}
          replicas: {master: 1}
          placement: {spot: never}
        """
            .formatted(name, seconds);
    var answer = client.post("/v1/jobs", token, "application/yaml", spec);
    assertThat(answer.status()).as(answer.body()).isEqualTo(201);
    assertThat(answer.json().get("backend").asText()).isEqualTo("local");
    if (token.equals(alice)) {
      DECISIONS.add(answer.json().get("decision"));
    }
    return answer.json().get("id").asText();
  }

  private static List<String> ids(GatewayClient.Answer answer) {
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    var ids = new ArrayList<String>();
    answer.json().get("jobs").forEach(j -> ids.add(j.get("id").asText()));
    return ids;
  }

  private static List<String> reversed(List<String> ids) {
    var copy = new ArrayList<>(ids);
    java.util.Collections.reverse(copy);
    return copy;
  }

  private static void assertField(GatewayClient.Answer answer, String field) {
    assertThat(answer.status()).as(answer.body()).isEqualTo(400);
    assertThat(answer.json().at("/errors/0/field").asText()).as(answer.body()).isEqualTo(field);
  }

  private static HttpResponse<byte[]> download(String path, String token) {
    try {
      var request =
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + APP.getLocalPort() + path))
              .header("Authorization", "Bearer " + token)
              .build();
      return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Digests are signed by a background tick: poll until the verification lists one. */
  private static void awaitDigest() throws InterruptedException {
    var deadline = Instant.now().plusSeconds(30);
    while (Instant.now().isBefore(deadline)) {
      var days = client.get("/v1/audit/verification", auditor).json().get("digests");
      if (days.size() > 0 && days.get(0).get("verified").asBoolean()) {
        return;
      }
      Thread.sleep(250);
    }
    throw new AssertionError("no verified digest within 30 s");
  }

  private static SageMakerStub startSageMaker() {
    try {
      return new SageMakerStub();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String config() {
    return """
        dataDir: %s
        database:
          url: "jdbc:h2:file:%s/db;DB_CLOSE_ON_EXIT=FALSE"
        auth:
          mode: dev
        audit:
          digestEveryEvents: 5
          digestEvery: 1s
        reconciler:
          resyncInterval: 200ms
        metrics:
          backendCapacity:
            local: {gpus: 0, cpus: 16}
        server:
          applicationConnectors: [{type: http, port: 0, bindHost: 127.0.0.1}]
          adminConnectors: [{type: http, port: 0}]
        teams:
          nlp: {backends: [local, sm], monthlyBudgetUsd: 500}
          vision: {backends: [local]}
        backends:
          - type: local
            usdPerHour: 0.02
            # Every job of these tests runs here (the cheaper offer); without room for all of them
            # at once, a slow machine would queue some or send nlp's to sm.
            maxConcurrentJobs: 20
          - type: sagemaker
            id: sm
            region: us-east-1
            roleArn: arn:aws:iam::123456789012:role/trainyard
            outputPath: s3://ml-out/trainyard/
            endpoint: %s
            accessKeyId: test
            secretAccessKey: test
            maxAttempts: 1
        """
        .formatted(DIR, DIR, SAGEMAKER.endpoint());
  }
}
