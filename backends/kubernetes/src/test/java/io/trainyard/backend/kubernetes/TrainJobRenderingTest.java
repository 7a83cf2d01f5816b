package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.trainyard.cost.PriceCatalog;
import io.trainyard.kubeflow.KubeflowConversionException;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.Placement;
import io.trainyard.spi.PlacementLine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Flavor trainer-v2: placements keep every node on one pool; the attempt is a TrainJob. */
class TrainJobRenderingTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ClusterSettings CLUSTER = TestJobs.config(TestJobs.TRAINER_V2).settings();
  private static final KubernetesPlacements PLACEMENTS =
      new KubernetesPlacements(CLUSTER, PriceCatalog.embedded());
  private static final KubeflowJobRenderer RENDERER = new KubeflowJobRenderer(CLUSTER);

  private static final String SPEC =
      """
      framework: pytorch
      image: registry.example.com/bert:1.4
      command: [torchrun, train.py]
      env: {NCCL_DEBUG: WARN}
      secretEnv: {WANDB_API_KEY: {secret: wandb, key: api-key}}
      resources: {gpus: 2, gpuType: nvidia-a10g, cpus: 8, memory: 32Gi}
      replicas: {master: 1, worker: 3}
      processesPerReplica: 2
      deepspeed: {zero_optimization: {stage: 2}}
      placement: {spot: never}
      """;

  @Test
  void everyPlacementPutsEveryNodeOnOnePool() {
    var spec = TestJobs.spec(SPEC.replace("placement: {spot: never}\n", ""));
    var proposals = PLACEMENTS.propose(spec);
    assertThat(proposals.placements()).isNotEmpty();
    for (var placement : proposals.placements()) {
      assertThat(placement.lines()).singleElement();
      assertThat(placement.lines().get(0).roles()).containsExactly("master", "worker");
    }
  }

  @Test
  void whatATrainJobCannotSayRejectsThePlacementWithTheWritersReason() {
    var proposals =
        PLACEMENTS.propose(TestJobs.spec(SPEC + "roles: {master: {resources: {cpus: 4}}}\n"));
    assertThat(proposals.placements()).isEmpty();
    assertThat(proposals.rejections())
        .singleElement()
        .satisfies(
            r ->
                assertThat(r.reason())
                    .startsWith("spec.roles.master.resources: differs between master and worker"));
    var tf =
        PLACEMENTS.propose(
            TestJobs.spec("framework: tensorflow\nimage: i\nreplicas: {chief: 1, ps: 1}"));
    assertThat(tf.rejections().get(0).reason()).contains("no TensorFlow runtime");
  }

  @Test
  void theGatewaysSecretEnvironmentIsReadFromItsSecretByTheTrainer() {
    var job =
        job(SPEC)
            .withGatewaySecretEnv(
                java.util.Map.of("TRAINYARD_METRICS_TOKEN", "tym_value-never-rendered"));
    var object = tree(RENDERER.desired(job, job.placement()));
    assertThat(object.toString()).doesNotContain("tym_value-never-rendered");
    var env = object.at("/spec/trainer/env");
    assertThat(env.toString())
        .contains(
            "{\"name\":\"TRAINYARD_METRICS_TOKEN\",\"valueFrom\":{\"secretKeyRef\":{\"name\":\""
                + job.objectName()
                + "-gateway\",\"key\":\"TRAINYARD_METRICS_TOKEN\"}}}")
        .contains("WANDB_API_KEY");
    assertThat(RENDERER.desiredSecret(job).orElseThrow().getStringData())
        .containsEntry("TRAINYARD_METRICS_TOKEN", "tym_value-never-rendered");
    assertThat(RENDERER.desiredSecret(job(SPEC))).isEmpty();
  }

  @Test
  void theAttemptIsATrainJobOnTheRuntimeLabelledAndPinnedToItsPool() {
    var job = job(SPEC);
    assertThat(RENDERER.kind(job)).isEqualTo(JobKind.TRAIN_JOB);
    var object = tree(RENDERER.desired(job, job.placement()));
    assertThat(object.get("apiVersion").asText()).isEqualTo("trainer.kubeflow.org/v1alpha1");
    assertThat(object.get("kind").asText()).isEqualTo("TrainJob");
    assertThat(object.get("metadata"))
        .isEqualTo(
            yaml(
                "{name: ty-01hzx3kq7v8m2n4p6r8t0w2y4a-a1, namespace: nlp-jobs, labels:"
                    + " {trainyard.io/job-id: 01hzx3kq7v8m2n4p6r8t0w2y4a, trainyard.io/team: nlp,"
                    + " trainyard.io/spec-hash: "
                    + "ab".repeat(31)
                    + "a, kueue.x-k8s.io/queue-name: team-queue}}"));
    assertThat(object.at("/spec/runtimeRef"))
        .isEqualTo(
            yaml(
                "{name: torch-distributed, apiGroup: trainer.kubeflow.org, kind:"
                    + " ClusterTrainingRuntime}"));
    var trainer = object.at("/spec/trainer");
    assertThat(trainer.get("numNodes").asInt()).isEqualTo(4);
    assertThat(trainer.get("numProcPerNode").asInt()).isEqualTo(2);
    assertThat(trainer.get("resourcesPerNode"))
        .isEqualTo(yaml("{limits: {cpu: 8, memory: 32Gi, nvidia.com/gpu: 2}}"));
    assertThat(trainer.get("env"))
        .isEqualTo(
            yaml(
                "[{name: NCCL_DEBUG, value: WARN}, {name: WANDB_API_KEY, valueFrom: {secretKeyRef:"
                    + " {name: wandb, key: api-key}}}, {name: DEEPSPEED_CONFIG, value:"
                    + " /etc/trainyard/deepspeed/ds_config.json}]"));
    assertThat(object.at("/spec/podTemplateOverrides"))
        .isEqualTo(
            yaml(
                "[{targetJobs: [{name: node}], spec: {nodeSelector: {pool: a10g-od}, tolerations:"
                    + " [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}], volumes:"
                    + " [{name: trainyard-deepspeed, configMap: {name:"
                    + " ty-01hzx3kq7v8m2n4p6r8t0w2y4a-a1-deepspeed}}], containers: [{name: node,"
                    + " volumeMounts: [{name: trainyard-deepspeed, mountPath:"
                    + " /etc/trainyard/deepspeed, readOnly: true}]}]}}]"));
  }

  @Test
  void aTrainJobCarriesTheSpecsObjectLabelsAndAnnotationsBesideTheGateways() {
    var job =
        job(
            SPEC
                + "kubernetes: {jobLabels: {project: sft, trainyard.io/team: other},"
                + " jobAnnotations: {example.com/auto-resume: 'true'}}\n");
    var object = tree(RENDERER.desired(job, job.placement()));
    assertThat(object.at("/metadata/labels/project").asText()).isEqualTo("sft");
    assertThat(object.at("/metadata/labels/trainyard.io~1team").asText()).isEqualTo("nlp");
    assertThat(object.at("/metadata/annotations"))
        .isEqualTo(yaml("{example.com/auto-resume: 'true'}"));
  }

  @Test
  void aPlacementThatSplitsTheNodesOverPoolsCannotBeRendered() {
    var spec = TestJobs.spec(SPEC);
    var split =
        new Placement(
            CLUSTER.backendId(),
            "aws",
            "ec2",
            CLUSTER.region(),
            false,
            List.of(
                new PlacementLine(List.of("master"), "g5.12xlarge", 1, "nvidia-a10g", 4),
                new PlacementLine(List.of("worker"), "m5.2xlarge", 3, null, 0)),
            null,
            null,
            null,
            List.of());
    var job = TestJobs.job("01hzx3kq7v8m2n4p6r8t0w2y4a", spec, "ab".repeat(32), split);
    assertThatThrownBy(() -> RENDERER.desired(job, split))
        .isInstanceOf(KubeflowConversionException.class)
        .hasMessageContaining("every node on one pool");
  }

  private static BackendJob job(String specYaml) {
    var spec = TestJobs.spec(specYaml);
    var placement = PLACEMENTS.propose(spec).placements().get(0);
    return TestJobs.job("01hzx3kq7v8m2n4p6r8t0w2y4a", spec, "ab".repeat(32), placement);
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
