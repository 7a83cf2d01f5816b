package io.trainyard.gateway.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.gateway.testing.GatewayClient;
import io.trainyard.gateway.testing.PostgresServer;
import io.trainyard.gateway.testing.TestDatabase;
import io.trainyard.gateway.testing.cluster.GatewayCluster;
import io.trainyard.gateway.testing.cluster.TestIssuer;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL stopped ({@code pg_ctl stop -m fast}) under a steady load of submissions and reads,
 * then started again: while it is away every request is answered 503 in the error shape (never a
 * 500, never HTML); nothing is half-written (every job row has its audit event and every event its
 * row; the chain verifies); and the gateway serves again by itself, without a restart.
 *
 * <p>Outage length: {@code -Dtrainyard.outage.seconds} (8 here, 30 under {@code -Pstress}).
 */
class PostgresOutageIT {
  private static final String NAMESPACE = "ml-jobs";

  @Test
  void requestsAre503WhileTheDatabaseIsAwayAndServiceResumesByItself(@TempDir Path dir)
      throws Exception {
    int outageSeconds = ReliabilityFigures.size("trainyard.outage.seconds", 8);
    try (var postgres = PostgresServer.startDurable();
        var issuer = TestIssuer.start();
        var kubernetes = new KubernetesTarget()) {
      var db = postgres.createDatabase();
      try (var cluster =
          GatewayCluster.builder(db.url(), db.user(), issuer)
              .dir(dir)
              .nodes(1)
              .resyncInterval("1s")
              .teams("ml: {backends: [k8s], namespaces: {k8s: " + NAMESPACE + "}}")
              .backends(kubernetes.backendYaml("k8s", dir, kubernetes.url()))
              .start()) {
        var client = cluster.client(0);
        var token = issuer.mint("mia", List.of("ml"), List.of("trainer"));
        var load = new Load(client, token);
        load.start();
        load.awaitAcknowledged(20);

        postgres.stopFast();
        long stoppedAt = System.nanoTime();
        load.outage.set(true);
        Thread.sleep(outageSeconds * 1000L);
        load.outage.set(false);
        postgres.restart();
        long restartedAt = System.nanoTime();
        long recoveredMs = awaitServing(client, token, restartedAt);
        int acknowledgedAtRecovery = load.acknowledged.size();
        load.awaitAcknowledged(acknowledgedAtRecovery + 20);
        var keys = load.stop();

        awaitAllSubmitted(db, keys.size());
        int jobRows = count(db, "SELECT count(*) FROM jobs");
        int rowsWithoutEvent =
            count(
                db,
                "SELECT count(*) FROM jobs j WHERE NOT EXISTS (SELECT 1 FROM audit_events a"
                    + " WHERE a.action = 'job.submit' AND a.resource = 'job/' || j.id)");
        int eventsWithoutRow =
            count(
                db,
                "SELECT count(*) FROM audit_events a WHERE a.action = 'job.submit' AND NOT EXISTS"
                    + " (SELECT 1 FROM jobs j WHERE a.resource = 'job/' || j.id)");
        var chain = CrashRecoveryIT.verifyChain(cluster, issuer);
        var otherFailures = load.badAnswers;

        new ReliabilityFigures("postgres-outage")
            .put("outageSeconds", outageSeconds)
            .put("answersDuringOutage", load.outageAnswers.get())
            .put("answered503", load.answered503.get())
            .put("connectionErrors", load.connectionErrors.get())
            .put("otherFailures", otherFailures.size())
            .put("recoveredMsAfterRestart", recoveredMs)
            .put("outageMs", (restartedAt - stoppedAt) / 1_000_000)
            .put("acknowledged", keys.size())
            .put("jobRows", jobRows)
            .put("rowsWithoutAuditEvent", rowsWithoutEvent)
            .put("auditEventsWithoutRow", eventsWithoutRow)
            .put("chainVerified", chain)
            .publish();

        assertThat(otherFailures)
            .as(
                "every failed answer is a 503 in the error shape; the gateway logged:\n%s",
                whatTheGatewayLogged(cluster.node(0).log(), otherFailures))
            .isEmpty();
        assertThat(load.answered503.get()).isPositive();
        assertThat(load.connectionErrors.get()).as("the gateway stays up").isZero();
        assertThat(jobRows).isEqualTo(keys.size());
        assertThat(rowsWithoutEvent).isZero();
        assertThat(eventsWithoutRow).isZero();
        assertThat(chain).isTrue();
      }
    }
  }

