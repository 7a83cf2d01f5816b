package io.trainyard.kubeflow;

import static io.trainyard.kubeflow.TestDocuments.assertSameTree;
import static io.trainyard.kubeflow.TestDocuments.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainyard.spi.spec.FieldError;
import io.trainyard.spi.spec.JobSpecValidator;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Documents written the way public Kubeflow examples and tools write them, which the operator runs
 * and Trainyard once refused: MPIJob containers with their own names, documents serialised by Go
 * clients or read back with {@code kubectl get -o yaml}, network devices in limits; and the
 * refusals that must say what is wrong (an archived API group, an unrendered template).
 */
class PublicExamplesTest {
  private final KubeflowReader reader = new KubeflowReader();
  private final KubeflowWriter writer = new KubeflowWriter();
  private final CrdSchemaChecker crd = new CrdSchemaChecker();

  // As kubeflow/training-operator v1.9.0 examples/mpi/tensorflow-mnist-elastic.yaml names them.
  private static final String MPI_NAMED =
      """
      apiVersion: kubeflow.org/v1
      kind: MPIJob
      metadata:
        name: tensorflow-mnist-elastic
      spec:
        slotsPerWorker: 1
        runPolicy:
          cleanPodPolicy: Running
        mpiReplicaSpecs:
          Launcher:
            replicas: 1
            template:
              spec:
                containers:
                - image: horovod/horovod:0.28.1
                  name: mpi-launcher
                  command: [horovodrun]
                  args: [-np, "2", --min-np, "1", python, /examples/elastic/tensorflow2_mnist.py]
                  resources:
                    limits: {cpu: 1, memory: 2Gi}
          Worker:
            replicas: 2
            template:
              spec:
                containers:
                - image: horovod/horovod:0.28.1
                  name: mpi-worker
                  resources:
                    limits: {cpu: 2, memory: 4Gi}
                - name: metrics
                  image: prom/node-exporter:v1.8.1
      """;

  @Test
  void anMpiJobsFirstContainerIsItsMainOneWhateverItsName() {
    var document = yaml(MPI_NAMED);
    assertThat(crd.check(document)).isEmpty();
    var conversion = reader.read(document);
    var spec = conversion.job().spec();
    assertThat(conversion.warnings()).isEmpty();
    assertThat(spec.roleSpecs().get(0).command()).containsExactly("horovodrun");
    assertThat(spec.roleSpecs().get(1).image()).isEqualTo("horovod/horovod:0.28.1");
    assertThat(new JobSpecValidator().validate(conversion.job())).isEmpty();

    var rendered = writer.write(conversion.job());
    var launcher = "/spec/mpiReplicaSpecs/Launcher/template/spec/containers";
    var worker = "/spec/mpiReplicaSpecs/Worker/template/spec/containers";
    assertThat(names(rendered.at(launcher))).containsExactly("mpi-launcher");
    assertThat(names(rendered.at(worker))).containsExactly("mpi-worker", "metrics");
    assertThat(rendered.at(launcher + "/0/command/0").asText()).isEqualTo("horovodrun");
    assertThat(crd.check(rendered)).isEmpty();
    assertSameTree(
        RoundTripNormalization.normalize(rendered), RoundTripNormalization.normalize(document));
    assertThat(reader.read(rendered).job()).isEqualTo(conversion.job());
  }

  @Test
  void mainContainerNamingTheFirstContainerIsLeftOutWithAWarning() {
    var document =
        yaml(
            MPI_NAMED
                .replace("mpi-launcher", "trainer")
                .replace("mpi-worker", "trainer")
                .replace("slotsPerWorker: 1", "slotsPerWorker: 1\n  mainContainer: trainer"));
    var conversion = reader.read(document);
    assertThat(conversion.warnings())
        .containsExactly("spec.mainContainer: is the operator's default (\"trainer\"); left out");
    assertThat(
            names(
                writer
                    .write(conversion.job())
                    .at("/spec/mpiReplicaSpecs/Worker/template/spec/containers")))
        .containsExactly("trainer", "metrics");
  }

