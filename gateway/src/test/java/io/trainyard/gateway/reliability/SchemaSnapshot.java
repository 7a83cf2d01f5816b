package io.trainyard.gateway.reliability;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A database snapshot at a schema tag (gateway/src/test/resources/snapshots/TAG/), what it holds
 * and how a gateway is configured to read it: written by {@link SnapshotWriter}, upgraded by {@link
 * UpgradeFromSnapshotIT}. Its files:
 *
 * <ul>
 *   <li>{@code database.sql}: {@code pg_dump} of the gateway's database (plain SQL);
 *   <li>{@code kubernetes-objects.json}: the PyTorchJobs the gateway had created on its cluster
 *       (the snapshot's live jobs are followed there after the upgrade);
 *   <li>{@code audit-signing-key.pem}, {@code audit-hmac-key.txt}: the audit keys it ran with (test
 *       keys, made for the snapshot), without which the chain's digests could not be verified.
 * </ul>
 *
 * One job per state, by name: see {@link #JOBS}.
 */
final class SchemaSnapshot {
  static final String DATABASE = "database.sql";
  static final String OBJECTS = "kubernetes-objects.json";
  static final String SIGNING_KEY = "audit-signing-key.pem";
  static final String HMAC_KEY = "audit-hmac-key.txt";

  /** Each job's team and the state it is in in the snapshot, by {@code metadata.name}. */
  record Job(String name, String team, String state) {}

  static final List<Job> JOBS =
      List.of(
          new Job("done", "ml", "SUCCEEDED"),
          new Job("broken", "ml", "FAILED"),
          new Job("stopped", "ml", "CANCELLED"),
          new Job("running", "ml", "RUNNING"),
          new Job("waiting", "ml", "SUBMITTED"),
          new Job("draining", "ml", "CANCELLING"),
          new Job("first", "capped", "RUNNING"),
          new Job("second", "capped", "QUEUED"),
          new Job("pending", "hold", "PENDING"));

  /**
   * The teams: {@code capped} runs one job at a time (its second waits in the queue); {@code hold}
   * has a namespace whose submissions the writer's cluster refuses (its job stays PENDING).
   */
  static final String TEAMS =
      """
      ml: {backends: [k8s], namespaces: {k8s: ml-jobs}}
      capped: {backends: [k8s], namespaces: {k8s: capped-jobs}, maxConcurrentJobs: 1}
      hold: {backends: [k8s], namespaces: {k8s: hold-jobs}}
      """;

  static final List<String> NAMESPACES = List.of("ml-jobs", "capped-jobs", "hold-jobs");

  private static final ObjectMapper JSON = new ObjectMapper();

  private SchemaSnapshot() {}

  /** Where the snapshot of {@code tag} is kept in the source tree (tests run in gateway/). */
  static Path directory(String tag) {
    return Path.of("src", "test", "resources", "snapshots", tag);
  }

  static String spec(Job job) {
    return ReplicasIT.spec(job.name());
  }

  /** Every PyTorchJob in the snapshot's namespaces, without what the API server assigns. */
  static void saveObjects(KubernetesClient client, Path file) throws IOException {
    var all = JSON.createArrayNode();
    for (var namespace : NAMESPACES) {
      for (var job :
          client
              .genericKubernetesResources("kubeflow.org/v1", "PyTorchJob")
              .inNamespace(namespace)
              .list()
              .getItems()) {
        var node = (ObjectNode) JSON.readTree(Serialization.asJson(job));
        var metadata = (ObjectNode) node.get("metadata");
        // A job being deleted is restored as not: the upgrade test plays the operator that
        // finishes deleting it.
        metadata.remove(
            List.of(
                "resourceVersion",
                "uid",
                "generation",
                "managedFields",
                "finalizers",
                "deletionTimestamp",
                "deletionGracePeriodSeconds"));
        all.add(node);
      }
    }
    Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(all) + "\n");
  }

  /** Creates the saved objects, status included, on {@code client}'s cluster. */
  static void loadObjects(KubernetesClient client, Path file) throws IOException {
    var all = (ArrayNode) JSON.readTree(Files.readString(file));
    for (var node : all) {
      var job = Serialization.unmarshal(node.toString(), GenericKubernetesResource.class);
      var api =
          client
              .genericKubernetesResources("kubeflow.org/v1", "PyTorchJob")
              .inNamespace(job.getMetadata().getNamespace());
      var created = api.resource(job).create();
      if (job.getAdditionalProperties().containsKey("status")) {
        created
            .getAdditionalProperties()
            .put("status", job.getAdditionalProperties().get("status"));
        api.resource(created).updateStatus();
      }
    }
  }
}
