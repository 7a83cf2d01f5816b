package io.trainyard.kubeflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainyard.spi.spec.FieldError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Each row changes one field of a golden input (a JSON pointer set to a YAML value, or removed) and
 * expects the conversion to be refused with that field's full path in the document.
 */
class RefusalsTest {
  private static final String PT = "golden/pytorch-master-worker/input.yaml";
  private final KubeflowReader reader = new KubeflowReader();

  @ParameterizedTest(name = "{1} = {2} → {3}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      textBlock =
          """
          tf  | /spec/tfReplicaSpecs/PS/template/spec/containers/0/lifecycle | {preStop: {exec: {command: [sleep, '5']}}} | spec.tfReplicaSpecs.PS.template.spec.containers[0].lifecycle | runs commands outside the job's command
          pt  | /spec/pytorchReplicaSpecs/Worker/template/spec/containers/0/env/0 | {name: CFG, valueFrom: {configMapKeyRef: {name: cfg, key: k}}} | spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].env[0].valueFrom.configMapKeyRef | only secretKeyRef
          pt  | /spec/pytorchReplicaSpecs/Worker/template/spec/containers/0/env/0 | {name: POD_IP, valueFrom: {fieldRef: {fieldPath: status.podIP}}} | spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].env[0].valueFrom.fieldRef | only secretKeyRef
          pt  | /spec/pytorchReplicaSpecs/Worker/template/spec/containers/0/env/0 | {name: MEM, valueFrom: {resourceFieldRef: {resource: limits.memory}}} | spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].env[0].valueFrom.resourceFieldRef | only secretKeyRef
          pt  | /spec/pytorchReplicaSpecs/Worker/template/spec/containers/0/env/0 | {name: E, valueFrom: {}} | spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].env[0].valueFrom | names no source
          pt  | /spec/pytorchReplicaSpecs/Worker/template/spec/containers/0/env/0 | {name: E, value: x, valueFrom: {secretKeyRef: {name: s, key: k}}} | spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].env[0].value | together with valueFrom
          pt  | /spec/pytorchReplicaSpecs/Worker/template/spec/containers/0/env/0 | {name: E, valueFrom: {secretKeyRef: {name: s, key: k, optional: true}}} | spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].env[0].valueFrom.secretKeyRef.optional | never optional
          pt  | /spec/pytorchReplicaSpecs/Worker/template/spec/containers/0/env/0 | {name: E, valueFrom: {secretKeyRef: {name: s}}} | spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].env[0].valueFrom.secretKeyRef.key | is required
          pt  | /spec/pytorchReplicaSpecs/Worker/template/spec/containers/0/env/0 | {name: RETRIES, value: 3} | spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].env[0].value | must be a string (quote it)
          pt  | /spec/pytorchReplicaSpecs/Worker/template/spec/containers/0/env/0 | {name: NCCL_DEBUG, value: WARN} | spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].env[1].name | is set twice
          pt  | /spec/pytorchReplicaSpecs/Worker/template/spec/containers/0/env/0 | {name: URL, value: 'https://$(WANDB_API_KEY)@host'} | spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].env[0].value | refers to the secret variable $(WANDB_API_KEY)
          pt  | /spec/pytorchReplicaSpecs/Worker/template/spec/containers/0/envFrom | [{configMapRef: {name: cfg}}] | spec.pytorchReplicaSpecs.Worker.template.spec.containers[0].envFrom | name each one in env
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/livenessProbe | {exec: {command: ['true']}} | spec.pytorchReplicaSpecs.Master.template.spec.containers[0].livenessProbe | restarts containers
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/readinessProbe | {exec: {command: ['true']}} | spec.pytorchReplicaSpecs.Master.template.spec.containers[0].readinessProbe | has none
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/tty | true | spec.pytorchReplicaSpecs.Master.template.spec.containers[0].tty | reads no terminal
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/bogus | 1 | spec.pytorchReplicaSpecs.Master.template.spec.containers[0].bogus | not a field of a Kubernetes container
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/image | ~ | spec.pytorchReplicaSpecs.Master.template.spec.containers[0].image | is required
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/name | trainer | spec.pytorchReplicaSpecs.Master.template.spec.containers | no container named 'pytorch'
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/resources/limits/amd.com~1gpu | 1 | spec.pytorchReplicaSpecs.Master.template.spec.containers[0].resources.limits.amd.com/gpu | cannot account for amd.com/gpu
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/resources/limits/nvidia.com~1gpu | '0.5' | spec.pytorchReplicaSpecs.Master.template.spec.containers[0].resources.limits.nvidia.com/gpu | whole number of GPUs
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/resources/requests | {nvidia.com/gpu: 2} | spec.pytorchReplicaSpecs.Master.template.spec.containers[0].resources.requests.nvidia.com/gpu | must equal limits
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/resources/limits/memory | lots | spec.pytorchReplicaSpecs.Master.template.spec.containers[0].resources.limits.memory | not a quantity
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/resources/limits/memory | '1e9' | spec.pytorchReplicaSpecs.Master.template.spec.containers[0].resources.limits.memory | not a memory quantity
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/nodeName | gpu-node-7 | spec.pytorchReplicaSpecs.Master.template.spec.nodeName | pins one node
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/activeDeadlineSeconds | 60 | spec.pytorchReplicaSpecs.Master.template.spec.activeDeadlineSeconds | runPolicy.activeDeadlineSeconds
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/hostname | master | spec.pytorchReplicaSpecs.Master.template.spec.hostname | names each replica's pod
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/schedulingGates | [{name: wait}] | spec.pytorchReplicaSpecs.Master.template.spec.schedulingGates | decide when replicas schedule
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/bogus | 1 | spec.pytorchReplicaSpecs.Master.template.spec.bogus | not a field of a Kubernetes pod spec
          pt  | /spec/pytorchReplicaSpecs/Master/template/metadata/name | master-0 | spec.pytorchReplicaSpecs.Master.template.metadata.name | names each replica's pod
          pt  | /spec/pytorchReplicaSpecs/Master/template | ~ | spec.pytorchReplicaSpecs.Master.template | is required
          pt  | /spec/pytorchReplicaSpecs/Master/replicas | 2 | spec.pytorchReplicaSpecs.Master.replicas | must be 1: a PyTorchJob has one Master
          pt  | /spec/pytorchReplicaSpecs/Master/replicas | -1 | spec.pytorchReplicaSpecs.Master.replicas | at least 0
          pt  | /spec/pytorchReplicaSpecs/Master/restartPolicy | Sometimes | spec.pytorchReplicaSpecs.Master.restartPolicy | one of OnFailure, Never, ExitCode, Always
          pt  | /spec/pytorchReplicaSpecs/Master/bogus | 1 | spec.pytorchReplicaSpecs.Master.bogus | not a field of a replica spec
          pt  | /spec/pytorchReplicaSpecs/Launcher | {replicas: 1} | spec.pytorchReplicaSpecs.Launcher | one of Master, Worker
          pt  | /spec/pytorchReplicaSpecs | ~ | spec.pytorchReplicaSpecs | is required
          pt  | /spec/runPolicy/suspend | true | spec.runPolicy.suspend | Trainyard starts the job itself
          pt  | /spec/runPolicy/managedBy | kueue.x-k8s.io/multikueue | spec.runPolicy.managedBy | decides which controller runs the job
          pt  | /spec/runPolicy/cleanPodPolicy | Sometimes | spec.runPolicy.cleanPodPolicy | one of None, Running, All
          pt  | /spec/runPolicy/activeDeadlineSeconds | 0 | spec.runPolicy.activeDeadlineSeconds | at least 1
          pt  | /spec/runPolicy/backoffLimit | three | spec.runPolicy.backoffLimit | whole number
          pt  | /spec/runPolicy/bogus | 1 | spec.runPolicy.bogus | not a field of runPolicy
          pt  | /spec/runPolicy/schedulingPolicy/minResources/cpu | many | spec.runPolicy.schedulingPolicy.minResources.cpu | not a quantity
          pt  | /spec/runPolicy/schedulingPolicy/bogus | 1 | spec.runPolicy.schedulingPolicy.bogus | not a field of schedulingPolicy
          pt  | /spec/cleanPodPolicy | All | spec.cleanPodPolicy | differs from spec.runPolicy.cleanPodPolicy
          pt  | /spec/volumes | [{name: dshm, emptyDir: {}}] | spec.volumes[0].name | also a volume of the master pod template
          pt  | /spec/nprocPerNode | gpu | spec.nprocPerNode | write it, e.g. "4"
          pt  | /spec/elasticPolicy | {maxReplicas: 4, standalone: true} | spec.elasticPolicy.standalone | no shared endpoint
          pt  | /spec/elasticPolicy | {maxReplicas: 4, rdzvConf: [{key: a, value: '1'}, {key: a, value: '2'}]} | spec.elasticPolicy.rdzvConf[1].key | 'a' is set twice
          pt  | /spec/elasticPolicy | {maxReplicas: 4, metrics: [{resource: {name: cpu}}]} | spec.elasticPolicy.metrics[0].type | is required
          pt  | /spec/bogus | 1 | spec.bogus | not a field of a PyTorchJob spec
          pt  | /spec | ~ | spec | is required
          pt  | /metadata/annotations | {owner: 3} | metadata.annotations.owner | must be a string
          pt  | /metadata/finalizers | [example.com/keep] | metadata.finalizers | deleting the job object
          pt  | /metadata/name | ~ | metadata.name | is required (or metadata.generateName)
          pt  | /apiVersion | kubeflow.org/v1beta1 | apiVersion | an older version of the Kubeflow job API, which the Training Operator no longer serves and whose spec differs; write apiVersion: kubeflow.org/v1 and the PyTorchJob spec the Training Operator reads (spec.pytorchReplicaSpecs, spec.runPolicy)
          xgb | /apiVersion | xgboostjob.kubeflow.org/v1alpha1 | apiVersion | the archived xgboost-operator, whose jobs the Training Operator now runs as kubeflow.org/v1 XGBoostJob; write apiVersion: kubeflow.org/v1 and the XGBoostJob spec
          tf  | /apiVersion | kubeflow.org/v2beta1 | apiVersion | is read only as the MPI Operator v2's MPIJob (kind: MPIJob), not as a TFJob; write apiVersion: kubeflow.org/v1 and the TFJob spec
          mpi2 | /apiVersion | kubeflow.org/v2alpha1 | apiVersion | an older version of the Kubeflow job API
          mpi2 | /spec/mpiImplementation | MVAPICH | spec.mpiImplementation | 'MVAPICH' must be one of Intel, MPICH, OpenMPI
          mpi2 | /spec/mpiImplementation | 3 | spec.mpiImplementation | must be a string
          mpi2 | /spec/launcherCreationPolicy | Later | spec.launcherCreationPolicy | 'Later' must be one of AtStartup, WaitForWorkersReady
          mpi2 | /spec/sshAuthMountPath | .ssh | spec.sshAuthMountPath | must be an absolute path
          mpi2 | /spec/runLauncherAsWorker | 1 | spec.runLauncherAsWorker | must be a boolean
          mpi2 | /spec/slotsPerWorker | 0 | spec.slotsPerWorker | at least 1
          mpi2 | /spec/mainContainer | mpi | spec.mainContainer | not a field of a kubeflow.org/v2beta1 MPIJob spec
          mpi2 | /spec/cleanPodPolicy | All | spec.cleanPodPolicy | not a field of a kubeflow.org/v2beta1 MPIJob spec
          mpi2 | /spec/runPolicy/suspend | true | spec.runPolicy.suspend | Trainyard starts the job itself
          mpi2 | /spec/runPolicy/managedBy | kubeflow.org/training-operator | spec.runPolicy.managedBy | decides which controller runs the job
          mpi2 | /spec/runPolicy/cleanPodPolicy | Sometimes | spec.runPolicy.cleanPodPolicy | one of None, Running, All
          mpi2 | /spec/runPolicy/schedulingPolicy/bogus | 1 | spec.runPolicy.schedulingPolicy.bogus | not a field of schedulingPolicy
          mpi2 | /spec/mpiReplicaSpecs/Worker/replicas | ~ | spec.mpiReplicaSpecs.Worker.replicas | the MPI Operator v2 defaults it to 0
          mpi2 | /spec/mpiReplicaSpecs/Launcher | ~ | spec.mpiReplicaSpecs.Launcher | an MPI job has one launcher
          mpi2 | /spec/mpiReplicaSpecs/Launcher/replicas | 2 | spec.mpiReplicaSpecs.Launcher.replicas | must be 1
          mpi2 | /spec/mpiReplicaSpecs/Chief | {replicas: 1} | spec.mpiReplicaSpecs.Chief | one of Launcher, Worker
          pt  | /apiVersion | pytorch.kubeflow.org/v1 | apiVersion | is not an API Trainyard reads (its spec differs); write apiVersion: kubeflow.org/v1
          pt  | /kind | MXJob | kind | one of PyTorchJob, TFJob, MPIJob, XGBoostJob, PaddleJob, JAXJob
          pd  | /spec/elasticPolicy | {minReplicas: 1, maxReplicas: 4} | spec.elasticPolicy | elastic Paddle jobs are not supported
          pd  | /spec/paddleReplicaSpecs/Chief | {replicas: 1} | spec.paddleReplicaSpecs.Chief | one of Master, Worker
          pd  | /spec/paddleReplicaSpecs/Master/template/spec/containers/0/name | trainer | spec.paddleReplicaSpecs.Master.template.spec.containers | no container named 'paddle'
          pd  | /spec/bogus | 1 | spec.bogus | not a field of a PaddleJob spec
          jax | /spec/jaxReplicaSpecs/Master | {replicas: 1} | spec.jaxReplicaSpecs.Master | one of Worker
          jax | /spec/jaxReplicaSpecs/Worker/template/spec/containers/0/name | trainer | spec.jaxReplicaSpecs.Worker.template.spec.containers | no container named 'jax'
          jax | /spec/elasticPolicy | {maxReplicas: 4} | spec.elasticPolicy | not a field of a JAXJob spec
          jax | /spec/jaxReplicaSpecs/Worker/template/spec/containers/0/lifecycle | {preStop: {exec: {command: [sleep, '5']}}} | spec.jaxReplicaSpecs.Worker.template.spec.containers[0].lifecycle | runs commands outside the job's command
          tf  | /spec/successPolicy | AllWorkers | spec.successPolicy | only the default policy
          tf  | /spec/enableDynamicWorker | true | spec.enableDynamicWorker | dynamic workers
          mpi | /spec/mainContainer | trainer | spec.mainContainer | the first container of each replica ('mpi'); name that one or leave it out
          mpi | /spec/mpiReplicaSpecs/Worker/template/spec/containers/0/name | ~ | spec.mpiReplicaSpecs.Worker.template.spec.containers[0].name | is required
          mpi | /spec/mpiReplicaSpecs/Worker/template/spec/containers/0/image | '' | spec.mpiReplicaSpecs.Worker.template.spec.containers[0].image | is required
          mpi | /spec/mpiReplicaSpecs/Launcher | ~ | spec.mpiReplicaSpecs.Launcher | an MPI job has one launcher
          mpi | /spec/slotsPerWorker | 0 | spec.slotsPerWorker | at least 1
          xgb | /spec/xgbReplicaSpecs/Worker/template/spec/containers/0/env/1/value | $(DATA_ROOT)/$(RUN_ID) | |
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/resources/limits/nvidia.com~1mig-1g.5gb | 1 | spec.pytorchReplicaSpecs.Master.template.spec.containers[0].resources.limits.nvidia.com/mig-1g.5gb | cannot account for nvidia.com/mig-1g.5gb
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/resources/limits/habana.ai~1gaudi | 8 | spec.pytorchReplicaSpecs.Master.template.spec.containers[0].resources.limits.habana.ai/gaudi | cannot account for habana.ai/gaudi
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/resources/limits/aws.amazon.com~1neuroncore | 2 | spec.pytorchReplicaSpecs.Master.template.spec.containers[0].resources.limits.aws.amazon.com/neuroncore | cannot account for aws.amazon.com/neuroncore
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/resources/limits/gpu.intel.com~1i915 | 1 | spec.pytorchReplicaSpecs.Master.template.spec.containers[0].resources.limits.gpu.intel.com/i915 | cannot account for gpu.intel.com/i915
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/image | $IMAGE | spec.pytorchReplicaSpecs.Master.template.spec.containers[0].image | holds '$IMAGE', which looks like an unrendered template variable
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/image | 'registry.example.com/bert:${TAG}' | spec.pytorchReplicaSpecs.Master.template.spec.containers[0].image | holds '${TAG}', which looks like an unrendered template variable
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/image | '{{ .Values.image }}' | spec.pytorchReplicaSpecs.Master.template.spec.containers[0].image | holds '{{ .Values.image }}', which looks like an unrendered template (Helm, Go or Jinja)
          pt  | /spec/pytorchReplicaSpecs/Worker/replicas | $NUM_NODES | spec.pytorchReplicaSpecs.Worker.replicas | holds '$NUM_NODES', which looks like an unrendered template variable
          pt  | /spec/pytorchReplicaSpecs/Worker/replicas | '{{ num_workers }}' | spec.pytorchReplicaSpecs.Worker.replicas | holds '{{ num_workers }}', which looks like an unrendered template
          pt  | /metadata/name | 'bert-{{ run_id }}' | metadata.name | holds '{{ run_id }}'
          pt  | /metadata/labels/project | '{%- if x %}a{% endif %}' | metadata.labels.project | holds '{%- if x %}'
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/args/1 | '{{ .Values.epochs }}' | spec.pytorchReplicaSpecs.Master.template.spec.containers[0].args[1] | looks like an unrendered template
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/args/1 | $(EPOCHS) | |
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/args/1 | '--nnodes=$NUM_NODES ${EXTRA}' | |
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/command | [python, -c, 'print(f"{{x}}")'] | |
          pt  | /spec/pytorchReplicaSpecs/Master/template/spec/containers/0/env/0 | {name: DATA, value: '${HOME}/data:$PATH'} | |
          pt  | /spec/pytorchReplicaSpecs/Master/template/metadata/annotations | {vault.hashicorp.com/agent-inject-template-db: '{{ with secret "db" }}{{ .Data.password }}{{ end }}'} | |
          """)
  void refusesNamingTheField(
      String base, String pointer, String value, String field, String message) {
    var document = change(base, pointer, value);
    if (field == null) {
      // A reference to a variable that is not defined is left to Kubernetes, as it would be.
      assertThat(reader.read(document).job()).isNotNull();
      return;
    }
    assertThatThrownBy(() -> reader.read(document))
        .isInstanceOfSatisfying(
            KubeflowConversionException.class,
            e ->
                assertThat(e.errors())
                    .as("errors of %s", e.getMessage())
                    .anySatisfy(
                        error -> {
                          assertThat(error.field()).isEqualTo(field);
                          assertThat(error.message()).contains(message);
                        }));
  }

