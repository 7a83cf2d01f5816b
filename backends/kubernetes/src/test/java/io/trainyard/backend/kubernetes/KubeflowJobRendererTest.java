package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.Placement;
import io.trainyard.spi.PlacementLine;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code desired(job, placement)} as a table: what the object says, without a server. */
class KubeflowJobRendererTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ClusterSettings AWS = TestJobs.config(TestJobs.AWS_POOLS).settings();
  private static final KubeflowJobRenderer RENDERER = new KubeflowJobRenderer(AWS);

  private static final String FULL =
      """
      framework: pytorch
      image: registry.example.com/bert:1.4
      command: [torchrun, train.py]
      env: {NCCL_DEBUG: WARN}
      secretEnv: {WANDB_API_KEY: {secret: wandb, key: api-key}}
      resources: {cpus: 2, memory: 8Gi}
      replicas: {master: 1, worker: 2}
      roles: {worker: {resources: {gpus: 2, gpuType: nvidia-a10g, cpus: 8, memory: 32Gi}}}
      volumes: [{name: shared, claim: data-pvc, mountPath: /mnt}]
      maxRuntime: 6h
      maxRestarts: 3
      cleanup: {pods: running, ttlAfterFinished: 1h}
      deepspeed: {zero_optimization: {stage: 2}}
      kubernetes:
        podTemplate: {priorityClassName: batch, imagePullSecrets: [{name: regcred}]}
        scheduling: {minAvailable: 3, queue: research}
      placement: {spot: never}
      """;

  private static JsonNode render(BackendJob job) {
    return tree(RENDERER.desired(job, job.placement()));
  }

  private static JsonNode tree(Object resource) {
    try {
      return JSON.readTree(Serialization.asJson(resource));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static BackendJob job(String specYaml) {
    var spec = TestJobs.spec(specYaml);
    var placement =
        new KubernetesPlacements(AWS, PriceCatalog.embedded()).propose(spec).placements().get(0);
    return TestJobs.job("01hzx3kq7v8m2n4p6r8t0w2y4a", spec, "ab".repeat(32), placement);
  }

  @Test
  void theObjectIsNamedAndLabelledForTheAttemptInTheTeamsNamespace() {
    var job = job(FULL);
    var object = render(job);
    assertThat(object.get("apiVersion").asText()).isEqualTo("kubeflow.org/v1");
    assertThat(object.get("kind").asText()).isEqualTo("PyTorchJob");
    assertThat(object.get("metadata"))
        .isEqualTo(
            yaml(
                "{name: ty-01hzx3kq7v8m2n4p6r8t0w2y4a-a1, namespace: nlp-jobs, annotations:"
                    + " {trainyard.io/clean-pod-policy: Running,"
                    + " trainyard.io/ttl-seconds-after-finished: '3600'}, labels:"
                    + " {trainyard.io/job-id: 01hzx3kq7v8m2n4p6r8t0w2y4a, trainyard.io/team: nlp,"
                    + " trainyard.io/spec-hash: "
                    + "ab".repeat(31)
                    + "a}}"));
  }

  @Test
  void eachRoleRunsOnItsPoolWithTheSpecsContainerResourcesSecretsAndVolumes() {
    var object = render(job(FULL));
    var master = object.at("/spec/pytorchReplicaSpecs/Master/template/spec");
    var worker = object.at("/spec/pytorchReplicaSpecs/Worker/template/spec");
    // The CPU pool has no labels or taints; the A10G pool's become selector and tolerations.
    assertThat(master.has("nodeSelector")).isFalse();
    assertThat(master.has("tolerations")).isFalse();
    assertThat(worker.get("nodeSelector")).isEqualTo(yaml("{pool: a10g-od}"));
    assertThat(worker.get("tolerations"))
        .isEqualTo(yaml("[{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]"));
    for (var pod : List.of(master, worker)) {
      var container = pod.at("/containers/0");
      assertThat(container.get("name").asText()).isEqualTo("pytorch");
      assertThat(container.get("env"))
          .isEqualTo(
              yaml(
                  "[{name: NCCL_DEBUG, value: WARN}, {name: WANDB_API_KEY, valueFrom:"
                      + " {secretKeyRef: {name: wandb, key: api-key}}}, {name: DEEPSPEED_CONFIG,"
                      + " value: /etc/trainyard/deepspeed/ds_config.json}]"));
      assertThat(pod.get("volumes"))
          .isEqualTo(
              yaml(
                  "[{name: shared, persistentVolumeClaim: {claimName: data-pvc}},"
                      + " {name: trainyard-deepspeed, configMap: {name:"
                      + " ty-01hzx3kq7v8m2n4p6r8t0w2y4a-a1-deepspeed}}]"));
      assertThat(container.get("volumeMounts"))
          .isEqualTo(
              yaml(
                  "[{name: shared, mountPath: /mnt}, {name: trainyard-deepspeed, mountPath:"
                      + " /etc/trainyard/deepspeed, readOnly: true}]"));
      assertThat(pod.get("priorityClassName").asText()).isEqualTo("batch");
      assertThat(pod.get("imagePullSecrets")).isEqualTo(yaml("[{name: regcred}]"));
    }
    assertThat(master.at("/containers/0/resources"))
        .isEqualTo(yaml("{limits: {cpu: 2, memory: 8Gi}}"));
    assertThat(worker.at("/containers/0/resources"))
        .isEqualTo(yaml("{limits: {cpu: 8, memory: 32Gi, nvidia.com/gpu: 2}}"));
    // The job's own cleanPodPolicy and TTL wait in annotations until its logs are archived.
    assertThat(object.at("/spec/runPolicy"))
        .isEqualTo(
            yaml(
                "{cleanPodPolicy: None, activeDeadlineSeconds: 21600, backoffLimit: 3,"
                    + " schedulingPolicy: {minAvailable: 3, queue: research}}"));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "pytorch, master, PyTorchJob, pytorchReplicaSpecs, Master, pytorch",
    "tensorflow, chief, TFJob, tfReplicaSpecs, Chief, tensorflow",
    "mpi, launcher, MPIJob, mpiReplicaSpecs, Launcher, mpi",
    "xgboost, master, XGBoostJob, xgbReplicaSpecs, Master, xgboost",
    "paddle, master, PaddleJob, paddleReplicaSpecs, Master, paddle",
    "paddle, worker, PaddleJob, paddleReplicaSpecs, Worker, paddle",
    "jax, worker, JAXJob, jaxReplicaSpecs, Worker, jax",
  })
  void theContainerIsNamedAsTheOperatorExpects(
      String framework, String role, String kind, String field, String type, String container) {
    var object =
        render(job("framework: " + framework + "\nimage: i\nreplicas: {" + role + ": 1}\n"));
    assertThat(object.get("kind").asText()).isEqualTo(kind);
    assertThat(
            object.at("/spec/" + field + "/" + type + "/template/spec/containers/0/name").asText())
        .isEqualTo(container);
  }

  @Test
  void aKueueQueueIsALabelAndTheNamespaceFallsBackToTheTeam() {
    var cluster = TestJobs.config(TestJobs.ONPREM_A).settings();
    var spec = TestJobs.spec("framework: xgboost\nimage: i\nreplicas: {master: 1}");
    var placement =
        new KubernetesPlacements(cluster, PriceCatalog.embedded())
            .propose(spec)
            .placements()
            .get(0);
    var job =
        new BackendJob(
            "01hzx3kq7v8m2n4p6r8t0w2y4a",
            2,
            "Data Science",
            "bob",
            "x",
            spec,
            "h",
            placement,
            Map.of());
    var object = tree(new KubeflowJobRenderer(cluster).desired(job, placement));
    assertThat(object.at("/metadata/name").asText()).isEqualTo("ty-01hzx3kq7v8m2n4p6r8t0w2y4a-a2");
    assertThat(object.at("/metadata/namespace").asText()).isEqualTo("data-science");
    assertThat(object.at("/metadata/labels"))
        .isEqualTo(
            yaml(
                "{trainyard.io/job-id: 01hzx3kq7v8m2n4p6r8t0w2y4a, trainyard.io/team: Data-Science,"
                    + " trainyard.io/spec-hash: h, kueue.x-k8s.io/queue-name: team-queue}"));
    assertThat(RENDERER.desiredConfig(job, new GenericKubernetesResource())).isEmpty();
  }

  @Test
  void theSpecsObjectLabelsAndAnnotationsStandBesideTheGatewaysWhichWin() {
    var cluster = TestJobs.config(TestJobs.ONPREM_A).settings();
    var spec =
        TestJobs.spec(
            """
            framework: xgboost
            image: i
            replicas: {master: 1}
            kubernetes:
              jobLabels: {kueue.x-k8s.io/queue-name: user-queue, project: churn,
                          trainyard.io/team: someone-else}
              jobAnnotations: {example.com/auto-resume: "true"}
            """);
    var proposals = new KubernetesPlacements(cluster, PriceCatalog.embedded()).propose(spec);
    var placement = proposals.placements().get(0);
    assertThat(placement.notes())
        .contains(
            "spec.kubernetes.jobLabels.kueue.x-k8s.io/queue-name 'user-queue' is replaced by this"
                + " cluster's queue 'team-queue'");
    var job =
        new BackendJob(
            "01hzx3kq7v8m2n4p6r8t0w2y4a", 1, "nlp", "bob", "x", spec, "h", placement, Map.of());
    var object = tree(new KubeflowJobRenderer(cluster).desired(job, placement));
    assertThat(object.at("/metadata/labels"))
        .isEqualTo(
            yaml(
                "{kueue.x-k8s.io/queue-name: team-queue, project: churn, trainyard.io/team: nlp,"
                    + " trainyard.io/job-id: 01hzx3kq7v8m2n4p6r8t0w2y4a, trainyard.io/spec-hash:"
                    + " h}"));
    assertThat(object.at("/metadata/annotations/example.com~1auto-resume").asText())
        .isEqualTo("true");
    assertThat(spec.needsKubernetes()).isFalse();
  }

  @Test
  void theDeepSpeedConfigMapIsOwnedByTheJobObject() {
    var job = job(FULL);
    var owner =
        new GenericKubernetesResourceBuilder()
            .withApiVersion("kubeflow.org/v1")
            .withKind("PyTorchJob")
            .withNewMetadata()
            .withName(job.objectName())
            .withUid("9f1c")
            .endMetadata()
            .build();
    var config = tree(RENDERER.desiredConfig(job, owner).orElseThrow());
    assertThat(config.at("/metadata/name").asText()).isEqualTo(job.objectName() + "-deepspeed");
    assertThat(config.at("/metadata/namespace").asText()).isEqualTo("nlp-jobs");
    assertThat(config.at("/metadata/ownerReferences"))
        .isEqualTo(
            yaml(
                "[{apiVersion: kubeflow.org/v1, kind: PyTorchJob, name: "
                    + job.objectName()
                    + ", uid: 9f1c, controller: true}]"));
    assertThat(yaml(config.at("/data/ds_config.json").asText()))
        .isEqualTo(yaml("{zero_optimization: {stage: 2}}"));
  }

  @Test
  void aPlacementOnAPoolTheClusterNoLongerHasCannotBeRendered() {
    var job = job(FULL);
    var gone =
        new Placement(
            "k8s-use1",
            "aws",
            "ec2",
            "us-east-1",
            false,
            List.of(new PlacementLine(List.of("master", "worker"), "p4d.24xlarge", 1, null, 8)),
            null,
            null,
            null,
            null);
    assertThatThrownBy(() -> RENDERER.desired(job, gone))
        .isInstanceOf(KubeflowJobRenderer.PoolGoneException.class)
        .hasMessage("k8s-use1 has no on-demand node pool of p4d.24xlarge any more");
  }

  private static JsonNode yaml(String text) {
    try {
      return TestJobs.YAML.readTree(text);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