  @Test
  void aSidecarCannotTakeTheMpiContainersPlaceInAHandWrittenSpec() {
    var job = reader.read(yaml(MPI_NAMED)).job();
    var spec = job.spec();
    var podTemplate =
        Map.<String, Object>of(
            "containers",
            List.of(
                Map.of("name", "metrics", "image", "prom/node-exporter:v1.8.1"),
                Map.of("name", "mpi-worker", "securityContext", Map.of("privileged", false))));
    var changed =
        new io.trainyard.spi.spec.JobSpec(
            spec.framework(),
            spec.image(),
            spec.command(),
            spec.args(),
            spec.env(),
            spec.secretEnv(),
            spec.resources(),
            spec.restartPolicy(),
            spec.replicas(),
            Map.of(),
            spec.processesPerReplica(),
            spec.elastic(),
            null,
            null,
            null,
            spec.cleanup(),
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            new io.trainyard.spi.spec.KubernetesOptions(podTemplate));
    assertThat(KubeflowWriter.unsupported(changed))
        .extracting(FieldError::field)
        .containsExactly("spec.kubernetes.podTemplate.containers[1]");
  }

  @Test
  void goClientArtefactsAreLeftOutWithWarnings() {
    var document =
        yaml(
            """
            apiVersion: kubeflow.org/v1
            kind: PyTorchJob
            metadata:
              creationTimestamp: null
              name: mnist
            spec:
              pytorchReplicaSpecs:
                Master:
                  replicas: 1
                  restartPolicy: OnFailure
                  template:
                    metadata:
                      creationTimestamp: null
                    spec:
                      restartPolicy: Never
                      containers:
                      - name: pytorch
                        image: kubeflow/pytorch-dist-mnist:latest
                        resources: {}
            status: {}
            """);
    var conversion = reader.read(document);
    assertThat(conversion.warnings())
        .containsExactly(
            "status: is empty ({}), as clients write an unset status; left out",
            "metadata.creationTimestamp, spec.pytorchReplicaSpecs.Master.template.metadata"
                + ".creationTimestamp: null, as Go clients write a time they do not have; left out",
            "spec.pytorchReplicaSpecs.Master.template.spec.restartPolicy: is overwritten by the"
                + " operator with the replica spec's restartPolicy; left out");
    var rendered = writer.write(conversion.job());
    assertThat(rendered.has("status")).isFalse();
    assertThat(rendered.at("/metadata").has("creationTimestamp")).isFalse();
    assertThat(rendered.at("/spec/pytorchReplicaSpecs/Master/restartPolicy").asText())
        .isEqualTo("OnFailure");
    assertThat(rendered.at("/spec/pytorchReplicaSpecs/Master/template/spec").has("restartPolicy"))
        .isFalse();
  }

  @Test
  void kubectlGetOutputReadsAsTheDocumentWrittenWithOneWarning() {
    var written = TestDocuments.document("golden/pytorch-elastic/input.yaml");
    var readBack = (com.fasterxml.jackson.databind.node.ObjectNode) written.deepCopy();
    var meta = (com.fasterxml.jackson.databind.node.ObjectNode) readBack.get("metadata");
    meta.put("namespace", "default");
    meta.put("uid", "3d7f1c2e-9b1a-4d55-8f0e-2a6f5c1b7e90");
    meta.put("resourceVersion", "48213");
    meta.put("generation", 1);
    meta.put("creationTimestamp", "2024-05-02T09:14:07Z");
    meta.putObject("annotations")
        .put(ReadBackFields.LAST_APPLIED, "{\"apiVersion\":\"kubeflow.org/v1\"}\n");
    meta.set(
        "managedFields",
        yaml(
            "[{apiVersion: kubeflow.org/v1, fieldsType: FieldsV1, fieldsV1: {f:spec: {}},"
                + " manager: kubectl-client-side-apply, operation: Update,"
                + " time: '2024-05-02T09:14:07Z'}]"));
    readBack.set(
        "status",
        yaml(
            "{conditions: [{type: Created, status: 'True', reason: PyTorchJobCreated,"
                + " message: PyTorchJob imagenet-elastic is created.}],"
                + " replicaStatuses: {Worker: {active: 2}}, startTime: '2024-05-02T09:14:07Z'}"));

    var conversion = reader.read(readBack);
    assertThat(conversion.job()).isEqualTo(reader.read(written).job());
    assertThat(conversion.warnings())
        .containsExactly(
            "(document): was read back from a cluster (kubectl get -o yaml): left out what the API"
                + " server and the operator set, metadata.uid, metadata.resourceVersion,"
                + " metadata.generation, metadata.creationTimestamp, metadata.managedFields,"
                + " metadata.annotations."
                + ReadBackFields.LAST_APPLIED
                + ", status",
            "metadata.namespace: 'default' is not used: the job runs in its team's namespace");
  }