  @Test
  void reportsEveryProblemAtOnce() {
    var document = change("pt", "/spec/runPolicy/suspend", "true");
    var master = (ObjectNode) document.at("/spec/pytorchReplicaSpecs/Master/template/spec");
    master.put("nodeName", "n1");
    ((ObjectNode) master.at("/containers/0")).putObject("lifecycle");
    ((ObjectNode) document.get("metadata")).putArray("finalizers");

    assertThatThrownBy(() -> reader.read(document))
        .isInstanceOfSatisfying(
            KubeflowConversionException.class,
            e ->
                assertThat(e.errors())
                    .extracting(FieldError::field)
                    .containsExactlyInAnyOrder(
                        "metadata.finalizers",
                        "spec.pytorchReplicaSpecs.Master.template.spec.nodeName",
                        "spec.pytorchReplicaSpecs.Master.template.spec.containers[0].lifecycle",
                        "spec.runPolicy.suspend"));
  }

  @Test
  void aDocumentThatIsNotAMappingIsRefusedAsAWhole() {
    assertThatThrownBy(() -> reader.read(TestDocuments.yaml("[1, 2]")))
        .isInstanceOfSatisfying(
            KubeflowConversionException.class,
            e -> assertThat(e.errors()).extracting(FieldError::field).containsExactly(""));
  }

