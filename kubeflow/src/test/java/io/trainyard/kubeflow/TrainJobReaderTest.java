package io.trainyard.kubeflow;

import static io.trainyard.kubeflow.TestDocuments.assertSameTree;
import static io.trainyard.kubeflow.TestDocuments.tree;
import static io.trainyard.kubeflow.TestDocuments.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.spi.spec.Framework;
import io.trainyard.spi.spec.JobSpecValidator;
import io.trainyard.spi.spec.KubernetesOnly;
import io.trainyard.spi.spec.ObjectMeta;
import io.trainyard.spi.spec.Resources;
import io.trainyard.spi.spec.SecretRef;
import io.trainyard.spi.spec.TrainingJob;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * TrainJob documents, written the way Kubeflow Trainer's {@code examples/yaml/} and user guides
 * write them, read into the spec; the spec written back by {@link TrainJobWriter} reads back the
 * same.
 */
class TrainJobReaderTest {
  /** A multi-node torch job with a GPU per node and a W&B key from a secret. */
  static final String MULTI_NODE =
      """
      apiVersion: trainer.kubeflow.org/v1alpha1
      kind: TrainJob
      metadata:
        name: fashion-mnist
        namespace: research
        labels: {project: vision}
      spec:
        runtimeRef:
          name: torch-distributed
        trainer:
          image: docker.io/kubeflow/pytorch-mnist:v1
          numNodes: 3
          numProcPerNode: 2
          command:
            - torchrun
            - /workspace/train.py
          args: ["--epochs", "5"]
          env:
            - name: NCCL_DEBUG
              value: INFO
            - name: WANDB_API_KEY
              valueFrom:
                secretKeyRef: {name: wandb, key: api-key}
          resourcesPerNode:
            limits:
              nvidia.com/gpu: 1
              cpu: "8"
              memory: 32Gi
      """;

  /** Pod patches for the node job and the dataset initializer, as a v2.1 cluster takes them. */
  static final String WITH_PATCHES =
      """
      apiVersion: trainer.kubeflow.org/v1alpha1
      kind: TrainJob
      metadata:
        name: llm-finetune
      spec:
        runtimeRef:
          apiGroup: trainer.kubeflow.org
          kind: ClusterTrainingRuntime
          name: torch-distributed
        initializer:
          dataset:
            storageUri: hf://tatsu-lab/alpaca
          model:
            storageUri: hf://meta-llama/Llama-3.2-1B
            secretRef: {name: hf-token}
        trainer:
          image: registry.example.com/finetune:2.0
          numNodes: 2
          resourcesPerNode:
            requests: {cpu: "4", memory: 16Gi}
            limits: {cpu: "8", memory: 16Gi, nvidia.com/gpu: 1}
        labels: {cost-center: research}
        annotations: {owner: ml-platform}
        podTemplateOverrides:
          - targetJobs:
              - name: node
            metadata:
              labels: {team: llm}
            spec:
              serviceAccountName: trainer-sa
              nodeSelector: {node-type: gpu}
              tolerations:
                - {key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}
              volumes:
                - name: shm
                  emptyDir: {medium: Memory}
              containers:
                - name: node
                  volumeMounts:
                    - {name: shm, mountPath: /dev/shm}
          - targetJobs:
              - name: dataset-initializer
            spec:
              nodeSelector: {node-type: cpu}
      """;

  private final TrainJobReader reader = new TrainJobReader();
  private final TrainJobWriter writer = new TrainJobWriter();
  private final CrdSchemaChecker crd = new CrdSchemaChecker();