  @Test
  void networkDevicesFromDevicePluginsAreCarriedWithTheBlock() {
    var document =
        RefusalsTest.change(
            "pt",
            "/spec/pytorchReplicaSpecs/Worker/template/spec/containers/0/resources",
            "{limits: {cpu: 16, memory: 64Gi, nvidia.com/gpu: 4, intel.com/sriov_netdevice: 1,"
                + " openshift.io/mlxnics: 2, nvidia.com/hostdev: 1},"
                + " requests: {intel.com/sriov_netdevice: 1}}");
    var job = reader.read(document).job();
    assertThat(job.spec().roleSpecs().get(1).resources().gpuCount()).isEqualTo(4);
    var rendered = writer.write(job);
    assertThat(
            rendered.at(
                "/spec/pytorchReplicaSpecs/Worker/template/spec/containers/0/resources/limits"))
        .isEqualTo(
            document.at(
                "/spec/pytorchReplicaSpecs/Worker/template/spec/containers/0/resources/limits"));
    assertThat(crd.check(rendered)).isEmpty();
    assertSameTree(
        RoundTripNormalization.normalize(rendered), RoundTripNormalization.normalize(document));
  }

  // kubeflow/xgboost-operator (archived)
  // config/samples/xgboost-dist/xgboostjob_v1alpha1_iris_train.yaml
  // kubeflow/training-operator v1.9.0 (6f74c7f6b2ed6c27aabd82d0a316b23f0646059c), verbatim:
  // examples/paddlepaddle/simple-cpu.yaml and examples/jax/cpu-demo/demo.yaml.
  private static final String PADDLE_SIMPLE_CPU =
      """
      apiVersion: "kubeflow.org/v1"
      kind: PaddleJob
      metadata:
        name: paddle-simple-cpu
        namespace: kubeflow
      spec:
        paddleReplicaSpecs:
          Worker:
            replicas: 2
            restartPolicy: OnFailure
            template:
              spec:
                containers:
                  - name: paddle
                    image: registry.baidubce.com/paddlepaddle/paddle:2.4.0rc0-cpu
                    command:
                      - python
                    args:
                      - "-m"
                      - paddle.distributed.launch
                      - "run_check"
                    ports:
                      - containerPort: 37777
                        name: master
                    imagePullPolicy: Always
      """;

  private static final String JAX_CPU_DEMO =
      """
      apiVersion: "kubeflow.org/v1"
      kind: JAXJob
      metadata:
        name: jaxjob-simple
        namespace: kubeflow
      spec:
        jaxReplicaSpecs:
          Worker:
            replicas: 2
            restartPolicy: OnFailure
            template:
              spec:
                containers:
                  - name: jax
                    image: docker.io/kubeflow/jaxjob-simple:latest
                    command:
                      - "python3"
                      - "train.py"
                    imagePullPolicy: Always
      """;

  @Test
  void theOperatorsPaddleAndJaxExamplesReadAndRenderBackAsThemselves() {
    for (var example : List.of(PADDLE_SIMPLE_CPU, JAX_CPU_DEMO)) {
      var document = yaml(example);
      assertThat(crd.check(document)).isEmpty();
      var conversion = reader.read(document);
      assertThat(conversion.warnings())
          .singleElement()
          .satisfies(w -> assertThat(w).startsWith("metadata.namespace"));
      assertThat(new JobSpecValidator().validate(conversion.job())).isEmpty();
      assertThat(conversion.job().spec().replicas()).containsExactly(Map.entry("worker", 2));

      var rendered = writer.write(conversion.job());
      assertThat(crd.check(rendered)).isEmpty();
      ((ObjectNode) document.get("metadata")).remove("namespace");
      assertSameTree(
          RoundTripNormalization.normalize(rendered), RoundTripNormalization.normalize(document));
    }
  }

  private static final String ARCHIVED_XGBOOST =
      """
      apiVersion: "xgboostjob.kubeflow.org/v1alpha1"
      kind: "XGBoostJob"
      metadata:
        name: "xgboost-dist-iris-test-train"
      spec:
        xgbReplicaSpecs:
          Master:
            replicas: 1
            restartPolicy: Never
            template:
              apiVersion: v1
              kind: Pod
              spec:
                containers:
                - name: xgboostjob
                  image: docker.io/merlintang/xgboost-dist-iris:1.1
                  ports:
                  - containerPort: 9991
                    name: xgboostjob-port
                  imagePullPolicy: Always
                  args:
                  - --job_type=Train
                  - --xgboost_parameter=objective:multi:softprob,num_class:3
          Worker:
            replicas: 2
            restartPolicy: ExitCode
            template:
              apiVersion: v1
              kind: Pod
              spec:
                containers:
                - name: xgboostjob
                  image: docker.io/merlintang/xgboost-dist-iris:1.1
                  args: [--job_type=Train]
      """;