  static JsonNode change(String base, String pointer, String value) {
    var document =
        TestDocuments.document(
            switch (base) {
              case "pt" -> PT;
              case "tf" -> "golden/tensorflow-chief-ps-worker-evaluator/input.yaml";
              case "mpi" -> "golden/mpi-launcher-worker/input.yaml";
              case "mpi2" -> "golden/mpi-v2-intel-wait-for-workers/input.yaml";
              case "xgb" -> "golden/xgboost-master-worker/input.yaml";
              case "pd" -> "golden/paddle-master-worker/input.yaml";
              case "jax" -> "golden/jax-worker/input.yaml";
              default -> throw new IllegalArgumentException(base);
            });
    return change(document, pointer, value);
  }

  /** {@code document}, changed in place at {@code pointer}. */
  static JsonNode change(JsonNode document, String pointer, String value) {
    var at = JsonPointer.compile(pointer);
    var parent = document.at(at.head());
    var name = at.last().getMatchingProperty();
    if (parent instanceof ArrayNode array) {
      array.set(at.last().getMatchingIndex(), TestDocuments.yaml("v: " + value).get("v"));
    } else if (value.equals("~")) {
      ((ObjectNode) parent).remove(name);
    } else {
      ((ObjectNode) parent).set(name, TestDocuments.yaml("v: " + value).get("v"));
    }
    return document;
  }
}
