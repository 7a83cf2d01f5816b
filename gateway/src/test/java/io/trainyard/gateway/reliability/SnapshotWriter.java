package io.trainyard.gateway.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.trainyard.audit.DigestSigner;
import io.trainyard.backend.kubernetes.FakeTrainingOperator;
import io.trainyard.gateway.testing.PostgresServer;
import io.trainyard.gateway.testing.cluster.GatewayCluster;
import io.trainyard.gateway.testing.cluster.TestIssuer;
import java.nio.file.Files;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Writes the database snapshot of the current schema tag ({@link SchemaSnapshot}): a gateway of
 * today on an empty PostgreSQL, one job driven into each state through the API and a stand-in
 * operator, then the gateway stopped and its database dumped. Not an {@code *IT}, so {@code mvn
 * verify} never runs it (nor counts it as skipped); it runs only when named, with the tag, and when
 * a release tags the schema (a {@code tagDatabase} changeSet at the end of changelog.xml), run it
 * with that tag and commit the directory it writes:
 *
 * <pre>
 * mvn -B verify -pl gateway -am -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
 *   -Dit.test=SnapshotWriter -Dfailsafe.failIfNoSpecifiedTests=false -Dtrainyard.snapshot.write=v0.1.0
 * </pre>
 */
@EnabledIfSystemProperty(named = "trainyard.snapshot.write", matches = "v.+")
class SnapshotWriter {
  @Test
  void writesTheSnapshotOfTheCurrentSchema() throws Exception {
    var tag = System.getProperty("trainyard.snapshot.write");
    var out = Files.createDirectories(SchemaSnapshot.directory(tag));
    var dir = ReplicasIT.clusterDir("snapshot-");
    var hmac = new byte[32];
    new SecureRandom().nextBytes(hmac);
    var hmacKey = Base64.getEncoder().encodeToString(hmac);
    try (var postgres = PostgresServer.startDurable();
        var issuer = TestIssuer.start();
        var kubernetes = new KubernetesTarget()) {
      var db = postgres.createDatabase();
      var operator = new FakeTrainingOperator(kubernetes.server().client(), Clock.systemUTC());
      // The hold team's submissions are refused as by an overloaded API server: it stays PENDING.
      kubernetes
          .server()
          .expect()
          .post()
          .withPath("/apis/kubeflow.org/v1/namespaces/hold-jobs/pytorchjobs")
          .andReturn(
              503,
              new StatusBuilder()
                  .withStatus("Failure")
                  .withCode(503)
                  .withReason("ServiceUnavailable")
                  .withMessage("the server is currently unable to handle the request")
                  .build())
          .always();
      var ids = new HashMap<String, String>();
      try (var cluster =
          GatewayCluster.builder(db.url(), db.user(), issuer)
              .dir(dir)
              .nodes(1)
              .hmacKey(hmacKey)
              .reconciler("submitTries: 1000")
              .teams(SchemaSnapshot.TEAMS)
              .backends(kubernetes.backendYaml("k8s", dir, kubernetes.url()))
              .start()) {
        var client = cluster.client(0);
        Map<String, String> tokens = new HashMap<>();
        for (var team : List.of("ml", "capped", "hold")) {
          tokens.put(team, issuer.mint("mia", List.of(team), List.of("trainer")));
        }
        for (var job : SchemaSnapshot.JOBS) {
          var answer =
              client.post(
                  "/v1/jobs",
                  tokens.get(job.team()),
                  "application/yaml",
                  SchemaSnapshot.spec(job),
                  "Idempotency-Key",
                  "snapshot-" + job.name());
          assertThat(answer.status()).as(answer.body()).isEqualTo(201);
          ids.put(job.name(), answer.json().get("id").asText());
        }
        var ml = tokens.get("ml");
        for (var name : List.of("done", "broken", "stopped", "running", "waiting", "draining")) {
          client.awaitState(ids.get(name), "SUBMITTED", ml);
        }
        client.awaitState(ids.get("first"), "SUBMITTED", tokens.get("capped"));
        operator.running(attempt(client, ids.get("done"), ml, "ml-jobs"), Map.of("Master", 1));
        client.awaitState(ids.get("done"), "RUNNING", ml);
        operator.succeeded(attempt(client, ids.get("done"), ml, "ml-jobs"));
        operator.failed(attempt(client, ids.get("broken"), ml, "ml-jobs"), "Master", 1);
        operator.running(attempt(client, ids.get("running"), ml, "ml-jobs"), Map.of("Master", 1));
        operator.running(
            attempt(client, ids.get("first"), tokens.get("capped"), "capped-jobs"),
            Map.of("Master", 1));
        assertThat(client.delete("/v1/jobs/" + ids.get("stopped"), ml).status())
            .isBetween(200, 299);
        // The API server accepts the delete, the operator has not got to it yet: the object is
        // still there, so the job stays CANCELLING.
        var draining = attempt(client, ids.get("draining"), ml, "ml-jobs");
        kubernetes
            .server()
            .expect()
            .delete()
            .withPath("/apis/kubeflow.org/v1/namespaces/ml-jobs/pytorchjobs/" + draining.name())
            .andReturn(200, new StatusBuilder().withStatus("Success").withCode(200).build())
            .always();
        assertThat(client.delete("/v1/jobs/" + ids.get("draining"), ml).status())
            .isBetween(200, 299);

        client.awaitState(ids.get("done"), "SUCCEEDED", ml);
        client.awaitState(ids.get("broken"), "FAILED", ml);
        client.awaitState(ids.get("stopped"), "CANCELLED", ml);
        client.awaitState(ids.get("running"), "RUNNING", ml);
        client.awaitState(ids.get("draining"), "CANCELLING", ml);
        client.awaitState(ids.get("first"), "RUNNING", tokens.get("capped"));
        for (var job : SchemaSnapshot.JOBS) {
          assertThat(
                  client
                      .get("/v1/jobs/" + ids.get(job.name()), tokens.get(job.team()))
                      .json()
                      .get("state")
                      .asText())
              .as(job.name())
              .isEqualTo(job.state());
        }
        assertThat(CrashRecoveryIT.verifyChain(cluster, issuer)).isTrue();
        cluster.node(0).stop();
      }
      // Stopping changed nothing (a submit cut short by the stop is not a refusal).
      for (var job : SchemaSnapshot.JOBS) {
        String state =
            db.jdbi()
                .withHandle(
                    h ->
                        h.createQuery("SELECT state FROM jobs WHERE id = :id")
                            .bind("id", ids.get(job.name()))
                            .mapTo(String.class)
                            .one());
        assertThat(state).as(job.name() + " after the stop").isEqualTo(job.state());
      }
      postgres.dump(db, out.resolve(SchemaSnapshot.DATABASE));
      SchemaSnapshot.saveObjects(kubernetes.server().client(), out.resolve(SchemaSnapshot.OBJECTS));
      Files.copy(
          dir.resolve(DigestSigner.PRIVATE_KEY_FILE),
          out.resolve(SchemaSnapshot.SIGNING_KEY),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      Files.writeString(out.resolve(SchemaSnapshot.HMAC_KEY), hmacKey + "\n");
    }
  }

  private static io.trainyard.backend.kubernetes.Attempt attempt(
      io.trainyard.gateway.testing.GatewayClient client, String id, String token, String ns) {
    var job = client.get("/v1/jobs/" + id, token).json();
    return FakeTrainingOperator.pytorchJob(ns, job.get("objectName").asText());
  }
}