  /** Time from the database's restart to the first 200 of {@code GET /v1/jobs}. */
  private static long awaitServing(GatewayClient client, String token, long since)
      throws InterruptedException {
    var deadline = since + Duration.ofMinutes(2).toNanos();
    while (System.nanoTime() < deadline) {
      if (client.get("/v1/jobs?limit=1", token).status() == 200) {
        return (System.nanoTime() - since) / 1_000_000;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("the gateway did not serve again within 2 minutes of the restart");
  }

  private static void awaitAllSubmitted(TestDatabase db, int n) throws InterruptedException {
    var deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
    int submitted = 0;
    while (System.nanoTime() < deadline) {
      submitted = count(db, "SELECT count(*) FROM jobs WHERE state = 'SUBMITTED'");
      if (submitted == n) {
        return;
      }
      Thread.sleep(500);
    }
    throw new AssertionError("only " + submitted + " of " + n + " jobs reached SUBMITTED");
  }

  private static int count(TestDatabase db, String sql) {
    return db.jdbi().withHandle(h -> h.createQuery(sql).mapTo(Integer.class).one());
  }

  /**
   * Four client threads: three submit (each submission with its own key, sent again until it is
   * acknowledged), one lists jobs. Every answer that is not a success is checked for the error
   * shape.
   */

  /** The gateway's log from each bad answer's request id on: its stack trace says what broke. */
  private static String whatTheGatewayLogged(Path log, List<String> badAnswers) {
    try {
      var lines = Files.readAllLines(log, java.nio.charset.StandardCharsets.UTF_8);
      var out = new StringBuilder();
      for (var answer : badAnswers) {
        var id =
            java.util.regex.Pattern.compile("\"requestId\":\"([0-9a-f-]{36})\"").matcher(answer);
        if (!id.find()) {
          continue;
        }
        for (int i = 0; i < lines.size(); i++) {
          if (lines.get(i).contains(id.group(1))) {
            lines
                .subList(i, Math.min(lines.size(), i + 40))
                .forEach(l -> out.append(l).append('\n'));
            break;
          }
        }
      }
      return out.length() == 0 ? "(no line names the request ids)" : out.toString();
    } catch (java.io.IOException e) {
      return "(log unreadable: " + e + ")";
    }
  }

  private static final class Load {
    private final GatewayClient client;
    private final String token;
    private final ExecutorService pool = Executors.newFixedThreadPool(4);
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicBoolean outage = new AtomicBoolean();
    private final AtomicInteger next = new AtomicInteger();
    private final Map<String, String> acknowledged = new ConcurrentHashMap<>();
    private final AtomicInteger outageAnswers = new AtomicInteger();
    private final AtomicInteger answered503 = new AtomicInteger();
    private final AtomicInteger connectionErrors = new AtomicInteger();
    private final List<String> badAnswers = new CopyOnWriteArrayList<>();

    Load(GatewayClient client, String token) {
      this.client = client;
      this.token = token;
    }

    void start() {
      for (int t = 0; t < 3; t++) {
        pool.submit(this::submitLoop);
      }
      pool.submit(this::readLoop);
    }

    void awaitAcknowledged(int count) throws InterruptedException {
      var deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
      while (acknowledged.size() < count) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("only " + acknowledged.size() + " acknowledged: " + badAnswers);
        }
        Thread.sleep(20);
      }
    }

    Map<String, String> stop() throws InterruptedException {
      running.set(false);
      pool.shutdown();
      assertThat(pool.awaitTermination(2, TimeUnit.MINUTES)).isTrue();
      return Map.copyOf(acknowledged);
    }

    private void submitLoop() {
      while (running.get()) {
        int index = next.getAndIncrement();
        var key = "outage-" + index;
        var spec =
            """
            apiVersion: trainyard.io/v1
            kind: TrainingJob
            metadata: {name: outage-%d}
            spec:
              framework: pytorch
              image: registry.example.com/train:1
              command: [python, train.py]
              resources: {cpus: 1, memory: 1Gi}
              replicas: {master: 1}
            """
                .formatted(index);
        // Sent until acknowledged, even past stop(): an unacknowledged key would be a lost job.
        var deadline = System.nanoTime() + Duration.ofMinutes(4).toNanos();
        while (System.nanoTime() < deadline) {
          var answer =
              send(
                  () ->
                      client.post(
                          "/v1/jobs", token, "application/yaml", spec, "Idempotency-Key", key));
          if (answer != null && (answer.status() == 201 || answer.status() == 200)) {
            acknowledged.put(key, answer.json().get("id").asText());
            break;
          }
          pause();
        }
      }
    }

    private void readLoop() {
      while (running.get()) {
        send(() -> client.get("/v1/jobs?limit=5", token));
        pause();
      }
    }

    /** Sends, classifies a failure; null when the connection itself failed. */
    private GatewayClient.Answer send(java.util.function.Supplier<GatewayClient.Answer> request) {
      boolean duringOutage = outage.get();
      GatewayClient.Answer answer;
      try {
        answer = request.get();
      } catch (UncheckedIOException e) {
        connectionErrors.incrementAndGet();
        return null;
      }
      if (duringOutage) {
        outageAnswers.incrementAndGet();
      }
      if (answer.status() < 400) {
        return answer;
      }
      if (answer.status() == 503 && isErrorShape(answer)) {
        answered503.incrementAndGet();
      } else {
        badAnswers.add(answer.status() + " " + answer.body());
      }
      return answer;
    }

    private static boolean isErrorShape(GatewayClient.Answer answer) {
      try {
        var json = answer.json();
        return json.hasNonNull("code")
            && json.hasNonNull("message")
            && json.has("errors")
            && json.get("errors").isArray()
            && json.hasNonNull("requestId")
            && answer
                .headers()
                .getOrDefault("content-type", List.of(""))
                .get(0)
                .startsWith("application/json");
      } catch (UncheckedIOException notJson) {
        return false;
      }
    }

    private static void pause() {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
