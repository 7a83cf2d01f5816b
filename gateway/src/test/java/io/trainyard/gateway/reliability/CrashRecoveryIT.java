package io.trainyard.gateway.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.trainyard.audit.AuditVerifier;
import io.trainyard.gateway.testing.GatewayClient;
import io.trainyard.gateway.testing.PostgresServer;
import io.trainyard.gateway.testing.TestDatabase;
import io.trainyard.gateway.testing.cluster.GatewayCluster;
import io.trainyard.gateway.testing.cluster.GatewayNode;
import io.trainyard.gateway.testing.cluster.TestIssuer;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Gateway processes killed with SIGKILL on a durable PostgreSQL: while submissions with an {@code
 * Idempotency-Key} are in flight (two processes; first one is killed, then both), and during a
 * first start's schema migration. Clients retry what failed, as a user's tool does. Nothing may be
 * lost or doubled — counted in the database and in the Kubernetes API server the backend wrote to —
 * and the audit chain must verify offline.
 *
 * <p>Sizes: {@code -Dtrainyard.crash.submissions} (200 here, 1,000 under {@code -Pstress}).
 */
class CrashRecoveryIT {
  private static final String NAMESPACE = "ml-jobs";
  private static final Duration READY = Duration.ofMinutes(2);

  private static PostgresServer postgres;
  private static TestIssuer issuer;
  private static KubernetesTarget kubernetes;

  @BeforeAll
  static void startParts() {
    postgres = PostgresServer.startDurable();
    issuer = TestIssuer.start();
    kubernetes = new KubernetesTarget();
  }

  @AfterAll
  static void stopParts() {
    kubernetes.close();
    issuer.close();
    postgres.close();
  }

  @Test
  void killedGatewaysLoseAndDoubleNothingWhileSubmissionsAreInFlight(@TempDir Path dir)
      throws Exception {
    int n = ReliabilityFigures.size("trainyard.crash.submissions", 200);
    var db = postgres.createDatabase();
    try (var cluster = cluster(db, dir, 2)) {
      var trainer = issuer.mint("mia", List.of("ml"), List.of("trainer"));
      var load = new SubmissionLoad(cluster, trainer, n);
      long started = System.nanoTime();
      load.start();

      load.awaitAcknowledged(n / 4);
      kill(cluster.node(0));
      cluster.node(0).start();
      cluster.node(0).awaitReady(READY);

      load.awaitAcknowledged(n / 2);
      // Every gateway down at once: the single-process case.
      kill(cluster.node(0));
      kill(cluster.node(1));
      cluster.startAll(READY);

      var acknowledged = load.finish(Duration.ofMinutes(10));
      long elapsedMs = (System.nanoTime() - started) / 1_000_000;

      awaitAllSubmitted(db, n);
      // An attempt a killed gateway submitted without storing the answer, which its job then left
      // (its backend seemed down when the gateway came back), is cancelled once the backend is
      // reachable: only then may every job have exactly one object.
      awaitNoLeftAttempts(db);
      var ids = new HashSet<>(acknowledged.values());
      int jobRows = count(db, "SELECT count(*) FROM jobs");
      var lost = ids.stream().filter(id -> !exists(db, id)).count();
      var objects = kubernetes.pytorchJobs(NAMESPACE);
      var objectJobIds =
          objects.stream()
              .map(o -> o.getMetadata().getLabels().get("trainyard.io/job-id"))
              .toList();
      int duplicateObjects = objectJobIds.size() - new HashSet<>(objectJobIds).size();
      var chain = verifyChain(cluster, issuer);

      new ReliabilityFigures("crash-kill9-2procs")
          .put("submissions", n)
          .put("acknowledged", acknowledged.size())
          .put("distinctJobs", ids.size())
          .put("jobRows", jobRows)
          .put("lost", lost)
          .put("backendObjects", objects.size())
          .put("duplicateObjects", duplicateObjects)
          .put("kills", 3)
          .put("clientRetries", load.retries.get())
          .put("replays200", load.replays.get())
          .put("chainVerified", chain)
          .put(
              "leftAttemptsCleanedUp",
              count(db, "SELECT count(*) FROM job_events WHERE type = 'CLEANUP'"))
          .put("elapsedMs", elapsedMs)
          .publish();

      assertThat(acknowledged).hasSize(n);
      assertThat(ids).as("one job per idempotency key").hasSize(n);
      assertThat(jobRows).as("no job row without an acknowledged key").isEqualTo(n);
      assertThat(lost).isZero();
      assertThat(new HashSet<>(objectJobIds)).isEqualTo(ids);
      assertThat(duplicateObjects).as(() -> duplicatesReport(db, objects)).isZero();
      // Each the job's current attempt: the first, or a later one where a restarted gateway found
      // the backend unreachable and the job moved on (the attempt it left was cancelled above).
      var attempts = attempts(db);
      assertThat(objects)
          .allSatisfy(
              o -> {
                var job = o.getMetadata().getLabels().get("trainyard.io/job-id");
                assertThat(o.getMetadata().getName())
                    .isEqualTo("ty-" + job + "-a" + attempts.get(job));
              });
      assertThat(chain).isTrue();
    }
  }

