package io.trainyard.gateway.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.spi.spec.FieldError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A value of a Kubeflow document that the spec's own limits refuse after conversion is named by its
 * path in the document the caller wrote, not by the spec field it became (which the message adds).
 */
class KubeflowErrorPathsTest {
  private static final Path GOLDEN = Path.of("../kubeflow/src/test/resources/golden");
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final ObjectMapper JSON = new ObjectMapper();

  private final SpecReader reader = new SpecReader(1 << 20);

  @Test
  void containerResourcesAndReplicaCountsOfEveryReplicaType() throws Exception {
    var workers = "spec.pytorchReplicaSpecs.Worker";
    assertThat(
            refused(
                "pytorch-fashion-mnist-gpu",
                doc -> limits(doc, "pytorchReplicaSpecs", "Worker").put("cpu", 10001)))
        .extracting(FieldError::field)
        .contains(workers + ".template.spec.containers[0].resources.limits.cpu");
    assertThat(
            refused(
                "pytorch-fashion-mnist-gpu",
                doc -> replicaSpec(doc, "pytorchReplicaSpecs", "Worker").put("replicas", 3650)))
        .singleElement()
        .satisfies(
            e -> {
              assertThat(e.field()).isEqualTo(workers + ".replicas");
              assertThat(e.message()).contains("spec.replicas.worker once converted");
            });
    assertThat(
            refused(
                "pytorch-fashion-mnist-gpu",
                doc ->
                    ((ObjectNode) doc.path("spec").path("runPolicy"))
                        .put("activeDeadlineSeconds", 2147483648L)))
        .extracting(FieldError::field)
        .contains("spec.runPolicy.activeDeadlineSeconds");
    assertThat(
            refused(
                "mpi-launcher-worker",
                doc -> ((ObjectNode) doc.path("spec")).put("slotsPerWorker", 2000)))
        .extracting(FieldError::field)
        .contains("spec.slotsPerWorker");
    assertThat(
            refused(
                "mpi-launcher-worker",
                doc -> limits(doc, "mpiReplicaSpecs", "Worker").put("nvidia.com/gpu", 65)))
        .extracting(FieldError::field)
        .contains(
            "spec.mpiReplicaSpecs.Worker.template.spec.containers[0].resources.limits.nvidia.com/gpu");
  }

  @Test
  void aTfJobsLegacyMasterIsNamedAsWrittenNotAsTheChiefItIsReadAs() throws Exception {
    assertThat(
            refused(
                "tensorflow-legacy-clean-pod-policy",
                doc -> {
                  var specs = (ObjectNode) doc.path("spec").path("tfReplicaSpecs");
                  var ps = (ObjectNode) specs.remove("PS");
                  specs.set("Master", ps);
                  limits(doc, "tfReplicaSpecs", "Master").put("cpu", 10001);
                }))
        .extracting(FieldError::field)
        .contains("spec.tfReplicaSpecs.Master.template.spec.containers[0].resources.limits.cpu");
  }

  @Test
  void aTrainJobsTrainer() throws Exception {
    var trainer = "spec.trainer";
    assertThat(
            refused(
                "trainjob-in-jax-gpus",
                doc -> ((ObjectNode) doc.path("spec").path("trainer")).put("numNodes", 3650)))
        .extracting(FieldError::field)
        .contains(trainer + ".numNodes");
    assertThat(
            refused(
                "trainjob-in-jax-gpus",
                doc ->
                    ((ObjectNode)
                            doc.path("spec")
                                .path("trainer")
                                .path("resourcesPerNode")
                                .path("limits"))
                        .put("nvidia.com/gpu", 65)))
        .extracting(FieldError::field)
        .contains(trainer + ".resourcesPerNode.limits.nvidia.com/gpu");
  }

  private static ObjectNode replicaSpec(ObjectNode doc, String field, String type) {
    return (ObjectNode) doc.path("spec").path(field).path(type);
  }

  private static ObjectNode limits(ObjectNode doc, String field, String type) {
    return (ObjectNode)
        replicaSpec(doc, field, type)
            .path("template")
            .path("spec")
            .path("containers")
            .get(0)
            .path("resources")
            .path("limits");
  }

  private java.util.List<FieldError> refused(String golden, Consumer<ObjectNode> change)
      throws Exception {
    var doc = (ObjectNode) YAML.readTree(Files.readString(GOLDEN.resolve(golden + "/input.yaml")));
    change.accept(doc);
    try {
      reader.read(JSON.writeValueAsBytes(doc));
    } catch (ApiException e) {
      return e.errors();
    }
    throw new AssertionError("accepted: " + doc);
  }
}