  @Test
  void aTorchTrainJobIsAPyTorchMasterAndWorkers() {
    var conversion = reader.read(yaml(MULTI_NODE));
    var job = conversion.job();
    assertThat(new JobSpecValidator().validate(job)).isEmpty();
    var spec = job.spec();
    assertThat(job.metadata().name()).isEqualTo("fashion-mnist");
    assertThat(job.metadata().labels()).isEmpty();
    assertThat(spec.jobLabels()).containsExactly(Map.entry("project", "vision"));
    assertThat(spec.framework()).isEqualTo(Framework.PYTORCH);
    assertThat(spec.replicas()).containsExactly(Map.entry("master", 1), Map.entry("worker", 2));
    assertThat(spec.image()).isEqualTo("docker.io/kubeflow/pytorch-mnist:v1");
    assertThat(spec.command()).containsExactly("torchrun", "/workspace/train.py");
    assertThat(spec.args()).containsExactly("--epochs", "5");
    assertThat(spec.env()).containsExactly(Map.entry("NCCL_DEBUG", "INFO"));
    assertThat(spec.secretEnv())
        .containsExactly(Map.entry("WANDB_API_KEY", new SecretRef("wandb", "api-key")));
    assertThat(spec.resources()).isEqualTo(new Resources(1, null, 8.0, "32Gi"));
    assertThat(spec.processesPerReplica()).isEqualTo(2);
    assertThat(spec.kubernetes().trainJob())
        .containsExactly(
            Map.entry(
                "runtimeRef",
                Map.of(
                    "name",
                    "torch-distributed",
                    "apiGroup",
                    "trainer.kubeflow.org",
                    "kind",
                    "ClusterTrainingRuntime")));
    assertThat(spec.needsKubernetes()).as("a runtime name alone runs anywhere").isFalse();
    assertThat(conversion.warnings())
        .containsExactly(
            "metadata.namespace: 'research' is not used: the job runs in its team's namespace");
  }

  @Test
  void oneNodeIsAMasterAlone() {
    var job = reader.read(yaml(MULTI_NODE.replace("numNodes: 3", "numNodes: 1"))).job();
    assertThat(job.spec().replicas()).containsExactly(Map.entry("master", 1));
  }

  @Test
  void aNodePatchWhoseContainersAreNotAListStaysAPatch() {
    // Found by SpecReaderFuzzTest (-Dfuzz.seed=-2049171476671973221): deciding whether such a
    // patch fits the pod template threw, and the gateway answered 500.
    var listed =
        "        containers:\n"
            + "          - name: node\n"
            + "            volumeMounts:\n"
            + "              - {name: shm, mountPath: /dev/shm}\n";
    var mapped = "        containers: {node: {volumeMounts: [{name: shm, mountPath: /dev/shm}]}}\n";
    assertThat(WITH_PATCHES).contains(listed);
    var body = WITH_PATCHES.replace(listed, mapped);

    var k = reader.read(yaml(body)).job().spec().kubernetes();

    assertThat(tree(k.trainJob().get("podTemplateOverrides")).toString())
        .contains("\"containers\":{\"node\"");
    // Not folded into the pod template, as a patch that fits would be.
    assertThat(tree(k.podTemplate()).toString()).doesNotContain("serviceAccountName");
  }

  @Test
  void aNodePatchIsThePodTemplateAndTheRestStaysForATrainerCluster() {
    var job = reader.read(yaml(WITH_PATCHES)).job();
    assertThat(new JobSpecValidator().validate(job)).isEmpty();
    var k = job.spec().kubernetes();
    assertSameTree(
        tree(k.podTemplate()),
        yaml(
            """
            metadata: {labels: {team: llm}}
            serviceAccountName: trainer-sa
            nodeSelector: {node-type: gpu}
            tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
            volumes: [{name: shm, emptyDir: {medium: Memory}}]
            containers:
              - name: pytorch
                resources:
                  requests: {cpu: "4", memory: 16Gi}
                  limits: {cpu: "8", memory: 16Gi, nvidia.com/gpu: 1}
                volumeMounts: [{name: shm, mountPath: /dev/shm}]
            """));
    assertThat(k.trainerOnlyFields())
        .containsExactlyInAnyOrder("initializer", "labels", "annotations", "podTemplateOverrides");
    assertSameTree(
        tree(k.trainJob().get("podTemplateOverrides")),
        yaml(
            "[{targetJobs: [{name: dataset-initializer}], spec: {nodeSelector: {node-type: cpu}}}]"));
    assertThat(KubernetesOnly.reasons(job.spec()))
        .anySatisfy(r -> assertThat(r).contains("initializer, labels, annotations"));
    assertThat(KubeflowWriter.unsupported(job.spec()))
        .extracting(e -> e.field())
        .contains(
            "spec.kubernetes.trainJob.initializer",
            "spec.kubernetes.trainJob.podTemplateOverrides");
  }