  @Test
  void aGatewayKilledDuringItsFirstMigrationDoesNotBlockTheNextStart(@TempDir Path dir)
      throws Exception {
    // The kill must land while Liquibase's lock is held; on a fast machine that window is short,
    // so a try that missed it starts again on a fresh database.
    for (int attempt = 1; attempt <= 5; attempt++) {
      var db = postgres.createDatabase();
      try (var cluster = cluster(db, dir.resolve("try" + attempt), 1, false)) {
        var node = cluster.node(0);
        node.start();
        boolean held = awaitMigrationLock(db, node, Duration.ofMinutes(2));
        node.kill();
        if (!held || !migrationLockHeld(db)) {
          continue; // missed the window: the migration had finished (or not begun)
        }
        long restarted = System.nanoTime();
        node.start();
        node.awaitReady(READY);
        long readyMs = (System.nanoTime() - restarted) / 1_000_000;
        new ReliabilityFigures("crash-kill9-migration")
            .put("attempt", attempt)
            .put("restartReadyMs", readyMs)
            .publish();
        assertThat(migrationLockHeld(db)).isFalse();
        assertThat(Files.readString(node.log()))
            .contains("released the schema migration lock left by a gateway");
        var token = issuer.mint("mia", List.of("ml"), List.of("trainer"));
        assertThat(node.client().get("/v1/jobs", token).status()).isEqualTo(200);
        return;
      }
    }
    throw new AssertionError("never killed a gateway while it held the migration lock in 5 tries");
  }

  private static GatewayCluster cluster(TestDatabase db, Path dir, int nodes) {
    return cluster(db, dir, nodes, true);
  }

  private static GatewayCluster cluster(TestDatabase db, Path dir, int nodes, boolean start) {
    var builder =
        GatewayCluster.builder(db.url(), db.user(), issuer)
            .dir(dir)
            .nodes(nodes)
            .resyncInterval("1s")
            .teams("ml: {backends: [k8s], namespaces: {k8s: " + NAMESPACE + "}}")
            .backends(kubernetes.backendYaml("k8s", dir, kubernetes.url()));
    return start ? builder.start() : builder.build();
  }

  private static void kill(GatewayNode node) {
    node.kill();
  }

  /** Polls Liquibase's lock row as fast as JDBC allows until it is held or the node is ready. */
  private static boolean awaitMigrationLock(TestDatabase db, GatewayNode node, Duration timeout)
      throws SQLException {
    var deadline = System.nanoTime() + timeout.toNanos();
    try (var c = DriverManager.getConnection(db.url(), db.user(), "")) {
      while (System.nanoTime() < deadline && node.isAlive()) {
        try (var s = c.createStatement();
            var r = s.executeQuery("SELECT locked FROM databasechangeloglock WHERE locked")) {
          if (r.next()) {
            return true;
          }
        } catch (SQLException notYetCreated) {
          // the table appears with the first migration
        }
        if (node.isReady()) {
          return false; // migrated without our seeing the lock: too late
        }
      }
    }
    return false;
  }

  private static boolean migrationLockHeld(TestDatabase db) throws SQLException {
    try (var c = DriverManager.getConnection(db.url(), db.user(), "");
        var s = c.createStatement();
        var r = s.executeQuery("SELECT count(*) FROM databasechangeloglock WHERE locked")) {
      r.next();
      return r.getInt(1) > 0;
    }
  }

  private static void awaitAllSubmitted(TestDatabase db, int n) throws Exception {
    var deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
    Map<String, Integer> states = Map.of();
    while (System.nanoTime() < deadline) {
      states = states(db);
      if (states.getOrDefault("SUBMITTED", 0) == n) {
        return;
      }
      Thread.sleep(500);
    }
    throw new AssertionError("not every job reached SUBMITTED: " + states);
  }

