package io.trainyard.kubeflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainyard.spi.spec.JobSpecValidator;
import io.trainyard.spi.spec.TrainingJob;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a TrainJob cannot express is refused naming the spec's field; what it can is rendered. */
class TrainJobWriterTest {
  private static final String BASE =
      """
      framework: pytorch
      image: registry.example.com/bert:1.4
      command: [torchrun, train.py]
      resources: {gpus: 1, cpus: 4, memory: 16Gi}
      replicas: {master: 1, worker: 2}
      """;
  private static final TrainJobWriter.Options OPTIONS =
      new TrainJobWriter.Options(null, null, null, "torch-distributed", null);

  private final TrainJobWriter writer = new TrainJobWriter();
  private final CrdSchemaChecker crd = new CrdSchemaChecker();

  @ParameterizedTest(name = "{0} → {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      textBlock =
          """
          framework: tensorflow\\nimage: i\\nreplicas: {chief: 1, ps: 1, worker: 2} | spec.framework | no TensorFlow runtime: a TrainJob cannot run chief, parameter-server
          framework: mpi\\nimage: i\\nreplicas: {launcher: 1, worker: 2} | spec.framework | an MPI TrainJob's launcher is one of its runtime's nodes
          framework: paddle\\nimage: i\\nreplicas: {master: 1, worker: 1} | spec.framework | Kubeflow Trainer ships no paddle runtime
          roles: {worker: {resources: {gpus: 2}}} | spec.roles.worker.resources | differs between master and worker: a TrainJob runs every node alike
          roles: {worker: {image: other:1}} | spec.roles.worker.image | differs between master and worker
          roles: {master: {args: [--rank0]}} | spec.roles.master.args | differs between master and worker
          roles: {worker: {env: {A: b}}} | spec.roles.worker.env | differs between master and worker
          roles: {worker: {kubernetes: {podTemplate: {nodeSelector: {a: b}}}}} | spec.roles.worker.kubernetes | differs between master and worker
          restartPolicy: Never | spec.restartPolicy | restart policy and backoff are the ClusterTrainingRuntime's
          roles: {worker: {restartPolicy: Never}} | spec.roles.worker.restartPolicy | restart policy and backoff
          maxRestarts: 3 | spec.maxRestarts | restart policy and backoff
          maxRuntime: 6h | spec.maxRuntime | has no deadline field
          elastic: {minReplicas: 1, maxReplicas: 3} | spec.elastic | cannot run elastic
          cleanup: {pods: running} | spec.cleanup | clean-up and TTL are the ClusterTrainingRuntime's
          kubernetes: {scheduling: {minAvailable: 3}} | spec.kubernetes.scheduling | podGroupPolicy
          kubernetes: {podTemplate: {priorityClassName: high}} | spec.kubernetes.podTemplate.priorityClassName | podTemplateOverrides cannot set it
          kubernetes: {podTemplate: {initContainers: [{name: init, image: busybox}]}} | spec.kubernetes.podTemplate.initContainers | podTemplateOverrides cannot set it
          kubernetes: {podTemplate: {metadata: {name: x}}} | spec.kubernetes.podTemplate.metadata.name | only labels and annotations
          kubernetes: {podTemplate: {containers: [{name: log-shipper, image: fluent-bit}]}} | spec.kubernetes.podTemplate.containers[0] | cannot add log-shipper
          kubernetes: {podTemplate: {containers: [{name: pytorch, ports: [{containerPort: 1}]}]}} | spec.kubernetes.podTemplate.containers[0].ports | trainer container (node) cannot take it
          """)
  void whatATrainJobCannotSayIsRefusedByField(String yaml, String field, String message) {
    var spec = yaml.startsWith("framework") ? yaml.replace("\\n", "\n") : BASE + yaml;
    var job = job(spec);
    assertThat(TrainJobWriter.unsupported(job.spec()))
        .anySatisfy(
            e -> {
              assertThat(e.field()).isEqualTo(field);
              assertThat(e.message()).contains(message);
            });
    assertThatThrownBy(() -> writer.write(job, OPTIONS))
        .isInstanceOf(KubeflowConversionException.class)
        .hasMessageContaining(field + ": ");
  }

  @Test
  void everyReplicaOfEveryRoleIsOneNode() {
    var rendered = writer.write(job(BASE + "processesPerReplica: 8\n"), OPTIONS);
    assertThat(rendered.at("/spec/trainer/numNodes").asInt()).isEqualTo(3);
    assertThat(rendered.at("/spec/trainer/numProcPerNode").asInt()).isEqualTo(8);
    assertThat(rendered.at("/spec/trainer/resourcesPerNode"))
        .isEqualTo(TestDocuments.yaml("{limits: {cpu: 4, memory: 16Gi, nvidia.com/gpu: 1}}"));
    assertThat(rendered.has("podTemplateOverrides")).isFalse();
    assertThat(crd.check(rendered)).isEmpty();
  }

  @Test
  void aResourcesBlockTheSpecCannotSayIsTheNodesResources() {
    var yaml =
        BASE
            + "kubernetes: {podTemplate: {containers: [{name: pytorch, resources: {requests: {cpu: 2},"
            + " limits: {cpu: 4, memory: 16Gi, nvidia.com/gpu: 1}}}]}}\n";
    var rendered = writer.write(job(yaml), OPTIONS);
    assertThat(rendered.at("/spec/trainer/resourcesPerNode"))
        .isEqualTo(
            TestDocuments.yaml(
                "{requests: {cpu: 2}, limits: {cpu: 4, memory: 16Gi, nvidia.com/gpu: 1}}"));
    assertThat(rendered.has("podTemplateOverrides")).as("nothing else to override").isFalse();
  }

  @Test
  void theCheckerCatchesAMalformedTrainJob() {
    var rendered = writer.write(job(BASE), OPTIONS);
    ((ObjectNode) rendered.at("/spec/trainer")).put("numNodes", "three");
    ((ObjectNode) rendered.at("/spec")).remove("runtimeRef");
    ((ObjectNode) rendered.at("/spec/trainer")).put("replicas", 3);
    assertThat(crd.check(rendered))
        .contains(
            "spec.runtimeRef: is required",
            "spec.trainer.numNodes: must be an integer",
            "spec.trainer.replicas: is not in the schema");
  }

  @Test
  void theRuntimeIsRequired() {
    assertThatThrownBy(() -> new TrainJobWriter.Options("n", "ns", null, null, null))
        .isInstanceOf(NullPointerException.class)
        .hasMessageContaining("runtime");
  }

  private static TrainingJob job(String specYaml) {
    var yaml =
        "apiVersion: trainyard.io/v1\nkind: TrainingJob\nmetadata: {name: t}\nspec:\n"
            + specYaml.lines().map(l -> "  " + l + "\n").reduce("", String::concat);
    try {
      var job = TestDocuments.SPECS.readValue(yaml, TrainingJob.class);
      assertThat(new JobSpecValidator().validate(job)).as("spec errors").isEmpty();
      return job;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