  @ParameterizedTest
  @ValueSource(strings = {"podTemplateOverrides", "podSpecOverrides", "runtimePatches"})
  void writtenBackTheSpecReadsBackTheSame(String podPatches) {
    var documents =
        podPatches.equals("podSpecOverrides")
            ? List.of(MULTI_NODE) // v2.0 patches carry no pod metadata
            : List.of(MULTI_NODE, WITH_PATCHES);
    for (var document : documents) {
      var job = reader.read(yaml(document)).job();
      assertThat(TrainJobWriter.unsupported(job.spec(), podPatches)).isEmpty();
      var written =
          writer.write(
              job, new TrainJobWriter.Options(null, null, null, "not-this-one", null, podPatches));
      assertThat(written.at("/spec/runtimeRef/name").asText())
          .as("the job's own runtime wins")
          .isEqualTo("torch-distributed");
      if (podPatches.equals("podTemplateOverrides")) {
        assertThat(crd.check(written)).as("against the pinned TrainJob CRD").isEmpty();
      }
      var back = reader.read(written).job();
      assertSameTree(tree(back), tree(job));
    }
  }

  @Test
  void theThreeNamesOfPodPatchesReadAlike() {
    var v21 =
        """
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: patched}
        spec:
          runtimeRef: {name: torch-distributed}
          trainer: {image: pytorch/pytorch:2.5.1, numNodes: 2}
          podTemplateOverrides:
            - targetJobs: [{name: node}]
              spec:
                nodeSelector: {pool: a100}
                containers: [{name: node, volumeMounts: [{name: data, mountPath: /data}]}]
                volumes: [{name: data, persistentVolumeClaim: {claimName: datasets}}]
            - targetJobs: [{name: model-initializer}]
              spec:
                serviceAccountName: hf-reader
        """;
    var v20 =
        """
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: patched}
        spec:
          runtimeRef: {name: torch-distributed}
          trainer: {image: pytorch/pytorch:2.5.1, numNodes: 2}
          podSpecOverrides:
            - targetJobs: [{name: node}]
              nodeSelector: {pool: a100}
              containers: [{name: node, volumeMounts: [{name: data, mountPath: /data}]}]
              volumes: [{name: data, persistentVolumeClaim: {claimName: datasets}}]
            - targetJobs: [{name: model-initializer}]
              serviceAccountName: hf-reader
        """;
    var v22 =
        """
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: patched}
        spec:
          runtimeRef: {name: torch-distributed}
          trainer: {image: pytorch/pytorch:2.5.1, numNodes: 2}
          runtimePatches:
            - manager: platform.example.com/scheduler
              trainingRuntimeSpec:
                template:
                  spec:
                    replicatedJobs:
                      - name: node
                        template:
                          spec:
                            template:
                              spec:
                                nodeSelector: {pool: a100}
                                containers: [{name: node, volumeMounts: [{name: data, mountPath: /data}]}]
                                volumes: [{name: data, persistentVolumeClaim: {claimName: datasets}}]
                      - name: model-initializer
                        template:
                          spec:
                            template:
                              spec:
                                serviceAccountName: hf-reader
        """;
    var expected = tree(reader.read(yaml(v21)).job());
    assertSameTree(tree(reader.read(yaml(v20)).job()), expected);
    var v22Read = reader.read(yaml(v22));
    assertSameTree(tree(v22Read.job()), expected);
    assertThat(v22Read.warnings())
        .containsExactly(
            "spec.runtimePatches[0].manager: 'platform.example.com/scheduler' left out: Trainyard"
                + " writes trainyard.io/gateway");
  }