  @Test
  void anArchivedApiGroupIsOneErrorSayingWhatToWrite() {
    var document = yaml(ARCHIVED_XGBOOST);
    assertThat(KubeflowReader.isKubeflowDocument(document)).isTrue();
    assertThatThrownBy(() -> reader.read(document))
        .isInstanceOfSatisfying(
            KubeflowConversionException.class,
            e ->
                assertThat(e.errors())
                    .singleElement()
                    .satisfies(
                        error -> {
                          assertThat(error.field()).isEqualTo("apiVersion");
                          assertThat(error.message())
                              .contains("archived xgboost-operator")
                              .contains("write apiVersion: kubeflow.org/v1")
                              .contains("spec.xgbReplicaSpecs");
                        }));
  }

  @Test
  void kubeflowTrainersGroupIsLeftToItsOwnReader() {
    assertThat(
            KubeflowReader.isKubeflowDocument(
                yaml("{apiVersion: trainer.kubeflow.org/v1alpha1, kind: TrainJob}")))
        .isFalse();
    assertThat(KubeflowReader.isKubeflowDocument(yaml("{apiVersion: trainyard.io/v1}"))).isFalse();
  }

  @Test
  void anUnquotedHelmPlaceholderIsNamedInsteadOfAYamlError() {
    var body =
        """
        apiVersion: kubeflow.org/v1
        kind: PyTorchJob
        metadata:
          name: {{ .Release.Name }}-train
        spec: {}
        """;
    assertThatThrownBy(() -> KubeflowDocuments.parseSingle(body.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOfSatisfying(
            KubeflowConversionException.class,
            e ->
                assertThat(e.errors())
                    .containsExactly(
                        new FieldError(
                            "name (line 4)",
                            "holds '{{ .Release.Name }}', which looks like an unrendered template"
                                + " (Helm, Go or Jinja); render it (helm template, ...) and send"
                                + " the result")));
  }

  @Test
  void placeholdersAreTheOnlyErrorsReported() {
    var document =
        RefusalsTest.change("pt", "/spec/pytorchReplicaSpecs/Worker/replicas", "$NUM_NODES");
    assertThatThrownBy(() -> reader.read(document))
        .isInstanceOfSatisfying(
            KubeflowConversionException.class,
            e ->
                assertThat(e.errors())
                    .extracting(FieldError::field)
                    .containsExactly("spec.pytorchReplicaSpecs.Worker.replicas"));
  }

  @Test
  void theJobObjectsLabelsAndAnnotationsAreCarriedOntoTheRenderedObject() {
    // Kueue's queue label, as its docs put it on a PyTorchJob, and a vendor's auto-resume flag.
    var document =
        yaml(
            """
            apiVersion: kubeflow.org/v1
            kind: PyTorchJob
            metadata:
              name: pytorch-simple
              labels:
                kueue.x-k8s.io/queue-name: user-queue
                trainyard.io/team: someone-else
              annotations:
                example.com/auto-resume: "true"
                kueue.x-k8s.io/job-min-parallelism: "1"
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
            """);
    var conversion = reader.read(document);
    var spec = conversion.job().spec();
    assertThat(spec.jobLabels())
        .containsExactly(
            Map.entry("kueue.x-k8s.io/queue-name", "user-queue"),
            Map.entry("trainyard.io/team", "someone-else"));
    assertThat(spec.jobAnnotations()).containsEntry("example.com/auto-resume", "true").hasSize(2);
    assertThat(spec.needsKubernetes()).isFalse();
    assertThat(conversion.warnings())
        .containsExactly(
            "metadata.labels.trainyard.io/team: is under the gateway's own prefix trainyard.io/:"
                + " the gateway's value replaces it on the job object");
    var rendered =
        writer.write(
            conversion.job(),
            new KubeflowWriter.RenderOptions("ty-x-a1", "ns", Map.of("trainyard.io/team", "nlp")));
    assertThat(rendered.at("/metadata/labels"))
        .isEqualTo(yaml("{kueue.x-k8s.io/queue-name: user-queue, trainyard.io/team: nlp}"));
    assertThat(rendered.at("/metadata/annotations"))
        .isEqualTo(document.at("/metadata/annotations"));
    assertThat(crd.check(rendered)).isEmpty();
    assertThat(reader.read(writer.write(conversion.job())).job()).isEqualTo(conversion.job());
  }

  @Test
  void generateNameStaysAPrefixForTheGatewayToComplete() {
    // As kubectl create users write it (kubectl apply refuses generateName).
    var document = RefusalsTest.change("pt", "/metadata/name", "~");
    ((ObjectNode) document.get("metadata")).put("generateName", "bert-imdb-");
    var job = reader.read(document).job();
    assertThat(job.metadata().name()).isNull();
    assertThat(job.metadata().generateName()).isEqualTo("bert-imdb-");
    assertThat(new JobSpecValidator().validate(job)).isEmpty();
    assertThat(writer.write(job).at("/metadata/generateName").asText()).isEqualTo("bert-imdb-");
    assertThat(job.named("x7k2q").metadata().name()).isEqualTo("bert-imdb-x7k2q");
    assertThat(reader.read(writer.write(job)).job()).isEqualTo(job);

    ((ObjectNode) document.get("metadata")).put("name", "b");
    var both = reader.read(document);
    assertThat(both.job().metadata().name()).isEqualTo("b");
    assertThat(both.job().metadata().generateName()).isNull();
    assertThat(both.warnings())
        .containsExactly("metadata.generateName: is not used: metadata.name is set, and wins");
  }

  private static List<String> names(JsonNode containers) {
    var names = new java.util.ArrayList<String>();
    containers.forEach(c -> names.add(c.path("name").asText()));
    return names;
  }

  // In the style of kubeflow/mpi-operator examples/v2beta1/pi/pi-mpich.yaml and
  // tensorflow-benchmarks.yaml (commit caa3c47): the launcher's mpirun in args alone, workers
  // running their image's own entrypoint (sshd), a non-root SSH directory, MPICH.
  private static final String MPI_V2_MPICH =
      """
      apiVersion: kubeflow.org/v2beta1
      kind: MPIJob
      metadata:
        name: stencil-mpich
      spec:
        slotsPerWorker: 2
        runPolicy:
          cleanPodPolicy: Running
        sshAuthMountPath: /home/mpiuser/.ssh
        mpiImplementation: MPICH
        mpiReplicaSpecs:
          Launcher:
            replicas: 1
            template:
              spec:
                containers:
                - image: registry.example.com/stencil:mpich-4.1
                  imagePullPolicy: IfNotPresent
                  name: stencil-launcher
                  securityContext:
                    runAsUser: 1000
                  args: [mpirun, -n, "4", /home/mpiuser/stencil, --steps, "1000"]
                  resources:
                    limits: {cpu: 1, memory: 1Gi}
          Worker:
            replicas: 2
            template:
              spec:
                containers:
                - image: registry.example.com/stencil:mpich-4.1
                  imagePullPolicy: IfNotPresent
                  name: stencil-worker
                  securityContext:
                    runAsUser: 1000
                  resources:
                    limits: {cpu: 2, memory: 2Gi}
      """;

  @Test
  void anMpiOperatorV2MpichJobIsReadAndRendersBackAsItself() {
    var document = yaml(MPI_V2_MPICH);
    assertThat(crd.check(document)).isEmpty();

    var conversion = reader.read(document);

    var spec = conversion.job().spec();
    assertThat(conversion.warnings()).isEmpty();
    assertThat(spec.processesPerReplica()).isEqualTo(2);
    assertThat(spec.kubernetes().mpi().implementation()).isEqualTo("MPICH");
    assertThat(spec.kubernetes().mpi().sshAuthMountPath()).isEqualTo("/home/mpiuser/.ssh");
    assertThat(new JobSpecValidator().validate(conversion.job())).isEmpty();
    var rendered =
        writer.write(
            conversion.job(),
            KubeflowWriter.RenderOptions.DEFAULTS,
            KubeflowWriter.MpiOperator.MPI_OPERATOR_V2);
    assertThat(crd.check(rendered)).isEmpty();
    assertSameTree(
        RoundTripNormalization.normalize(rendered), RoundTripNormalization.normalize(document));
  }
}
