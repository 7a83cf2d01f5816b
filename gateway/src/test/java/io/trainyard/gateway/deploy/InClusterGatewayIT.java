package io.trainyard.gateway.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainyard.backend.kubernetes.Attempt;
import io.trainyard.backend.kubernetes.CrudApiServer;
import io.trainyard.backend.kubernetes.FakeTrainingOperator;
import io.trainyard.gateway.testing.PostgresServer;
import io.trainyard.gateway.testing.cluster.GatewayCluster;
import io.trainyard.gateway.testing.cluster.TestIssuer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gateway as the Deployment in {@code deploy/base} runs it: a real gateway process whose only
 * way to the cluster is the pod's — {@code KUBERNETES_SERVICE_HOST}/{@code _PORT} in its
 * environment, the service account's token and CA through fabric8's in-cluster settings ({@code
 * kubernetes.auth.serviceAccount.token}, {@code kubernetes.certs.ca.file}), and a backend block
 * saying {@code inCluster: true} with no kubeconfig. A job submitted to it lands on fabric8's API
 * server over TLS with the service account's token, is followed to its end, and a token the kubelet
 * rotates meanwhile is the one sent from then on.
 */
class InClusterGatewayIT {
  @Test
  void aGatewayInAPodRunsJobsWithThePodsServiceAccount(@TempDir Path dir) throws Exception {
    try (var api = new CrudApiServer(true);
        var postgres = PostgresServer.startDurable();
        var issuer = TestIssuer.start()) {
      var account = Files.createDirectories(dir.resolve("serviceaccount"));
      Files.write(account.resolve("ca.crt"), Base64.getDecoder().decode(api.caCertificateBase64()));
      Files.writeString(account.resolve("namespace"), "trainyard\n");
      var token = account.resolve("token");
      Files.writeString(token, "pod-token-1\n");
      var url = URI.create(api.url());
      var db = postgres.createDatabase();
      try (var cluster =
          GatewayCluster.builder(db.url(), db.user(), issuer)
              .dir(dir.resolve("gateway"))
              .environment(
                  Map.of(
                      "KUBERNETES_SERVICE_HOST", url.getHost(),
                      "KUBERNETES_SERVICE_PORT", Integer.toString(url.getPort())))
              .jvmOptions(
                  List.of(
                      "-Xmx320m",
                      "-XX:+UseSerialGC",
                      "-XX:TieredStopAtLevel=1",
                      "-Dkubernetes.auth.serviceAccount.token=" + token,
                      "-Dkubernetes.certs.ca.file=" + account.resolve("ca.crt")))
              .teams("ml: {backends: [home], namespaces: {home: ml-jobs}}")
              .backends(
                  """
                  - type: kubernetes
                    id: home
                    region: us-east-1
                    provider: aws
                    inCluster: true
                    nodePools: [{name: cpu, instanceType: m5.2xlarge, maxNodes: 10}]
                  """)
              .start()) {
        var client = cluster.client(0);
        var bearer = issuer.mint("mia", List.of("ml"), List.of("trainer"));
        var answer =
            client.post(
                "/v1/jobs",
                bearer,
                "application/yaml",
                """
                apiVersion: trainyard.io/v1
                kind: TrainingJob
                metadata: {name: in-cluster}
                spec:
                  framework: pytorch
                  image: pytorch/pytorch:2.3.0
                  command: [python, train.py]
                  replicas: {master: 1}
                  resources: {cpus: 2, memory: 4Gi}
                """);
        assertThat(answer.status()).as(answer.body()).isEqualTo(201);
        var id = answer.json().get("id").asText();
        var at = attempt(client.awaitState(id, "SUBMITTED", bearer));
        assertThat(at.namespace()).isEqualTo("ml-jobs");

        // The kubelet rotates the projected token while the job runs.
        Files.writeString(token, "pod-token-2\n");
        Files.setLastModifiedTime(token, FileTime.from(Instant.now().plusSeconds(5)));
        var operator = new FakeTrainingOperator(api.client(), Clock.systemUTC());
        operator.created(at);
        operator.running(at, Map.of("Master", 1));
        client.awaitState(id, "RUNNING", bearer);
        operator.succeeded(at);
        client.awaitState(id, "SUCCEEDED", bearer);

        // Every request the gateway made carried the service account's token, the rotated one
        // from the rotation on — never another credential.
        var sent = api.authorizations();
        assertThat(sent).isNotEmpty().allMatch(h -> h.startsWith("Bearer pod-token-"));
        assertThat(sent.get(0)).isEqualTo("Bearer pod-token-1");
        assertThat(sent.get(sent.size() - 1)).isEqualTo("Bearer pod-token-2");
      }
    }
  }

  private static Attempt attempt(JsonNode job) {
    return FakeTrainingOperator.pytorchJob("ml-jobs", job.get("objectName").asText());
  }
}
