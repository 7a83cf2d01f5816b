package io.trainyard.kubeflow;

import static io.trainyard.kubeflow.TestDocuments.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.spec.FieldError;
import io.trainyard.spi.spec.JobSpecValidator;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A pod-template value the spec's validator refuses after conversion is named where the caller
 * wrote it in the Kubeflow document: the replica type's template, the container or volume found by
 * name.
 */
class DocumentPathsTest {
  /** Master's pod-spec fields, Worker's, Worker's extra containers, the job's spec fields. */
  private static final String DOCUMENT =
      """
      apiVersion: kubeflow.org/v1
      kind: PyTorchJob
      metadata: {name: bert}
      spec:
        pytorchReplicaSpecs:
          Master:
            replicas: 1
            template:
              spec:
                containers:
                - {name: pytorch, image: 'bert:1', resources: {limits: {cpu: 4, memory: 8Gi}}}
                %s
          Worker:
            replicas: 2
            template:
              spec:
                %s
                containers:
                - {name: pytorch, image: 'bert:1', resources: {limits: {cpu: 4, memory: 8Gi}}}
                %s
        %s
      """;

  private final KubeflowReader reader = new KubeflowReader();
  private final JobSpecValidator validator = new JobSpecValidator();

  @Test
  void aRolesPodTemplateValueIsNamedInItsReplicaType() {
    assertThat(refusals("", "volumes: [{name: scratch, emptyDir: {sizeLimit: NaN}}]", "", ""))
        .containsExactly(
            new FieldError(
                "spec.pytorchReplicaSpecs.Worker.template.spec.volumes[0].emptyDir.sizeLimit",
                "must be a Kubernetes quantity (e.g. 1Gi), was \"NaN\" (as"
                    + " spec.roles.worker.kubernetes.podTemplate.volumes[0].emptyDir.sizeLimit"
                    + " once converted)"));
  }

  @Test
  void aJobWideValueIsNamedInTheFirstTypeThatHasIt() {
    var selector = "nodeSelector: {gpu: true}";
    assertThat(refusals(selector, selector, "", ""))
        .extracting(FieldError::field)
        .containsExactly("spec.pytorchReplicaSpecs.Master.template.spec.nodeSelector.gpu");
  }

  @Test
  void aSidecarIsFoundByNameWhereTheMainContainerCarriedNothing() {
    var sidecar = "- {name: exporter, image: x, ports: [{containerPort: 99999}]}";
    assertThat(refusals("", "", sidecar, ""))
        .extracting(FieldError::field)
        .containsExactly(
            "spec.pytorchReplicaSpecs.Worker.template.spec.containers[1].ports[0].containerPort");
  }

  @Test
  void aTopLevelVolumeIsNamedWhereItWasWritten() {
    var volumes = "volumes: [{name: data, persistentVolumeClaim: {claimName: d, readOnly: 'yes'}}]";
    assertThat(refusals("", "", "", volumes))
        .extracting(FieldError::field)
        .containsExactly("spec.volumes[0].persistentVolumeClaim.readOnly");
  }

  private List<FieldError> refusals(String master, String worker, String sidecar, String spec) {
    var document = yaml(DOCUMENT.formatted(master, worker, sidecar, spec));
    var errors = validator.validate(reader.read(document).job());
    return DocumentPaths.of(document, errors);
  }
}