  @Test
  void aRuntimePatchsJobSetMetadataIsTheOlderSpecLabels() {
    var doc =
        MULTI_NODE
            + """
              runtimePatches:
                - manager: example.io/platform-team
                  trainingRuntimeSpec:
                    template:
                      metadata:
                        labels: {team: ml-platform}
                        annotations: {prometheus.io/scrape: "true"}
            """;
    var spec = reader.read(yaml(doc)).job().spec();
    assertThat(spec.kubernetes().trainJob())
        .containsEntry("labels", Map.of("team", "ml-platform"))
        .containsEntry("annotations", Map.of("prometheus.io/scrape", "true"));
    var v21 =
        writer.write(
            new TrainingJob(
                TrainingJob.API_VERSION, TrainingJob.KIND, new ObjectMeta("x", null, null), spec),
            new TrainJobWriter.Options("x", null, null, "torch-distributed", null));
    assertThat(v21.at("/spec/labels/team").asText()).isEqualTo("ml-platform");
  }

  @Test
  void aRuntimeAClusterDeclaresIsAccepted() {
    var doc = MULTI_NODE.replace("name: torch-distributed", "name: torch-h100-nccl");
    assertThatThrownBy(() -> reader.read(yaml(doc)))
        .isInstanceOfSatisfying(
            KubeflowConversionException.class,
            e ->
                assertThat(e.errors())
                    .singleElement()
                    .satisfies(
                        error -> {
                          assertThat(error.field()).isEqualTo("spec.runtimeRef.name");
                          assertThat(error.message())
                              .contains("'torch-h100-nccl' is not a runtime Trainyard knows")
                              .contains("deepspeed-distributed, jax-distributed")
                              .contains("torch-distributed,");
                        }));
    var declared =
        new TrainJobReader(TrainerRuntimes.with(Map.of("torch-h100-nccl", Framework.PYTORCH)));
    var job = declared.read(yaml(doc)).job();
    assertThat(job.spec().framework()).isEqualTo(Framework.PYTORCH);
    assertThat(TrainJobWriter.runtimeOf(job.spec(), "torch-distributed"))
        .isEqualTo("torch-h100-nccl");
  }

  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      textBlock =
          """
          name: torch-distributed | name: deepspeed-distributed | spec.runtimeRef.name | 'deepspeed-distributed' runs deepspeed (its trainer.kubeflow.org/framework label), whose launcher is one of its nodes
          name: torch-distributed | name: mlx-distributed | spec.runtimeRef.name | submit an MPIJob (kubeflow.org/v2beta1)
          name: torch-distributed | name: torchtune-llama3.2-1b | spec.runtimeRef.name | 'torchtune-llama3.2-1b' runs torchtune (its trainer.kubeflow.org/framework label): the runtime's own steps
          name: torch-distributed | name: torch-distributed\\n    apiGroup: example.com | spec.runtimeRef.apiGroup | must be trainer.kubeflow.org
          image: docker.io/kubeflow/pytorch-mnist:v1 | image: "" | spec.trainer.image | is required
          numNodes: 3 | numNodes: 0 | spec.trainer.numNodes | must be at least 1
          numProcPerNode: 2 | numProcPerNode: auto | spec.trainer.numProcPerNode | give a whole number
          numNodes: 3 | numNodes: 3\\n    replicas: 2 | spec.trainer.replicas | is not a field of a TrainJob's trainer
          `secretKeyRef: {name: wandb, key: api-key}` | `configMapKeyRef: {name: c, key: k}` | spec.trainer.env[1].valueFrom.configMapKeyRef | only secretKeyRef
          `labels: {project: vision}` | `labels: {project: vision}\\n  finalizers: [example.com/keep]` | metadata.finalizers | would keep Trainyard from deleting
          name: torch-distributed | name: torch-distributed\\n  suspend: true | spec.suspend | a kueue.x-k8s.io/queue-name label
          `numNodes: 3` | `numNodes: $NUM_NODES` | spec.trainer.numNodes | unrendered template
          """)
  void whatCannotBeCarriedIsRefusedByPath(String from, String to, String field, String message) {
    var doc = MULTI_NODE.replace(from, to.replace("\\n", "\n"));
    assertThat(doc).as("the row changes the document").isNotEqualTo(MULTI_NODE);
    assertThatThrownBy(() -> reader.read(yaml(doc)))
        .isInstanceOfSatisfying(
            KubeflowConversionException.class,
            e ->
                assertThat(e.errors())
                    .anySatisfy(
                        error -> {
                          assertThat(error.field()).isEqualTo(field);
                          assertThat(error.message()).contains(message);
                        }));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      textBlock =
          """
          `suspend: true` | spec.suspend | never resumes it
          `managedBy: example.com/controller` | spec.managedBy | must be trainer.kubeflow.org/trainjob-controller or kueue.x-k8s.io/multikueue
          `podTemplateOverrides: [{targetJobs: [{name: node}], spec: {priorityClassName: high}}]` | spec.podTemplateOverrides[0].spec.priorityClassName | is not a field of a TrainJob's pod patch
          `podTemplateOverrides: [{spec: {nodeSelector: {a: b}}}]` | spec.podTemplateOverrides[0].targetJobs | must name at least one of the runtime's jobs
          `podTemplateOverrides: [{targetJobs: [node], spec: {nodeSelector: {a: b}}}]` | spec.podTemplateOverrides[0].targetJobs[0] | must be {name: <one of the runtime's jobs>}
          `runtimePatches: [{manager: m, trainingRuntimeSpec: {template: {spec: {replicatedJobs: [{template: {}}]}}}}]` | spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].name | is required
          `podTemplateOverrides: [{targetJobs: [{name: node}], spec: {containers: [{name: node, image: x}]}}]` | spec.podTemplateOverrides[0].spec.containers[0].image | is not a field of a container patch
          `podSpecOverrides: [{targetJobs: [{name: node}], affinity: {}}]` | spec.podSpecOverrides[0].affinity | is not a field of a podSpecOverride
          `runtimePatches: [{manager: m, trainingRuntimeSpec: {template: {spec: {replicatedJobs: [{name: node, template: {metadata: {labels: {a: b}}}}]}}}}]` | spec.runtimePatches[0].trainingRuntimeSpec.template.spec.replicatedJobs[0].template.metadata | the Job's own labels
          `status: {}` | spec.status | is not a field of a TrainJob spec
          """)
  void specFieldsWithoutAFaithfulPlaceAreRefused(String line, String field, String message) {
    var doc = MULTI_NODE + "  " + line + "\n";
    assertThatThrownBy(() -> reader.read(yaml(doc)))
        .isInstanceOfSatisfying(
            KubeflowConversionException.class,
            e ->
                assertThat(e.errors())
                    .anySatisfy(
                        error -> {
                          assertThat(error.field()).isEqualTo(field);
                          assertThat(error.message()).contains(message);
                        }));
  }

  @Test
  void twoNamesOfPodPatchesInOneDocumentAreRefused() {
    var doc =
        MULTI_NODE
            + "  podTemplateOverrides: [{targetJobs: [{name: node}], spec: {nodeSelector: {a: b}}}]\n"
            + "  runtimePatches: [{manager: m}]\n";
    assertThatThrownBy(() -> reader.read(yaml(doc)))
        .isInstanceOf(KubeflowConversionException.class)
        .hasMessageContaining("spec.runtimePatches: a Trainer version reads one of");
  }

  @Test
  void defaultsTheControllerSetsAreLeftOutWithAWarning() {
    var doc =
        MULTI_NODE.replace("    numNodes: 3\n", "")
            + "  suspend: false\n  managedBy: trainer.kubeflow.org/trainjob-controller\n";
    var conversion = reader.read(yaml(doc));
    assertThat(conversion.job().spec().replicas()).containsExactly(Map.entry("master", 1));
    assertThat(conversion.warnings())
        .contains(
            "spec.trainer.numNodes: absent: read as 1, the built-in runtimes' mlPolicy.numNodes",
            "spec.suspend: is the operator's default (false); left out",
            "spec.managedBy: is Trainer's default (trainer.kubeflow.org/trainjob-controller); left"
                + " out");
  }

  @Test
  void multiKueueManagementIsKeptForATrainerCluster() {
    var spec =
        reader.read(yaml(MULTI_NODE + "  managedBy: kueue.x-k8s.io/multikueue\n")).job().spec();
    assertThat(spec.kubernetes().trainJob())
        .containsEntry("managedBy", "kueue.x-k8s.io/multikueue");
    assertThat(KubeflowWriter.unsupported(spec))
        .extracting(e -> e.field())
        .containsExactly("spec.kubernetes.trainJob.managedBy");
  }

  @Test
  void aPlainTrainJobRendersAsAPyTorchJob() {
    var job = reader.read(yaml(MULTI_NODE)).job();
    assertThat(KubeflowWriter.unsupported(job.spec())).isEmpty();
    var pytorchJob =
        new KubeflowWriter().write(job, new KubeflowWriter.RenderOptions(null, null, null));
    assertThat(pytorchJob.at("/kind").asText()).isEqualTo("PyTorchJob");
    assertThat(pytorchJob.at("/spec/pytorchReplicaSpecs/Master/replicas").asInt()).isEqualTo(1);
    assertThat(pytorchJob.at("/spec/pytorchReplicaSpecs/Worker/replicas").asInt()).isEqualTo(2);
    assertThat(pytorchJob.at("/spec/nprocPerNode").asText()).isEqualTo("2");
    assertThat(crd.check(pytorchJob)).isEmpty();
  }

  @Test
  void aDeadlineGoesBackToATrainerTwoPointTwoClusterOnly() {
    var job = reader.read(yaml(MULTI_NODE + "  activeDeadlineSeconds: 7200\n")).job();
    assertThat(TrainJobWriter.unsupported(job.spec(), "podTemplateOverrides"))
        .extracting(e -> e.field())
        .containsExactly("spec.maxRuntime");
    var written =
        writer.write(
            job,
            new TrainJobWriter.Options(
                null, null, null, "torch-distributed", null, "runtimePatches"));
    assertThat(written.at("/spec/activeDeadlineSeconds").asLong()).isEqualTo(7200);
    assertSameTree(tree(reader.read(written).job()), tree(job));
  }

  @Test
  void aProcessCountWrittenAsAStringIsANumber() {
    var job =
        reader.read(yaml(MULTI_NODE.replace("numProcPerNode: 2", "numProcPerNode: \"4\""))).job();
    assertThat(job.spec().processesPerReplica()).isEqualTo(4);
  }

  @Test
  void aDeadlineFromTrainerTwoPointTwoIsTheMaxRuntime() {
    var spec = reader.read(yaml(MULTI_NODE + "  activeDeadlineSeconds: 7200\n")).job().spec();
    assertThat(spec.maxRuntime()).isEqualTo("7200s");
    assertThat(
            new KubeflowWriter()
                .write(
                    new TrainingJob(
                        TrainingJob.API_VERSION,
                        TrainingJob.KIND,
                        new ObjectMeta("x", null, null),
                        spec),
                    new KubeflowWriter.RenderOptions("x", null, null))
                .at("/spec/runPolicy/activeDeadlineSeconds")
                .asLong())
        .isEqualTo(7200);
  }

  /** As Trainer's own examples write one: no image, no resources, the runtime's name alone. */
  private static final String NO_IMAGE =
      """
      apiVersion: trainer.kubeflow.org/v1alpha1
      kind: TrainJob
      metadata:
        name: ddp-smoke
      spec:
        runtimeRef:
          apiGroup: trainer.kubeflow.org
          kind: ClusterTrainingRuntime
          name: torch-distributed
        trainer:
          numNodes: 2
          command: [torchrun, --no-python, python3, -c, "import torch.distributed as d; d.init_process_group()"]
      """;

  @Test
  void withoutAnImageTheNodesRunTheRuntimesAndItIsLeftToTheRuntimeWhenWritten() {
    var conversion = reader.read(yaml(NO_IMAGE));
    var spec = conversion.job().spec();
    assertThat(new JobSpecValidator().validate(conversion.job())).isEmpty();
    assertThat(spec.image()).isEqualTo("pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime");
    assertThat(conversion.warnings())
        .containsExactly(
            "spec.trainer.image: absent: the nodes run runtime torch-distributed's image,"
                + " pytorch/pytorch:2.13.0-cuda13.0-cudnn9-runtime (Kubeflow Trainer's manifests);"
                + " set it to pin another");
    var written =
        writer.write(conversion.job(), new TrainJobWriter.Options("x", null, null, "t", null));
    assertThat(written.at("/spec/trainer").has("image"))
        .as("the cluster's runtime decides, as for the document")
        .isFalse();
    assertThat(crd.check(written)).isEmpty();
    assertSameTree(tree(reader.read(written).job().spec()), tree(spec));
    // Named explicitly, another image is written.
    var pinned =
        reader.read(yaml(NO_IMAGE.replace("numNodes: 2", "numNodes: 2\n    image: a/b:1")));
    assertThat(
            writer
                .write(pinned.job(), new TrainJobWriter.Options("x", null, null, "t", null))
                .at("/spec/trainer/image")
                .asText())
        .isEqualTo("a/b:1");
  }

  @Test
  void aDeclaredRuntimeWithoutAnImageNeedsTheTrainersImage() {
    var declared =
        new TrainJobReader(TrainerRuntimes.with(Map.of("torch-h100", Framework.PYTORCH)));
    assertThatThrownBy(
            () ->
                declared.read(
                    yaml(NO_IMAGE.replace("name: torch-distributed", "name: torch-h100"))))
        .isInstanceOfSatisfying(
            KubeflowConversionException.class,
            e ->
                assertThat(e.errors())
                    .singleElement()
                    .satisfies(
                        error -> {
                          assertThat(error.field()).isEqualTo("spec.trainer.image");
                          assertThat(error.message())
                              .contains("runtime torch-h100 is one a cluster declares");
                        }));
  }

  @Test
  void anXGBoostRuntimesNodesAreAMasterAndWorkers() {
    var doc =
        """
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: higgs-xgb}
        spec:
          runtimeRef: {name: xgboost-distributed}
          trainer:
            numNodes: 3
            command: [python, /app/train.py, --rounds, "200"]
            resourcesPerNode:
              limits: {cpu: "4", memory: 8Gi}
        """;
    var conversion = reader.read(yaml(doc));
    var job = conversion.job();
    assertThat(new JobSpecValidator().validate(job)).isEmpty();
    assertThat(job.spec().framework()).isEqualTo(Framework.XGBOOST);
    assertThat(job.spec().replicas())
        .containsExactly(Map.entry("master", 1), Map.entry("worker", 2));
    assertThat(job.spec().image()).isEqualTo("ghcr.io/kubeflow/trainer/xgboost-runtime");
    var xgboostJob =
        new KubeflowWriter().write(job, new KubeflowWriter.RenderOptions("x", null, null));
    assertThat(xgboostJob.at("/kind").asText()).isEqualTo("XGBoostJob");
    assertThat(xgboostJob.at("/spec/xgbReplicaSpecs/Worker/replicas").asInt()).isEqualTo(2);
    assertThat(crd.check(xgboostJob)).isEmpty();
    var trainJob = writer.write(job, new TrainJobWriter.Options("x", null, null, "torch-x", null));
    assertThat(trainJob.at("/spec/runtimeRef/name").asText()).isEqualTo("xgboost-distributed");
    assertThat(trainJob.at("/spec/trainer/numNodes").asInt()).isEqualTo(3);
    assertThat(crd.check(trainJob)).isEmpty();
    assertSameTree(tree(reader.read(trainJob).job().spec()), tree(job.spec()));
  }

  @Test
  void aJaxRuntimesNodesAreJaxWorkersAndANativeJaxJobRunsOnIt() {
    var doc =
        """
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata: {name: jax-mnist}
        spec:
          runtimeRef: {name: jax-distributed}
          trainer:
            numNodes: 4
            image: registry.example.com/jax-mnist:0.4
            command: [python3, -m, mnist]
            resourcesPerNode:
              limits: {nvidia.com/gpu: 8}
        """;
    var job = reader.read(yaml(doc)).job();
    assertThat(new JobSpecValidator().validate(job)).isEmpty();
    assertThat(job.spec().framework()).isEqualTo(Framework.JAX);
    assertThat(job.spec().replicas()).containsExactly(Map.entry("worker", 4));
    assertThatThrownBy(
            () ->
                reader.read(yaml(doc.replace("numNodes: 4", "numNodes: 4\n    numProcPerNode: 8"))))
        .hasMessageContaining(
            "spec.trainer.numProcPerNode: runtime jax-distributed runs one process per node");
    var jaxJob = new KubeflowWriter().write(job, new KubeflowWriter.RenderOptions("x", null, null));
    assertThat(jaxJob.at("/kind").asText()).isEqualTo("JAXJob");
    assertThat(crd.check(jaxJob)).isEmpty();
    // A JAX job read from a JAXJob names no runtime: Trainer's built-in JAX runtime runs it.
    var fromV1 = new KubeflowReader().read(jaxJob).job();
    var trainJob =
        writer.write(
            fromV1, new TrainJobWriter.Options("x", null, null, "torch-distributed", null));
    assertThat(trainJob.at("/spec/runtimeRef/name").asText()).isEqualTo("jax-distributed");
    assertThat(trainJob.at("/spec/trainer/numNodes").asInt()).isEqualTo(4);
    assertThat(crd.check(trainJob)).isEmpty();
  }

  @Test
  void theObjectsMetadataIsReadAsAKubeflowJobs() {
    var doc =
        """
        apiVersion: trainer.kubeflow.org/v1alpha1
        kind: TrainJob
        metadata:
          generateName: ddp-smoke-
          labels: {kueue.x-k8s.io/queue-name: training-queue}
          annotations: {example.com/auto-resume: "true"}
        spec:
          runtimeRef: {name: torch-distributed}
          suspend: true
          trainer:
            numNodes: 2
            image: python:3.11-slim
            command: [python3, -c, "print('hi')"]
        """;
    var conversion = reader.read(yaml(doc));
    var job = conversion.job();
    assertThat(new JobSpecValidator().validate(job)).isEmpty();
    assertThat(job.metadata().name()).isNull();
    assertThat(job.metadata().generateName()).isEqualTo("ddp-smoke-");
    assertThat(job.spec().jobLabels())
        .containsExactly(Map.entry("kueue.x-k8s.io/queue-name", "training-queue"));
    assertThat(job.spec().jobAnnotations())
        .containsExactly(Map.entry("example.com/auto-resume", "true"));
    assertThat(job.spec().needsKubernetes()).as("labels and annotations run anywhere").isFalse();
    assertThat(conversion.warnings())
        .singleElement()
        .asString()
        .startsWith("spec.suspend: true beside the kueue.x-k8s.io/queue-name label: left to Kueue");
    var written =
        writer.write(
            job,
            new TrainJobWriter.Options(null, null, Map.of("trainyard.io/team", "nlp"), "t", null));
    assertThat(written.at("/metadata/generateName").asText()).isEqualTo("ddp-smoke-");
    assertThat(written.at("/metadata/labels").toString())
        .isEqualTo(
            "{\"kueue.x-k8s.io/queue-name\":\"training-queue\",\"trainyard.io/team\":\"nlp\"}");
    assertThat(written.at("/metadata/annotations/example.com~1auto-resume").asText())
        .isEqualTo("true");
  }

  @Test
  void aTrainJobReadBackFromAClusterIsTakenWithOneWarning() {
    var doc =
        MULTI_NODE.replace(
                "  labels: {project: vision}\n",
                "  labels: {project: vision}\n"
                    + "  uid: 0b7e7a8c-1d6e-4f61-9a43-5d2b3c1e8f00\n"
                    + "  resourceVersion: \"48213\"\n"
                    + "  generation: 1\n"
                    + "  creationTimestamp: \"2026-11-30T09:12:44Z\"\n"
                    + "  annotations:\n"
                    + "    kubectl.kubernetes.io/last-applied-configuration: '{\"kind\":\"TrainJob\"}'\n")
            + """
            status:
              conditions:
                - {type: Complete, status: "True", reason: JobsCompleted, message: done}
            """;
    assertThat(doc).contains("resourceVersion");
    var conversion = reader.read(yaml(doc));
    assertSameTree(tree(conversion.job()), tree(reader.read(yaml(MULTI_NODE)).job()));
    assertThat(conversion.warnings())
        .anySatisfy(w -> assertThat(w).startsWith("(document): was read back from a cluster"));
  }
}