  private static void awaitNoLeftAttempts(TestDatabase db) throws InterruptedException {
    var deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (count(db, "SELECT count(*) FROM stale_attempts") > 0) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("left attempts not cleaned up in 2 minutes");
      }
      Thread.sleep(500);
    }
  }

  private static Map<String, Integer> states(TestDatabase db) {
    return intsByKey(db, "SELECT state, count(*) FROM jobs GROUP BY state");
  }

  /** The rows of {@code sql}, two columns: a string key and an int. */
  private static Map<String, Integer> intsByKey(TestDatabase db, String sql) {
    var values = new HashMap<String, Integer>();
    db.jdbi()
        .useHandle(
            h ->
                h.createQuery(sql)
                    .map((r, ctx) -> Map.entry(r.getString(1), r.getInt(2)))
                    .forEach(e -> values.put(e.getKey(), e.getValue())));
    return values;
  }

  /** Each job with more than one object: the objects' names and what its events say. */
  private static String duplicatesReport(TestDatabase db, List<GenericKubernetesResource> objects) {
    var byJob = new HashMap<String, List<String>>();
    for (var o : objects) {
      byJob
          .computeIfAbsent(
              o.getMetadata().getLabels().get("trainyard.io/job-id"), k -> new ArrayList<>())
          .add(o.getMetadata().getName());
    }
    var report = new StringBuilder("jobs with more than one backend object:");
    byJob.forEach(
        (job, names) -> {
          if (names.size() > 1) {
            report.append("\n").append(job).append(" objects ").append(names).append(", events:");
            db.jdbi()
                .useHandle(
                    h ->
                        h.createQuery(
                                "SELECT at, type, message FROM job_events WHERE job_id = :id"
                                    + " ORDER BY seq")
                            .bind("id", job)
                            .map(
                                (r, ctx) ->
                                    r.getString(1) + " " + r.getString(2) + " " + r.getString(3))
                            .forEach(line -> report.append("\n  ").append(line)));
          }
        });
    return report.toString();
  }

  /** Job id → its current attempt. */
  private static Map<String, Integer> attempts(TestDatabase db) {
    return intsByKey(db, "SELECT id, attempt FROM jobs");
  }

  private static int count(TestDatabase db, String sql) {
    return db.jdbi().withHandle(h -> h.createQuery(sql).mapTo(Integer.class).one());
  }

  private static boolean exists(TestDatabase db, String id) {
    return db.jdbi()
            .withHandle(
                h ->
                    h.createQuery("SELECT count(*) FROM jobs WHERE id = :id")
                        .bind("id", id)
                        .mapTo(Integer.class)
                        .one())
        == 1;
  }

  /** {@code POST /v1/audit/exports} on a live node, verified offline with the published key. */
  static boolean verifyChain(GatewayCluster cluster, TestIssuer issuer) {
    var auditor = issuer.mint("aud", List.of("ml"), List.of("auditor"));
    var node = cluster.node(0);
    var client = node.client();
    var keyId = client.get("/v1/audit/public-key", auditor).json().get("keyId").asText();
    var export = client.post("/v1/audit/exports", auditor, "application/json", "{}");
    assertThat(export.status()).as(export.body()).isEqualTo(201);
    var exportDir = node.dir().resolve("audit-exports").resolve(export.json().get("name").asText());
    var report = AuditVerifier.verify(exportDir, keyId);
    assertThat(report.ok()).as(report.toText()).isTrue();
    return export.json().get("chainIntactAtExport").asBoolean() && report.ok();
  }

  /**
   * {@code n} submissions, each with its own {@code Idempotency-Key}, from 12 client threads that
   * retry on any node whatever fails (refused connection, reset, 5xx) until it is acknowledged.
   */
  static final class SubmissionLoad {
    private final GatewayCluster cluster;
    private final String token;
    private final int n;
    private final ExecutorService pool = Executors.newFixedThreadPool(12);
    private final Map<Integer, String> acknowledged = new ConcurrentHashMap<>();
    private final AtomicInteger retries = new AtomicInteger();
    private final AtomicInteger replays = new AtomicInteger();
    private final List<Future<?>> futures = new ArrayList<>();

    SubmissionLoad(GatewayCluster cluster, String token, int n) {
      this.cluster = cluster;
      this.token = token;
      this.n = n;
    }

    void start() {
      for (int i = 0; i < n; i++) {
        int index = i;
        futures.add(pool.submit(() -> submit(index)));
      }
    }

    void awaitAcknowledged(int count) throws InterruptedException {
      var deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
      while (acknowledged.size() < count) {
        if (System.nanoTime() > deadline) {
          throw new AssertionError("only " + acknowledged.size() + " acknowledged");
        }
        Thread.sleep(10);
      }
    }

    Map<Integer, String> finish(Duration timeout) throws Exception {
      pool.shutdown();
      assertThat(pool.awaitTermination(timeout.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
      for (var f : futures) {
        f.get();
      }
      return Map.copyOf(acknowledged);
    }

    private void submit(int index) {
      var spec =
          """
          apiVersion: trainyard.io/v1
          kind: TrainingJob
          metadata: {name: crash-%d}
          spec:
            framework: pytorch
            image: registry.example.com/train:1
            command: [python, train.py]
            resources: {cpus: 1, memory: 1Gi}
            replicas: {master: 1}
          """
              .formatted(index);
      var deadline = System.nanoTime() + Duration.ofMinutes(8).toNanos();
      for (int attempt = 0; System.nanoTime() < deadline; attempt++) {
        var client = cluster.client((index + attempt) % cluster.nodes().size());
        GatewayClient.Answer answer;
        try {
          answer =
              client.post(
                  "/v1/jobs", token, "application/yaml", spec, "Idempotency-Key", "key-" + index);
        } catch (UncheckedIOException refusedOrReset) {
          retries.incrementAndGet();
          pause();
          continue;
        }
        if (answer.status() == 201 || answer.status() == 200) {
          if (answer.status() == 200) {
            replays.incrementAndGet();
          }
          acknowledged.put(index, answer.json().get("id").asText());
          return;
        }
        if (answer.status() >= 500) {
          retries.incrementAndGet();
          pause();
          continue;
        }
        throw new AssertionError(
            "submission " + index + ": " + answer.status() + " " + answer.body());
      }
      throw new AssertionError("submission " + index + " never acknowledged");
    }

    private static void pause() {
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }
}
