package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.trainyard.cost.PriceCatalog;
import io.trainyard.kubeflow.KubeflowDocuments;
import io.trainyard.kubeflow.TrainJobReader;
import io.trainyard.kubeflow.TrainerRuntimes;
import io.trainyard.spi.spec.Framework;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.JobSpecValidator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A TrainJob submitted as input, on each flavor: a trainer-v2 cluster renders it back on its own
 * runtime, with its pod patches under the name the cluster's Trainer reads; a kubeflow-v1 cluster
 * renders it as a PyTorchJob where that is faithful and rejects it naming the field where not.
 */
class SubmittedTrainJobTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Trainer v2.2 or later, with a site runtime for H100 nodes. */
  private static final String TRAINER_V22 =
      TestJobs.TRAINER_V2.replace(
          "trainerRuntime: torch-distributed\n",
          "trainerRuntime: torch-distributed\n"
              + "runtimes: {torch-h100: pytorch}\n"
              + "trainerPodPatches: runtimePatches\n");

  private static final String DOCUMENT =
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
          resourcesPerNode:
            limits: {nvidia.com/gpu: 2, cpu: "16", memory: 64Gi}
        podTemplateOverrides:
          - targetJobs: [{name: dataset-initializer}]
            spec:
              serviceAccountName: hf-reader
      """;

  private static final String PLAIN =
      """
      apiVersion: trainer.kubeflow.org/v1alpha1
      kind: TrainJob
      metadata: {name: mnist}
      spec:
        runtimeRef: {name: torch-distributed}
        trainer:
          image: docker.io/kubeflow/pytorch-mnist:v1
          numNodes: 3
          resourcesPerNode: {limits: {nvidia.com/gpu: 1, cpu: "4", memory: 16Gi}}
      """;

  @Test
  void aTrainerClusterRendersItOnTheNamedRuntimeWithRuntimePatches() {
    var cluster = TestJobs.config(TRAINER_V22).settings();
    var spec = read(DOCUMENT, cluster.declaredRuntimes());
    var proposals = new KubernetesPlacements(cluster, PriceCatalog.embedded()).propose(spec);
    assertThat(proposals.rejections()).isEmpty();
    var placement = proposals.placements().get(0);
    var job = TestJobs.job("01hzx3kq7v8m2n4p6r8t0w2y4a", spec, "ab".repeat(32), placement);
    var object = tree(new KubeflowJobRenderer(cluster).desired(job, placement));

    assertThat(object.at("/spec/runtimeRef/name").asText()).isEqualTo("torch-h100");
    assertThat(object.at("/spec/initializer"))
        .isEqualTo(yaml("{dataset: {storageUri: hf://tatsu-lab/alpaca}}"));
    assertThat(object.at("/spec/trainer/numNodes").asInt()).isEqualTo(2);
    assertThat(object.at("/spec").has("podTemplateOverrides")).isFalse();
    var pool =
        cluster.nodePools().stream()
            .filter(
                p ->
                    p.instanceType().equals(placement.lines().get(0).instanceType())
                        && p.isSpot() == placement.spot())
            .findFirst()
            .orElseThrow()
            .labels()
            .get("pool");
    assertThat(object.at("/spec/runtimePatches"))
        .isEqualTo(
            yaml(
                "[{manager: trainyard.io/gateway, trainingRuntimeSpec: {template: {spec:"
                    + " {replicatedJobs: ["
                    + "{name: node, template: {spec: {template: {spec: {nodeSelector: {pool: "
                    + pool
                    + "}, tolerations: [{key: nvidia.com/gpu, operator: Exists, effect:"
                    + " NoSchedule}]}}}}},"
                    + "{name: dataset-initializer, template: {spec: {template: {spec:"
                    + " {serviceAccountName: hf-reader}}}}}]}}}}]"));
  }

  @Test
  void aTrainerClusterWithoutTheRuntimeRejectsItNamingTheField() {
    var declaring = TestJobs.config(TRAINER_V22).settings();
    var spec = read(DOCUMENT, declaring.declaredRuntimes());
    var other = TestJobs.config(TestJobs.TRAINER_V2).settings();
    var proposals = new KubernetesPlacements(other, PriceCatalog.embedded()).propose(spec);
    assertThat(proposals.placements()).isEmpty();
    assertThat(proposals.rejections())
        .singleElement()
        .satisfies(
            r ->
                assertThat(r.reason())
                    .startsWith(
                        "spec.kubernetes.trainJob.runtimeRef.name (the TrainJob's"
                            + " spec.runtimeRef.name): k8s-use1 has no runtime 'torch-h100'"));
  }

  @Test
  void aKubeflowV1ClusterRendersAPlainTrainJobAsAPyTorchJob() {
    var cluster = TestJobs.config(TestJobs.AWS_POOLS).settings();
    var spec = read(PLAIN, Map.of());
    var proposals = new KubernetesPlacements(cluster, PriceCatalog.embedded()).propose(spec);
    assertThat(proposals.rejections()).isEmpty();
    var placement = proposals.placements().get(0);
    var job = TestJobs.job("01hzx3kq7v8m2n4p6r8t0w2y4a", spec, "ab".repeat(32), placement);
    var renderer = new KubeflowJobRenderer(cluster);
    assertThat(renderer.kind(job)).isEqualTo(JobKind.PYTORCH_JOB);
    var object = tree(renderer.desired(job, placement));
    assertThat(object.at("/spec/pytorchReplicaSpecs/Master/replicas").asInt()).isEqualTo(1);
    assertThat(object.at("/spec/pytorchReplicaSpecs/Worker/replicas").asInt()).isEqualTo(2);
    assertThat(
            object.at(
                "/spec/pytorchReplicaSpecs/Worker/template/spec/containers/0/resources/limits"))
        .isEqualTo(yaml("{cpu: 4, memory: 16Gi, nvidia.com/gpu: 1}"));
  }

  @Test
  void aKubeflowV1ClusterRejectsWhatOnlyTrainerHasNamingTheField() {
    var cluster = TestJobs.config(TestJobs.AWS_POOLS).settings();
    var spec = read(DOCUMENT, Map.of("torch-h100", Framework.PYTORCH));
    var proposals = new KubernetesPlacements(cluster, PriceCatalog.embedded()).propose(spec);
    assertThat(proposals.placements()).isEmpty();
    assertThat(proposals.rejections())
        .extracting(r -> r.reason())
        .anySatisfy(
            r ->
                assertThat(r)
                    .startsWith(
                        "spec.kubernetes.trainJob.initializer: is the TrainJob's spec.initializer"))
        .anySatisfy(
            r -> assertThat(r).startsWith("spec.kubernetes.trainJob.podTemplateOverrides:"));
  }

  @Test
  void aTrainerTwoPointZeroClusterRejectsPodMetadataItCannotPatch() {
    var cluster =
        TestJobs.config(
                TestJobs.TRAINER_V2.replace(
                    "trainerRuntime: torch-distributed\n",
                    "trainerRuntime: torch-distributed\ntrainerPodPatches: podSpecOverrides\n"))
            .settings();
    var spec =
        read(
            PLAIN
                + "  podTemplateOverrides:\n"
                + "    - targetJobs: [{name: node}]\n"
                + "      metadata: {annotations: {sidecar.istio.io/inject: \"false\"}}\n",
            Map.of());
    var proposals = new KubernetesPlacements(cluster, PriceCatalog.embedded()).propose(spec);
    assertThat(proposals.rejections())
        .singleElement()
        .satisfies(
            r ->
                assertThat(r.reason())
                    .startsWith(
                        "spec.kubernetes.podTemplate.metadata: this cluster's Kubeflow Trainer"
                            + " reads podSpecOverrides (v2.0)"));
  }

  @Test
  void aClusterDeclaresItsRuntimesAndItsOwnDefaultOne() {
    var config =
        TestJobs.config(
            TRAINER_V22.replace(
                "trainerRuntime: torch-distributed\n", "trainerRuntime: torch-site\n"));
    assertThat(config.trainerRuntimes())
        .containsExactly(
            Map.entry("torch-site", Framework.PYTORCH), Map.entry("torch-h100", Framework.PYTORCH));
    assertThat(TestJobs.config(TestJobs.TRAINER_V2).trainerRuntimes())
        .as("a built-in default adds nothing")
        .isEmpty();
    assertThat(TestJobs.config(TestJobs.AWS_POOLS).trainerRuntimes()).isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          runtimes: {torch-h100: pytorch} | runtimes applies only to flavor trainer-v2
          trainerPodPatches: runtimePatches | trainerPodPatches applies only to flavor trainer-v2
          """)
  void trainerSettingsOnAV1ClusterAreRefused(String line, String message) {
    assertThatThrownBy(() -> TestJobs.config(TestJobs.AWS_POOLS + line + "\n"))
        .isInstanceOf(UncheckedIOException.class)
        .cause()
        .isInstanceOf(JsonMappingException.class)
        .hasMessageContaining(message);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          runtimes: {torch-h100: mxnet} | runtimes.torch-h100:
          trainerPodPatches: podPatches | trainerPodPatches must be one of podSpecOverrides, podTemplateOverrides, runtimePatches, not podPatches
          """)
  void badTrainerSettingsAreRefused(String line, String message) {
    assertThatThrownBy(() -> TestJobs.config(TestJobs.TRAINER_V2 + line + "\n"))
        .isInstanceOf(UncheckedIOException.class)
        .cause()
        .isInstanceOf(JsonMappingException.class)
        .hasMessageContaining(message);
  }

  private static JobSpec read(String document, Map<String, Framework> declared) {
    var tree = KubeflowDocuments.parseSingle(document.getBytes(StandardCharsets.UTF_8));
    var job = new TrainJobReader(TrainerRuntimes.with(declared)).read(tree).job();
    assertThat(new JobSpecValidator().validate(job)).isEmpty();
    return job.spec();
  }

  private static JsonNode tree(Object resource) {
    try {
      return JSON.readTree(Serialization.asJson(resource));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static JsonNode yaml(String text) {
    try {
      return TestJobs.YAML.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
