package io.trainyard.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.trainyard.auth.DevIssuer;
import io.trainyard.backend.kubernetes.CrudApiServer;
import io.trainyard.backend.kubernetes.FakeTrainerController;
import io.trainyard.backend.kubernetes.FakeTrainingOperator;
import io.trainyard.gateway.TrainyardApplication;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.testing.GatewayClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A Kubeflow Trainer TrainJob submitted as it is, on fabric8's API server in CRUD mode with both
 * the training operator's and Trainer's CRDs: team {@code llm} runs on a {@code trainer-v2} cluster
 * that declares a site runtime, team {@code vision} on a {@code kubeflow-v1} cluster. The first
 * gets a TrainJob back on the runtime it named, the second a PyTorchJob; a runtime no one knows is
 * a 422 naming {@code spec.runtimeRef.name}; what only Trainer can run is refused on the v1 cluster
 * naming the field.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class TrainJobGatewayIT {
  private static final Path DIR = GatewayClient.tempDir("trainyard-trainjob");
  private static final CrudApiServer CLUSTER = new CrudApiServer();
  private static final FakeTrainerController TRAINER =
      new FakeTrainerController(CLUSTER.client(), Clock.systemUTC());
  private static final FakeTrainingOperator OPERATOR =
      new FakeTrainingOperator(CLUSTER.client(), Clock.systemUTC());
  private static final ObjectMapper JSON = new ObjectMapper();

  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      new DropwizardAppExtension<>(TrainyardApplication.class, writeConfig());

  /** A fine-tune on the site's H100 runtime, with a dataset initializer and its pod patch. */
  private static final String SITE_RUNTIME_JOB =
      """
      apiVersion: trainer.kubeflow.org/v1alpha1
      kind: TrainJob
      metadata:
        name: llama-sft
      spec:
        runtimeRef:
          name: torch-h100
        initializer:
          dataset:
            storageUri: hf://tatsu-lab/alpaca
        trainer:
          image: registry.example.com/sft:3.1
          command: [torchrun, sft.py]
          numNodes: 2
          numProcPerNode: 4
          resourcesPerNode:
            limits: {cpu: "4", memory: 16Gi}
        podTemplateOverrides:
          - targetJobs: [{name: dataset-initializer}]
            spec:
              serviceAccountName: hf-reader
      """;

  private static final String PLAIN_JOB =
      """
      apiVersion: trainer.kubeflow.org/v1alpha1
      kind: TrainJob
      metadata:
        name: mnist
      spec:
        runtimeRef:
          name: torch-distributed
        trainer:
          image: docker.io/kubeflow/pytorch-mnist:v1
          command: [torchrun, /workspace/mnist.py]
          numNodes: 3
          resourcesPerNode:
            limits: {cpu: "2", memory: 8Gi}
      """;

  private static GatewayClient client;
  private static String llm;
  private static String vision;
  private static String tabular;

  @BeforeAll
  static void connect() {
    client = new GatewayClient(APP.getLocalPort());
    var issuer = DevIssuer.loadOrCreate(DIR, AuthConfig.DEV_ISSUER);
    llm = issuer.mint("lee", Set.of("llm"), Set.of("trainer"), Duration.ofHours(1));
    vision = issuer.mint("vic", Set.of("vision"), Set.of("trainer"), Duration.ofHours(1));
    tabular = issuer.mint("tao", Set.of("tabular"), Set.of("trainer"), Duration.ofHours(1));
  }

  @AfterAll
  static void stop() {
    CLUSTER.close();
  }

  @Test
  void aTrainerClusterRunsItOnTheRuntimeItNames() throws IOException {
    var answer = client.post("/v1/jobs", llm, "application/yaml", SITE_RUNTIME_JOB);
    assertThat(answer.status()).as(answer.body()).isEqualTo(201);
    var id = answer.json().get("id").asText();
    var job = client.awaitState(id, "SUBMITTED", llm);
    var at = FakeTrainerController.trainJob("llm-jobs", job.get("objectName").asText());
    var object = tree(TRAINER.get(at));
    assertThat(object.get("kind").asText()).isEqualTo("TrainJob");
    assertThat(object.at("/spec/runtimeRef/name").asText()).isEqualTo("torch-h100");
    assertThat(object.at("/spec/initializer/dataset/storageUri").asText())
        .isEqualTo("hf://tatsu-lab/alpaca");
    assertThat(object.at("/spec/trainer/numNodes").asInt()).isEqualTo(2);
    assertThat(object.at("/spec/trainer/numProcPerNode").asInt()).isEqualTo(4);
    assertThat(object.at("/spec/trainer/command").toString())
        .isEqualTo("[\"torchrun\",\"sft.py\"]");
    var patches = object.at("/spec/podTemplateOverrides");
    assertThat(patches.toString()).contains("dataset-initializer").contains("hf-reader");

    TRAINER.running(at);
    client.awaitState(id, "RUNNING", llm);
    TRAINER.complete(at);
    client.awaitState(id, "SUCCEEDED", llm);
  }

  @Test
  void aKubeflowV1ClusterRunsItAsAPyTorchJob() throws IOException {
    var quote = client.post("/v1/quotes", vision, "application/yaml", PLAIN_JOB);
    assertThat(quote.status()).as(quote.body()).isEqualTo(200);
    assertThat(quote.json().get("chosen").asText()).isEqualTo("k8s-v1");

    var answer = client.post("/v1/jobs", vision, "application/yaml", PLAIN_JOB);
    assertThat(answer.status()).as(answer.body()).isEqualTo(201);
    var job = client.awaitState(answer.json().get("id").asText(), "SUBMITTED", vision);
    var at = FakeTrainingOperator.pytorchJob("vision-jobs", job.get("objectName").asText());
    var object = tree(OPERATOR.get(at));
    assertThat(object.get("kind").asText()).isEqualTo("PyTorchJob");
    assertThat(object.at("/spec/pytorchReplicaSpecs/Master/replicas").asInt()).isEqualTo(1);
    assertThat(object.at("/spec/pytorchReplicaSpecs/Worker/replicas").asInt()).isEqualTo(2);
    assertThat(
            object.at("/spec/pytorchReplicaSpecs/Worker/template/spec/containers/0/image").asText())
        .isEqualTo("docker.io/kubeflow/pytorch-mnist:v1");
  }

  @Test
  void anUnknownRuntimeIsRefusedNamingTheFieldAtJobsAndQuotes() {
    var unknown = PLAIN_JOB.replace("name: torch-distributed", "name: torch-b200");
    for (var path : new String[] {"/v1/jobs", "/v1/quotes"}) {
      var answer = client.post(path, vision, "application/yaml", unknown);
      assertThat(answer.status()).as(answer.body()).isEqualTo(422);
      var error = answer.json().get("errors").get(0);
      assertThat(error.get("field").asText()).isEqualTo("spec.runtimeRef.name");
      assertThat(error.get("message").asText())
          .contains("'torch-b200' is not a runtime Trainyard knows")
          .contains("torch-distributed")
          .contains("torch-h100");
    }
  }

  @Test
  void whatOnlyTrainerCanRunIsRefusedOnAV1ClusterNamingTheField() {
    var answer = client.post("/v1/quotes", vision, "application/yaml", SITE_RUNTIME_JOB);
    assertThat(answer.status()).as(answer.body()).isEqualTo(200);
    assertThat(answer.json().path("chosen").isTextual()).isFalse();
    assertThat(answer.body()).contains("spec.kubernetes.trainJob.initializer");
    var submitted = client.post("/v1/jobs", vision, "application/yaml", SITE_RUNTIME_JOB);
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(422);
    assertThat(submitted.json().get("code").asText()).isEqualTo("NO_OFFER");
  }

  @Test
  void theLocalBackendRunsTheEquivalentSpecAndRejectsWhatOnlyTrainerHas() {
    var plain = client.post("/v1/quotes", tabular, "application/yaml", PLAIN_JOB);
    assertThat(plain.status()).as(plain.body()).isEqualTo(200);
    assertThat(plain.json().get("chosen").asText()).isEqualTo("local");

    var trainerOnly = client.post("/v1/quotes", tabular, "application/yaml", SITE_RUNTIME_JOB);
    assertThat(trainerOnly.status()).as(trainerOnly.body()).isEqualTo(200);
    assertThat(trainerOnly.json().path("chosen").isTextual()).isFalse();
    assertThat(trainerOnly.body())
        .contains(
            "spec.kubernetes.trainJob carries the TrainJob's initializer, podTemplateOverrides,"
                + " which only a Kubeflow Trainer cluster (flavor trainer-v2) can honour");
  }

  /**
   * As Trainer's own examples write them: no image (the runtime's), Kueue's queue label with {@code
   * suspend: true}; the cluster gets the TrainJob with no image, so its runtime decides.
   */
  @Test
  void anImagelessKueueTrainJobRunsOnTheRuntimesImage() throws IOException {
    var doc =
        """
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata:
          name: kueue-smoke
          labels: {kueue.x-k8s.io/queue-name: training-queue}
        spec:
          runtimeRef: {apiGroup: trainer.kubeflow.org, kind: ClusterTrainingRuntime, name: torch-distributed}
          suspend: true
          trainer:
            numNodes: 2
            command: [torchrun, --no-python, python3, -c, "print('step')"]
            resourcesPerNode:
              requests: {cpu: "1", memory: 2Gi}
              limits: {cpu: "2", memory: 4Gi}
        """;
    var answer = client.post("/v1/jobs", llm, "application/yaml", doc);
    assertThat(answer.status()).as(answer.body()).isEqualTo(201);
    assertThat(answer.body()).contains("spec.suspend: true beside the kueue.x-k8s.io/queue-name");
    var id = answer.json().get("id").asText();
    var job = client.awaitState(id, "SUBMITTED", llm);
    var at = FakeTrainerController.trainJob("llm-jobs", job.get("objectName").asText());
    var object = tree(TRAINER.get(at));
    assertThat(object.at("/spec/trainer").has("image")).isFalse();
    assertThat(object.at("/metadata/labels/kueue.x-k8s.io~1queue-name").asText())
        .isEqualTo("training-queue");
    TRAINER.running(at);
    TRAINER.complete(at);
    client.awaitState(id, "SUCCEEDED", llm);
  }

  /** An XGBoost runtime's TrainJob: a TrainJob on a Trainer cluster, an XGBoostJob on a v1 one. */
  @Test
  void anXGBoostTrainJobRunsOnEitherFlavor() throws IOException {
    var doc =
        """
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: higgs}
        spec:
          runtimeRef: {name: xgboost-distributed}
          trainer:
            numNodes: 3
            command: [python, /app/train.py]
            resourcesPerNode:
              limits: {cpu: "2", memory: 4Gi}
        """;
    var onTrainer = client.post("/v1/jobs", llm, "application/yaml", doc);
    assertThat(onTrainer.status()).as(onTrainer.body()).isEqualTo(201);
    var trainerJob = client.awaitState(onTrainer.json().get("id").asText(), "SUBMITTED", llm);
    var trainJob =
        tree(
            TRAINER.get(
                FakeTrainerController.trainJob("llm-jobs", trainerJob.get("objectName").asText())));
    assertThat(trainJob.at("/spec/runtimeRef/name").asText()).isEqualTo("xgboost-distributed");
    assertThat(trainJob.at("/spec/trainer/numNodes").asInt()).isEqualTo(3);

    var onV1 = client.post("/v1/jobs", vision, "application/yaml", doc);
    assertThat(onV1.status()).as(onV1.body()).isEqualTo(201);
    var v1Job = client.awaitState(onV1.json().get("id").asText(), "SUBMITTED", vision);
    var xgboostJob =
        tree(
            OPERATOR.get(
                FakeTrainingOperator.xgboostJob("vision-jobs", v1Job.get("objectName").asText())));
    assertThat(xgboostJob.get("kind").asText()).isEqualTo("XGBoostJob");
    assertThat(xgboostJob.at("/spec/xgbReplicaSpecs/Worker/replicas").asInt()).isEqualTo(2);
  }

  private static JsonNode tree(Object resource) throws IOException {
    return JSON.readTree(Serialization.asJson(resource));
  }

  private static String writeConfig() {
    var kubeconfig = CLUSTER.kubeconfig();
    var yaml =
        """
        dataDir: %1$s
        auth: {mode: dev}
        reconciler: {resyncInterval: 200ms}
        server:
          applicationConnectors: [{type: http, port: 0, bindHost: 127.0.0.1}]
          adminConnectors: [{type: http, port: 0}]
        teams:
          llm: {backends: [k8s-trainer], namespaces: {k8s-trainer: llm-jobs}}
          vision: {backends: [k8s-v1], namespaces: {k8s-v1: vision-jobs}}
          tabular: {backends: [local]}
        backends:
          - type: local
            id: local
          - type: kubernetes
            id: k8s-trainer
            region: us-east-1
            kubeconfig: %2$s
            provider: aws
            flavor: trainer-v2
            trainerRuntime: torch-distributed
            runtimes: {torch-h100: pytorch}
            nodePools:
              - {name: cpu, instanceType: m5.2xlarge, maxNodes: 20}
          - type: kubernetes
            id: k8s-v1
            region: us-east-1
            kubeconfig: %2$s
            provider: aws
            flavor: kubeflow-v1
            nodePools:
              - {name: cpu, instanceType: m5.2xlarge, maxNodes: 20}
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
