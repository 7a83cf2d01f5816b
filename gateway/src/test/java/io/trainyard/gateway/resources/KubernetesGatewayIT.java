package io.trainyard.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.auth.DevIssuer;
import io.trainyard.backend.kubernetes.Attempt;
import io.trainyard.backend.kubernetes.CrudApiServer;
import io.trainyard.backend.kubernetes.FakeTrainingOperator;
import io.trainyard.gateway.TrainyardApplication;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.testing.GatewayClient;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A {@code type: kubernetes} backend through the whole gateway, on fabric8's API server in CRUD
 * mode (reached through a kubeconfig, as an operator configures it), with a test-side operator and
 * kubelet: the job runs in the team's namespace, its logs are archived when it ends and served from
 * the archive once the pods are gone; a cancel keeps what the pods printed; a seed document
 * submitted as it is becomes a PyTorchJob with its PVC in every replica.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class KubernetesGatewayIT {
  private static final Path DIR = GatewayClient.tempDir("trainyard-k8s");
  private static final CrudApiServer CLUSTER = new CrudApiServer();
  private static final FakeTrainingOperator OPERATOR =
      new FakeTrainingOperator(CLUSTER.client(), Clock.systemUTC());

  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      new DropwizardAppExtension<>(TrainyardApplication.class, writeConfig());

  private static GatewayClient client;
  private static String token;

  @BeforeAll
  static void connect() {
    client = new GatewayClient(APP.getLocalPort());
    token =
        DevIssuer.loadOrCreate(DIR, AuthConfig.DEV_ISSUER)
            .mint("mia", Set.of("ml"), Set.of("trainer"), Duration.ofHours(1));
  }

  @AfterAll
  static void stop() {
    CLUSTER.close();
  }

  @Test
  void aJobRunsInTheTeamsNamespaceAndItsLogsOutliveItsPods() throws InterruptedException {
    var id = submit(cpuJob("k8s-logs"));
    var at = attempt(awaitState(id, "SUBMITTED"));
    assertThat(at.namespace()).isEqualTo("ml-jobs");
    OPERATOR.created(at);
    OPERATOR.pods(at, Map.of("Master", 1, "Worker", 1));
    kubelet(at, "master-0", "2026-01-05T10:00:00Z epoch 1 loss 0.9\n");
    kubelet(at, "worker-0", "2026-01-05T10:00:01Z worker up\n");
    OPERATOR.running(at, Map.of("Master", 1, "Worker", 1));
    awaitState(id, "RUNNING");
    OPERATOR.succeeded(at);
    awaitState(id, "SUCCEEDED");

    var events = client.get("/v1/jobs/" + id + "/events", token).body();
    assertThat(events).contains("logs of attempt 1 archived: 2 lines");
    // Archived, the job's own cleanup is handed back to the operator: just after the step's
    // commit of SUCCEEDED, which a step right after the operator's event makes visible first.
    var deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (!"All".equals(runPolicy(at).get("cleanPodPolicy")) && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(runPolicy(at)).containsEntry("cleanPodPolicy", "All");

    // The operator deletes the pods; the logs are served from the archive.
    CLUSTER.client().pods().inNamespace(at.namespace()).delete();
    var logs = client.get("/v1/jobs/" + id + "/logs", token);
    assertThat(logs.status()).isEqualTo(200);
    assertThat(logs.body()).isEqualTo("[master-0] epoch 1 loss 0.9\n[worker-0] worker up\n");
    assertThat(client.get("/v1/jobs/" + id + "/logs?replica=worker-0", token).body())
        .isEqualTo("[worker-0] worker up\n");
  }

  @Test
  void aCancelKeepsWhatThePodsPrinted() {
    var id = submit(cpuJob("k8s-cancel"));
    var at = attempt(awaitState(id, "SUBMITTED"));
    OPERATOR.created(at);
    OPERATOR.pods(at, Map.of("Master", 1, "Worker", 1));
    kubelet(at, "master-0", "2026-01-05T11:00:00Z step 10\n");
    kubelet(at, "worker-0", "2026-01-05T11:00:00Z step 10 (worker)\n");
    OPERATOR.running(at, Map.of("Master", 1, "Worker", 1));
    awaitState(id, "RUNNING");

    assertThat(client.delete("/v1/jobs/" + id, token).status()).isEqualTo(202);
    awaitState(id, "CANCELLED");
    var events = client.get("/v1/jobs/" + id + "/events", token).body();
    assertThat(events.split("logs of attempt 1 archived", -1)).hasSize(2); // said once, at cancel
    assertThat(OPERATOR.get(at)).isNull();
    CLUSTER.client().pods().inNamespace(at.namespace()).delete();
    assertThat(client.get("/v1/jobs/" + id + "/logs?replica=master-0", token).body())
        .isEqualTo("[master-0] step 10\n");
  }

  @Test
  void aSeedDocumentSubmittedAsItIsRunsWithItsVolumeInEveryReplica() throws IOException {
    String seed;
    try (InputStream in = getClass().getResourceAsStream("/seeds/seed-000-bert-pytorchjob.yaml")) {
      seed = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    var answer = client.post("/v1/jobs", token, "application/yaml", seed);
    assertThat(answer.status()).as(answer.body()).isEqualTo(201);
    var at = attempt(awaitState(answer.json().get("id").asText(), "SUBMITTED"));
    var job = OPERATOR.get(at);
    assertThat(job.getKind()).isEqualTo("PyTorchJob");
    assertThat(job.getMetadata().getNamespace()).isEqualTo("ml-jobs");
    var tree =
        new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(io.fabric8.kubernetes.client.utils.Serialization.asJson(job));
    var replicas = tree.at("/spec/pytorchReplicaSpecs");
    assertThat(replicas.size()).isEqualTo(2);
    replicas.forEach(
        replica -> {
          var pod = replica.at("/template/spec");
          assertThat(pod.at("/volumes/0/persistentVolumeClaim/claimName").asText())
              .isEqualTo("data-pvc");
          assertThat(pod.at("/containers/0/volumeMounts/0/mountPath").asText()).isEqualTo("/mnt");
        });
  }

  @Test
  void aKubeflowDocumentWithGenerateNameLabelsAndAnnotationsReplaysToTheSameJob() {
    var document =
        """
        apiVersion: kubeflow.org/v1
        kind: PyTorchJob
        metadata:
          generateName: mnist-
          labels:
            kueue.x-k8s.io/queue-name: user-queue
            project: digits
          annotations:
            example.com/auto-resume: "true"
        spec:
          pytorchReplicaSpecs:
            Master:
              replicas: 1
              restartPolicy: OnFailure
              template:
                spec:
                  containers:
                    - name: pytorch
                      image: docker.io/kubeflowkatib/pytorch-mnist:v1beta1-45c5727
                      command: [python3, /opt/pytorch-mnist/mnist.py, --epochs=1]
                      resources:
                        limits: {cpu: 2, memory: 8Gi}
        """;
    var first =
        client.post("/v1/jobs", token, "application/yaml", document, "Idempotency-Key", "mnist-1");
    assertThat(first.status()).as(first.body()).isEqualTo(201);
    var again =
        client.post("/v1/jobs", token, "application/yaml", document, "Idempotency-Key", "mnist-1");
    assertThat(again.status()).as(again.body()).isEqualTo(200);
    var id = first.json().get("id").asText();
    var name = first.json().get("name").asText();
    assertThat(name).matches("mnist-[bcdfghjklmnpqrstvwxz2456789]{5}");
    assertThat(again.json().get("id").asText()).isEqualTo(id);
    assertThat(again.json().get("name").asText()).isEqualTo(name);

    // Another key is another job, with another generated name.
    var other =
        client.post("/v1/jobs", token, "application/yaml", document, "Idempotency-Key", "mnist-2");
    assertThat(other.status()).as(other.body()).isEqualTo(201);
    assertThat(other.json().get("id").asText()).isNotEqualTo(id);
    assertThat(other.json().get("name").asText()).startsWith("mnist-").isNotEqualTo(name);

    var at = attempt(awaitState(id, "SUBMITTED"));
    var metadata = OPERATOR.get(at).getMetadata();
    assertThat(metadata.getLabels())
        .containsEntry("kueue.x-k8s.io/queue-name", "user-queue")
        .containsEntry("project", "digits")
        .containsEntry("trainyard.io/job-id", id)
        .containsEntry("trainyard.io/team", "ml");
    assertThat(metadata.getAnnotations()).containsEntry("example.com/auto-resume", "true");
  }

  private static Attempt attempt(JsonNode job) {
    return FakeTrainingOperator.pytorchJob("ml-jobs", job.get("objectName").asText());
  }

  /** The pod's kubelet answers its log request with what it printed (timestamps on). */
  private static void kubelet(Attempt at, String replica, String body) {
    var path =
        "/api/v1/namespaces/"
            + at.namespace()
            + "/pods/"
            + at.name()
            + "-"
            + replica
            + "/log?pretty=false&container=pytorch&timestamps=true";
    CLUSTER.expect().get().withPath(path).andReturn(200, body).always();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> runPolicy(Attempt at) {
    var spec = (Map<String, Object>) OPERATOR.get(at).getAdditionalProperties().get("spec");
    return (Map<String, Object>) spec.get("runPolicy");
  }

  private static String cpuJob(String name) {
    return """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: %s}
        spec:
          framework: pytorch
          image: registry.example.com/train:1
          command: [python, train.py]
          resources: {cpus: 2, memory: 8Gi}
          replicas: {master: 1, worker: 1}
          cleanup: {pods: all}
        """
        .formatted(name);
  }

  private static String submit(String spec) {
    var answer = client.post("/v1/jobs", token, "application/yaml", spec);
    assertThat(answer.status()).as(answer.body()).isEqualTo(201);
    return answer.json().get("id").asText();
  }

  private static JsonNode awaitState(String id, String state) {
    return client.awaitState(id, state, token);
  }

  private static String writeConfig() {
    var kubeconfig = CLUSTER.kubeconfig();
    var yaml =
        """
        dataDir: %s
        auth: {mode: dev}
        reconciler: {resyncInterval: 200ms}
        server:
          applicationConnectors: [{type: http, port: 0, bindHost: 127.0.0.1}]
          adminConnectors: [{type: http, port: 0}]
        teams:
          ml: {backends: [k8s], namespaces: {k8s: ml-jobs}}
        backends:
          - type: kubernetes
            id: k8s
            region: us-east-1
            kubeconfig: %s
            provider: aws
            nodePools:
              - {name: cpu, instanceType: m5.2xlarge, maxNodes: 20}
              - {name: gpu, instanceType: g5.12xlarge, maxNodes: 8}
        """
            .formatted(DIR, DIR.resolve("kubeconfig"));
    try {
      Files.writeString(DIR.resolve("kubeconfig"), kubeconfig);
      var file = DIR.resolve("trainyard.yml");
      Files.writeString(file, yaml);
      return file.toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
