package io.trainyard.gateway.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.gateway.testing.PostgresServer;
import io.trainyard.gateway.testing.TestDatabase;
import io.trainyard.gateway.testing.cluster.GatewayCluster;
import io.trainyard.gateway.testing.cluster.GatewayNode;
import io.trainyard.gateway.testing.cluster.TestIssuer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Three gateway processes started together on one empty PostgreSQL database: one applies the schema
 * under the migration lock while the others wait, then all three serve one API — a job submitted on
 * one is read on another and cancelled on the third, and the audit chain they wrote together
 * verifies.
 *
 * <p>"Together" without timing: the test holds the migrators' advisory lock itself (as a gateway
 * still migrating would) until every node has logged that it is waiting for it, then lets go. So
 * all three contend at the same moment, and the logs show who migrated: exactly one applied the
 * changeSets; the two others found nothing to apply, which they can only have found by waiting
 * until it was done.
 */
class ReplicasIT {
  private static final String NAMESPACE = "ml-jobs";
  private static final Duration READY = Duration.ofMinutes(3);

  /** DatabaseMigrator's advisory lock key. */
  private static final long MIGRATION_LOCK = 0x7472_6169_6e79_6172L;

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
  void threeGatewaysStartedTogetherOnAnEmptyDatabaseMigrateOnceAndServeOneApi() throws Exception {
    var dir = ReplicasIT.clusterDir("replicas-");
    var db = postgres.createDatabase();
    try (var cluster =
        GatewayCluster.builder(db.url(), db.user(), issuer)
            .dir(dir)
            .nodes(3)
            .resyncInterval("1s")
            .teams("ml: {backends: [k8s], namespaces: {k8s: " + NAMESPACE + "}}")
            .backends(kubernetes.backendYaml("k8s", dir, kubernetes.url()))
            .build()) {
      try (var holder = DriverManager.getConnection(db.url(), db.user(), "");
          var lock = holder.prepareStatement("SELECT pg_advisory_lock(?)");
          var unlock = holder.prepareStatement("SELECT pg_advisory_unlock(?)")) {
        lock.setLong(1, MIGRATION_LOCK);
        lock.execute();
        cluster.nodes().forEach(GatewayNode::start);
        for (var node : cluster.nodes()) {
          awaitLogLine(node, "waiting for the schema migration lock", READY);
        }
        unlock.setLong(1, MIGRATION_LOCK);
        unlock.execute();
      }
      cluster.startAll(READY);

      var migrated =
          cluster.nodes().stream()
              .filter(n -> log(n).contains("schema migrated: applied"))
              .toList();
      var upToDate =
          cluster.nodes().stream()
              .filter(n -> log(n).contains("schema up to date: nothing to apply"))
              .toList();
      assertThat(migrated).as("exactly one node applies the schema").hasSize(1);
      assertThat(upToDate).as("the others wait and find it done").hasSize(2);
      assertThat(cluster.nodes())
          .allSatisfy(n -> assertThat(log(n)).contains("took the schema migration lock after"));
      assertThat(query(db, "SELECT COUNT(DISTINCT deployment_id) FROM databasechangelog"))
          .as("one Liquibase run applied every changeSet")
          .isEqualTo("1");
      assertThat(query(db, "SELECT COUNT(*) - COUNT(DISTINCT id) FROM databasechangelog"))
          .isEqualTo("0");
      assertThat(query(db, "SELECT COUNT(*) FROM databasechangeloglock WHERE locked"))
          .isEqualTo("0");
      assertThat(query(db, "SELECT tag FROM databasechangelog WHERE tag IS NOT NULL"))
          .isEqualTo("v0.1.0");

      var trainer = issuer.mint("mia", List.of("ml"), List.of("trainer"));
      var submitted =
          cluster
              .client(0)
              .post(
                  "/v1/jobs",
                  trainer,
                  "application/yaml",
                  spec("shared-api"),
                  "Idempotency-Key",
                  "replicas-1");
      assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
      var id = submitted.json().get("id").asText();
      assertThat(cluster.client(1).awaitState(id, "SUBMITTED", trainer).get("id").asText())
          .isEqualTo(id);
      var cancel = cluster.client(2).delete("/v1/jobs/" + id, trainer);
      assertThat(cancel.status()).as(cancel.body()).isBetween(200, 299);
      assertThat(cluster.client(1).awaitEnd(id, trainer).get("state").asText())
          .isEqualTo("CANCELLED");
      assertThat(kubernetes.pytorchJobs(NAMESPACE))
          .noneMatch(o -> id.equals(o.getMetadata().getLabels().get("trainyard.io/job-id")));
      assertThat(CrashRecoveryIT.verifyChain(cluster, issuer)).isTrue();
    }
  }

  static String spec(String name) {
    return """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: %s}
        spec:
          framework: pytorch
          image: registry.example.com/train:1
          command: [python, train.py]
          resources: {cpus: 1, memory: 1Gi}
          replicas: {master: 1}
        """
        .formatted(name);
  }

  /** A directory under target/ for a cluster's nodes, kept for a post-mortem. */
  static Path clusterDir(String prefix) throws IOException {
    var parent = Files.createDirectories(Path.of("target", "it-clusters"));
    return Files.createTempDirectory(parent, prefix).toAbsolutePath();
  }

  static String log(GatewayNode node) {
    try {
      return Files.exists(node.log()) ? Files.readString(node.log()) : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void awaitLogLine(GatewayNode node, String text, Duration timeout)
      throws InterruptedException {
    var deadline = System.nanoTime() + timeout.toNanos();
    while (!log(node).contains(text)) {
      if (!node.isAlive()) {
        throw new AssertionError(node + " ended before logging '" + text + "':\n" + node.logTail());
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(node + " never logged '" + text + "':\n" + node.logTail());
      }
      Thread.sleep(50);
    }
  }

  static String query(TestDatabase db, String sql) {
    return db.jdbi().withHandle(h -> h.createQuery(sql).mapTo(String.class).one());
  }
}
