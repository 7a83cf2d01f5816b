package io.trainyard.gateway.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.auth.DevIssuer;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.testing.DevApp;
import io.trainyard.gateway.testing.GatewayClient;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The admin port's {@code /prometheus} scraped over HTTP from a real gateway (H2, the local backend
 * running real processes), its numbers checked against the jobs the API shows.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class PrometheusGatewayIT {
  private static final Path DIR = GatewayClient.tempDir("trainyard-prometheus");
  private static final Path REPO = Path.of("..").toAbsolutePath().normalize();

  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      DevApp.onFreePorts(DIR, config());

  private static GatewayClient client;
  private static GatewayClient admin;
  private static String trainer;
  private static String teamAdmin;
  private static String poor;
  private static String stingy;

  @BeforeAll
  static void tokens() {
    client = new GatewayClient(APP.getLocalPort());
    admin = new GatewayClient(APP.getAdminPort());
    var issuer = DevIssuer.loadOrCreate(DIR, AuthConfig.DEV_ISSUER);
    trainer = issuer.mint("erin", Set.of("ml"), Set.of("trainer"), Duration.ofHours(1));
    teamAdmin = issuer.mint("frank", Set.of("ml"), Set.of("team-admin"), Duration.ofHours(1));
    poor = issuer.mint("gus", Set.of("poor"), Set.of("trainer"), Duration.ofHours(1));
    stingy = issuer.mint("hal", Set.of("stingy"), Set.of("trainer"), Duration.ofHours(1));
  }

  @Test
  void countersHistogramsResourcesAndSpendMatchTheJobsRun() {
    var ok = submit(trainer, job("ok", "[sleep, \"1\"]", ""));
    var bad = submit(trainer, job("bad", "[python3, -c, \"import sys; sys.exit(3)\"]", ""));
    var jobs = new ArrayList<JsonNode>();
    jobs.add(client.awaitEnd(ok, trainer));
    jobs.add(client.awaitEnd(bad, trainer));
    assertThat(jobs.get(0).get("state").asText()).isEqualTo("SUCCEEDED");
    assertThat(jobs.get(1).get("state").asText()).isEqualTo("FAILED");

    // While it runs, the long one holds its CPUs on local, against local's configured capacity.
    var slow = submit(trainer, job("slow", "[sleep, \"60\"]", "resources: {cpus: 2}"));
    client.awaitState(slow, "RUNNING", trainer);
    var running = await(s -> s.valueOrZero("trainyard_placed_jobs", ML_LOCAL) == 1);
    assertThat(running.valueOrZero("trainyard_placed_cpus", ML_LOCAL)).isEqualTo(2.0);
    assertThat(running.valueOrZero("trainyard_placed_gpus", ML_LOCAL)).isEqualTo(0.0);
    assertThat(running.value("trainyard_backend_capacity_cpus", Map.of("backend", "local")))
        .contains(8.0);
    assertThat(running.value("trainyard_team_max_gpus", Map.of("team", "ml"))).contains(4.0);
    assertThat(client.delete("/v1/jobs/" + slow, trainer).status()).isEqualTo(202);
    jobs.add(client.awaitEnd(slow, trainer));
    assertThat(jobs.get(2).get("state").asText()).isEqualTo("CANCELLED");

    var started = jobs.stream().filter(j -> j.hasNonNull("startedAt")).toList();
    var scrape =
        await(
            s ->
                s.valueOrZero("trainyard_jobs_cancelled_total", ML_LOCAL) == 1
                    && s.valueOrZero("trainyard_placed_jobs", ML_LOCAL) == 0);
    assertThat(scrape.valueOrZero("trainyard_jobs_submitted_total", ML_LOCAL)).isEqualTo(3.0);
    assertThat(scrape.valueOrZero("trainyard_jobs_succeeded_total", ML_LOCAL)).isEqualTo(1.0);
    assertThat(scrape.valueOrZero("trainyard_jobs_failed_total", ML_LOCAL)).isEqualTo(1.0);
    assertThat(scrape.valueOrZero("trainyard_jobs_started_total", ML_LOCAL))
        .isEqualTo(started.size());
    assertThat(started).isNotEmpty(); // the cancelled one was seen RUNNING

    var durations = started.stream().mapToDouble(j -> seconds(j, "startedAt", "endedAt")).sum();
    var waits = started.stream().mapToDouble(j -> seconds(j, "createdAt", "startedAt")).sum();
    assertThat(scrape.valueOrZero("trainyard_job_duration_seconds_count", ML_LOCAL))
        .isEqualTo(started.size());
    assertThat(scrape.valueOrZero("trainyard_job_duration_seconds_sum", ML_LOCAL))
        .isCloseTo(durations, within(1e-3));
    assertThat(scrape.valueOrZero("trainyard_job_time_to_start_seconds_count", ML_LOCAL))
        .isEqualTo(started.size());
    assertThat(scrape.valueOrZero("trainyard_job_time_to_start_seconds_sum", ML_LOCAL))
        .isCloseTo(waits, within(1e-3));
    // Cumulative buckets: all ended runs are under a week, none (here) under nothing.
    var week = Map.of("team", "ml", "backend", "local", "le", "604800.0");
    assertThat(scrape.valueOrZero("trainyard_job_duration_seconds_bucket", week))
        .isEqualTo(started.size());
    assertThat(scrape.types())
        .containsEntry("trainyard_job_duration_seconds", "histogram")
        .containsEntry("trainyard_jobs_submitted_total", "counter")
        .containsEntry("trainyard_team_budget_usd", "gauge");

    // Spend: $1/h on local, as the team's spend answer counts it (all of it accrued, none live).
    var spend = client.get("/v1/teams/ml/spend", teamAdmin).json();
    var accrued = spend.get("accruedUsd").decimalValue();
    assertThat(accrued).isGreaterThan(BigDecimal.ZERO);
    assertThat(scrape.value("trainyard_team_spend_accrued_usd", Map.of("team", "ml")))
        .hasValueSatisfying(v -> assertThat(v).isCloseTo(accrued.doubleValue(), within(1e-6)));
    assertThat(scrape.value("trainyard_team_spend_committed_usd", Map.of("team", "ml")))
        .contains(0.0);
  }

  @Test
  void aJobQueuedOverBudgetShowsInTheQueueGaugesWithoutABackend() {
    var answer =
        client.post("/v1/jobs", poor, "application/yaml", job("waits", "[sleep, \"1\"]", ""));
    assertThat(answer.status()).as(answer.body()).isEqualTo(201);
    assertThat(answer.json().get("state").asText()).isEqualTo("QUEUED");
    var queued = Map.of("team", "poor", "backend", "");
    var scrape = await(s -> s.valueOrZero("trainyard_queue_jobs", queued) == 1);
    assertThat(scrape.value("trainyard_queue_oldest_age_seconds", queued))
        .hasValueSatisfying(age -> assertThat(age).isGreaterThanOrEqualTo(0.0));
    assertThat(scrape.valueOrZero("trainyard_jobs_submitted_total", queued)).isEqualTo(1.0);
    assertThat(scrape.value("trainyard_team_budget_usd", Map.of("team", "poor"))).contains(0.0);
    // No queue series without a queued job.
    assertThat(scrape.value("trainyard_queue_jobs", Map.of("team", "ml"))).isEmpty();
  }

  @Test
  void aSubmissionRefusedOverBudgetIsCountedAsRefusedNotSubmitted() {
    var answer =
        client.post("/v1/jobs", stingy, "application/yaml", job("no", "[sleep, \"1\"]", ""));
    assertThat(answer.status()).as(answer.body()).isEqualTo(422);
    var team = Map.of("team", "stingy");
    var scrape = await(s -> s.valueOrZero("trainyard_jobs_refused_total", team) == 1);
    assertThat(scrape.valueOrZero("trainyard_jobs_submitted_total", team)).isEqualTo(0.0);
  }

  @Test
  void theEndpointSpeaksTheTextFormatAndDropwizardsJsonStaysAtMetrics() {
    var text = admin.get("/prometheus", null);
    assertThat(text.status()).isEqualTo(200);
    assertThat(text.headers().get("content-type").get(0)).startsWith("text/plain; version=0.0.4");
    assertThat(text.body()).contains("# TYPE trainyard_jobs_submitted_total counter");
    // The JVM's own, beside the gateway's.
    var scrape = PrometheusText.parse(text.body());
    assertThat(scrape.valueOrZero("jvm_memory_used_bytes", Map.of("area", "heap"))).isPositive();
    assertThat(scrape.valueOrZero("jvm_threads_current", Map.of())).isPositive();
    var json = admin.get("/metrics", null);
    assertThat(json.status()).isEqualTo(200);
    assertThat(json.json().has("gauges")).isTrue();
  }

  private static final Map<String, String> ML_LOCAL = Map.of("team", "ml", "backend", "local");

  private static String submit(String token, String yaml) {
    var answer = client.post("/v1/jobs", token, "application/yaml", yaml);
    assertThat(answer.status()).as(answer.body()).isEqualTo(201);
    return answer.json().get("id").asText();
  }

  private static PrometheusText scrape() {
    var answer = admin.get("/prometheus", null);
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    return PrometheusText.parse(answer.body());
  }

  /** Scrapes until {@code ready} (counters move right after the change commits), for up to 30 s. */
  private static PrometheusText await(Predicate<PrometheusText> ready) {
    var deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    var last = scrape();
    while (!ready.test(last)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the scrape never got there; last:\n" + last.samples());
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
      last = scrape();
    }
    return last;
  }

  private static double seconds(JsonNode job, String from, String to) {
    var a = Instant.parse(job.get(from).asText());
    var b = Instant.parse(job.get(to).asText());
    return Duration.between(a, b).toNanos() / 1e9;
  }

  private static String job(String name, String command, String extra) {
    return """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: %s}
        spec:
          framework: pytorch
          image: python:3.11-slim
          command: %s
          replicas: {master: 1}
          restartPolicy: Never
          %s
        """
        .formatted(name, command, extra);
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
          adminConnectors: [{type: http, port: 0, bindHost: 127.0.0.1}]
        backends:
          - type: local
            codeDir: %s
            usdPerHour: 1
        teams:
          ml: {backends: [local], maxGpus: 4}
          poor: {backends: [local], monthlyBudgetUsd: 0, overBudget: queue}
          stingy: {backends: [local], monthlyBudgetUsd: 0, overBudget: refuse}
        metrics:
          databaseReadsEvery: 0s
          spendReadsEvery: 0s
          backendCapacity:
            local: {cpus: 8}
        """
        .formatted(DIR, DIR, REPO);
  }
}
