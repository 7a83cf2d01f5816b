package io.trainyard.gateway.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.audit.DigestSigner;
import io.trainyard.backend.kubernetes.Attempt;
import io.trainyard.backend.kubernetes.FakeTrainingOperator;
import io.trainyard.gateway.testing.GatewayClient;
import io.trainyard.gateway.testing.PostgresServer;
import io.trainyard.gateway.testing.cluster.GatewayCluster;
import io.trainyard.gateway.testing.cluster.TestIssuer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The upgrade from release v0.1.0: its database snapshot (one job in each state, see {@link
 * SchemaSnapshot}) restored into a fresh PostgreSQL, today's gateway started on it. Every changeSet
 * added after the {@code v0.1.0} tag is applied at start; the finished jobs read as they were, the
 * live ones are followed to their end (the stand-in operator finishes them on the cluster the
 * snapshot's objects were put back on; the queued one is placed once its team's slot frees), and
 * the audit chain verifies across the upgrade, old events and new.
 */
class UpgradeFromSnapshotIT {
  private static final String TAG = "v0.1.0";

  @Test
  void aV010DatabaseWithJobsInEveryStateUpgradesAndItsLiveJobsAreFollowedToTheirEnd()
      throws Exception {
    var snapshot = SchemaSnapshot.directory(TAG);
    var dir = ReplicasIT.clusterDir("upgrade-");
    Files.copy(
        snapshot.resolve(SchemaSnapshot.SIGNING_KEY), dir.resolve(DigestSigner.PRIVATE_KEY_FILE));
    var hmacKey = Files.readString(snapshot.resolve(SchemaSnapshot.HMAC_KEY)).strip();
    try (var postgres = PostgresServer.startDurable();
        var issuer = TestIssuer.start();
        var kubernetes = new KubernetesTarget()) {
      var db = postgres.restore(snapshot.resolve(SchemaSnapshot.DATABASE));
      assertThat(ReplicasIT.query(db, "SELECT tag FROM databasechangelog WHERE tag IS NOT NULL"))
          .isEqualTo(TAG);
      SchemaSnapshot.loadObjects(
          kubernetes.server().client(), snapshot.resolve(SchemaSnapshot.OBJECTS));
      var operator = new FakeTrainingOperator(kubernetes.server().client(), Clock.systemUTC());
      try (var cluster =
          GatewayCluster.builder(db.url(), db.user(), issuer)
              .dir(dir)
              .nodes(1)
              .hmacKey(hmacKey)
              .resyncInterval("1s")
              .teams(SchemaSnapshot.TEAMS)
              .backends(kubernetes.backendYaml("k8s", dir, kubernetes.url()))
              .start()) {
        assertThat(ReplicasIT.query(db, "SELECT COUNT(*) FROM databasechangelog"))
            .as("every changeSet of today's changelog is applied")
            .isEqualTo(String.valueOf(changeSetsInChangelog()));

        var client = cluster.client(0);
        Map<String, String> tokens = new HashMap<>();
        var ids = new HashMap<String, String>();
        for (var team : List.of("ml", "capped", "hold")) {
          tokens.put(team, issuer.mint("mia", List.of(team), List.of("trainer")));
          for (var job : client.get("/v1/jobs", tokens.get(team)).json().get("jobs")) {
            ids.put(job.get("name").asText(), job.get("id").asText());
          }
        }
        assertThat(ids.keySet())
            .containsExactlyInAnyOrderElementsOf(
                SchemaSnapshot.JOBS.stream().map(SchemaSnapshot.Job::name).toList());
        var ml = tokens.get("ml");
        for (var name : List.of("done", "broken", "stopped")) {
          var job = client.get("/v1/jobs/" + ids.get(name), ml).json();
          var expected =
              SchemaSnapshot.JOBS.stream().filter(j -> j.name().equals(name)).findFirst().get();
          assertThat(job.get("state").asText()).as(name).isEqualTo(expected.state());
          assertThat(client.get("/v1/jobs/" + ids.get(name) + "/events", ml).json().get("events"))
              .as(name + "'s events")
              .isNotEmpty();
        }

        operator.succeeded(attempt(client, ids.get("running"), ml, "ml-jobs"));
        operator.running(attempt(client, ids.get("waiting"), ml, "ml-jobs"), Map.of("Master", 1));
        client.awaitState(ids.get("waiting"), "RUNNING", ml);
        operator.succeeded(attempt(client, ids.get("waiting"), ml, "ml-jobs"));
        // The operator finishes the delete the old gateway asked for.
        kubernetes
            .server()
            .client()
            .genericKubernetesResources("kubeflow.org/v1", "PyTorchJob")
            .inNamespace("ml-jobs")
            .withName(attempt(client, ids.get("draining"), ml, "ml-jobs").name())
            .delete();
        var hold = tokens.get("hold");
        client.awaitState(ids.get("pending"), "SUBMITTED", hold);
        operator.succeeded(attempt(client, ids.get("pending"), hold, "hold-jobs"));
        var capped = tokens.get("capped");
        operator.succeeded(attempt(client, ids.get("first"), capped, "capped-jobs"));
        client.awaitState(ids.get("second"), "SUBMITTED", capped);
        operator.succeeded(attempt(client, ids.get("second"), capped, "capped-jobs"));

        var ended = new HashMap<String, String>();
        for (var name : List.of("running", "waiting", "draining")) {
          ended.put(name, client.awaitEnd(ids.get(name), ml).get("state").asText());
        }
        ended.put("pending", client.awaitEnd(ids.get("pending"), hold).get("state").asText());
        for (var name : List.of("first", "second")) {
          ended.put(name, client.awaitEnd(ids.get(name), capped).get("state").asText());
        }
        assertThat(ended)
            .isEqualTo(
                Map.of(
                    "running", "SUCCEEDED",
                    "waiting", "SUCCEEDED",
                    "draining", "CANCELLED",
                    "pending", "SUCCEEDED",
                    "first", "SUCCEEDED",
                    "second", "SUCCEEDED"));
        assertThat(CrashRecoveryIT.verifyChain(cluster, issuer)).isTrue();
      }
    }
  }

  private static Attempt attempt(GatewayClient client, String id, String token, String ns) {
    var job = client.get("/v1/jobs/" + id, token).json();
    return FakeTrainingOperator.pytorchJob(ns, job.get("objectName").asText());
  }

  /** The changeSets of today's changelog (every one applies on PostgreSQL). */
  private static long changeSetsInChangelog() throws Exception {
    var xml = Files.readString(Path.of("src", "main", "resources", "db", "changelog.xml"));
    return Pattern.compile("<changeSet\\s").matcher(xml).results().count();
  }
}
