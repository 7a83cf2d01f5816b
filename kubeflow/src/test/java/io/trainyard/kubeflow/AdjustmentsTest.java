package io.trainyard.kubeflow;

import static io.trainyard.kubeflow.RefusalsTest.change;
import static io.trainyard.kubeflow.TestDocuments.assertSameTree;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainyard.spi.spec.Resources;
import io.trainyard.spi.spec.RoleOverride;
import io.trainyard.spi.spec.SecretRef;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What the reader adjusts (with a warning) or normalises (without), and that nothing is lost. */
class AdjustmentsTest {
  private static final String CONTAINER =
      "/spec/pytorchReplicaSpecs/Master/template/spec/containers/0";
  private final KubeflowReader reader = new KubeflowReader();
  private final KubeflowWriter writer = new KubeflowWriter();
  private final CrdSchemaChecker crd = new CrdSchemaChecker();

  @Test
  void fieldsAtTheOperatorsDefaultAreLeftOutWithAWarning() {
    var pt = change("pt", "/spec/runPolicy/suspend", "false");
    ((ObjectNode) pt.at("/spec/runPolicy")).put("managedBy", "kubeflow.org/training-operator");
    ((ObjectNode) pt.at(CONTAINER + "/env/1/valueFrom/secretKeyRef")).put("optional", false);
    assertThat(reader.read(pt).warnings())
        .containsExactly(
            "spec.pytorchReplicaSpecs.Master.template.spec.containers[0].env[1].valueFrom"
                + ".secretKeyRef.optional: is the operator's default (false); left out",
            "spec.runPolicy.suspend: is the operator's default (false); left out",
            "spec.runPolicy.managedBy: is the operator's default"
                + " (\"kubeflow.org/training-operator\"); left out");

    var tf = change("tf", "/spec/successPolicy", "''");
    ((ObjectNode) tf.get("spec")).put("enableDynamicWorker", false);
    assertThat(reader.read(tf).warnings()).hasSize(2);
    var mpi = change("mpi", "/spec/mainContainer", "mpi");
    assertThat(reader.read(mpi).warnings())
        .containsExactly("spec.mainContainer: is the operator's default (\"mpi\"); left out");
  }

  /** Kueue's own examples write {@code suspend: true} beside the queue label: left to Kueue. */
  @ParameterizedTest
  @ValueSource(strings = {"pt", "mpi2"})
  void suspendBesideAKueueQueueLabelIsLeftToKueue(String base) {
    var document = change(base, "/spec/runPolicy/suspend", "true");
    ((ObjectNode) document.get("metadata"))
        .putObject("labels")
        .put("kueue.x-k8s.io/queue-name", "user-queue");
    var conversion = reader.read(document);
    assertThat(conversion.warnings())
        .contains(
            "spec.runPolicy.suspend: true beside the kueue.x-k8s.io/queue-name label: left to"
                + " Kueue, which suspends the job when it is created and starts it once queue"
                + " user-queue admits it");
    assertThat(conversion.job().spec().jobLabels())
        .containsEntry("kueue.x-k8s.io/queue-name", "user-queue");
    var rendered =
        writer.write(
            conversion.job(),
            KubeflowWriter.RenderOptions.DEFAULTS,
            base.equals("mpi2")
                ? KubeflowWriter.MpiOperator.MPI_OPERATOR_V2
                : KubeflowWriter.MpiOperator.TRAINING_OPERATOR);
    assertThat(rendered.at("/metadata/labels/kueue.x-k8s.io~1queue-name").asText())
        .isEqualTo("user-queue");
  }

  @Test
  void secretKeyRefOptionalFalseOnlyOnTheMasterIsStillFine() {
    var pt = TestDocuments.document("golden/pytorch-master-worker/input.yaml");
    ((ObjectNode) pt.at(CONTAINER + "/env/1/valueFrom/secretKeyRef")).put("optional", false);
    assertThat(reader.read(pt).job().spec().secretEnv())
        .containsEntry("WANDB_API_KEY", new SecretRef("wandb", "api-key"));
  }

  @Test
  void aReplicaTypeWithNoReplicasIsLeftOut() {
    var conversion = reader.read(change("tf", "/spec/tfReplicaSpecs/Evaluator/replicas", "0"));
    assertThat(conversion.job().spec().replicas()).doesNotContainKey("evaluator");
    assertThat(conversion.warnings())
        .containsExactly(
            "spec.tfReplicaSpecs.Evaluator.replicas: is 0: the replica type is left out");
  }

  @Test
  void tensorflowsMasterIsReadAsChief() {
    var tf = TestDocuments.document("golden/tensorflow-chief-ps-worker-evaluator/input.yaml");
    var specs = (ObjectNode) tf.at("/spec/tfReplicaSpecs");
    specs.set("Master", specs.remove("Chief"));
    var conversion = reader.read(tf);
    assertThat(conversion.job().spec().replicas()).containsKey("chief");
    assertThat(conversion.warnings())
        .containsExactly(
            "spec.tfReplicaSpecs.Master: read as Chief, which the operator treats alike");
    assertThat(writer.write(conversion.job()).at("/spec/tfReplicaSpecs").has("Chief")).isTrue();
  }

  @Test
  void aNumberForNprocPerNodeIsReadAsItsText() {
    var conversion = reader.read(change("pt", "/spec/nprocPerNode", "4"));
    assertThat(conversion.job().spec().processesPerReplica()).isEqualTo(4);
    assertThat(conversion.warnings()).singleElement().asString().startsWith("spec.nprocPerNode:");
    assertThat(writer.write(conversion.job()).at("/spec/nprocPerNode").textValue()).isEqualTo("4");
  }

  @Test
  void requestsEqualToLimitsAreKubernetesDefaultingAndNeedNoPodTemplate() {
    var doc = change("pt", CONTAINER + "/resources/requests", "{cpu: '16', memory: 64Gi}");
    var job = reader.read(doc).job();
    assertThat(job.spec().roleSpecs().get(0).resources())
        .isEqualTo(new Resources(4, null, 16.0, "64Gi"));
    assertThat(job.spec().roles().getOrDefault("master", RoleOverride.NONE).kubernetes()).isNull();
    var rendered = writer.write(job);
    assertThat(rendered.at(CONTAINER + "/resources").has("requests")).isFalse();
    assertRoundTrip(doc, rendered);
  }

  @Test
  void requestsWithoutLimitsAreKeptWholeAndPriceByTheRequest() {
    var doc = change("pt", CONTAINER + "/resources", "{requests: {cpu: 2, memory: 4Gi}}");
    var job = reader.read(doc).job();
    var master = job.spec().roleSpecs().get(0);
    assertThat(master.resources().cpus()).isEqualTo(2.0);
    assertThat(master.resources().memory()).isEqualTo("4Gi");
    // No limits means no GPU either: the spec says so, and Kubernetes gets the block unchanged.
    assertThat(master.resources().gpuCount()).isZero();
    assertThat(job.spec().needsKubernetes()).isTrue();
    var rendered = writer.write(job);
    assertThat(rendered.at(CONTAINER + "/resources")).isEqualTo(doc.at(CONTAINER + "/resources"));
    assertRoundTrip(doc, rendered);
    assertThat(reader.read(rendered).job()).isEqualTo(job);
  }

  @Test
  void resourcesTrainyardDoesNotCountAreCarriedWithTheBlock() {
    var doc =
        change(
            "pt",
            CONTAINER + "/resources/limits",
            "{cpu: 16, memory: 64Gi, nvidia.com/gpu: 4, ephemeral-storage: 100Gi,"
                + " vpc.amazonaws.com/efa: 1}");
    var job = reader.read(doc).job();
    assertThat(job.spec().roleSpecs().get(0).resources().gpuCount()).isEqualTo(4);
    var rendered = writer.write(job);
    assertThat(rendered.at(CONTAINER + "/resources/limits/ephemeral-storage").asText())
        .isEqualTo("100Gi");
    assertThat(crd.check(rendered)).isEmpty();
    assertRoundTrip(doc, rendered);
  }

  @Test
  void envIsWrittenPlainFirstWhichChangesNoValue() {
    var doc = TestDocuments.document("golden/pytorch-master-worker/input.yaml");
    var env = (com.fasterxml.jackson.databind.node.ArrayNode) doc.at(CONTAINER + "/env");
    env.insert(0, env.remove(1)); // the secret first
    var conversion = reader.read(doc);
    assertThat(conversion.warnings()).isEmpty();
    var rendered = writer.write(conversion.job());
    assertThat(names(rendered.at(CONTAINER + "/env")))
        .containsExactly("HF_DATASETS_OFFLINE", "WANDB_API_KEY");
    assertThat(names(rendered.at(CONTAINER + "/env")))
        .containsExactlyInAnyOrderElementsOf(names(doc.at(CONTAINER + "/env")));
  }

  @Test
  void silentDefaultsAreWrittenOut() {
    var doc = change("pt", "/spec/pytorchReplicaSpecs/Master/replicas", "~");
    ((ObjectNode) doc.at(CONTAINER + "/env/0")).remove("value");
    var job = reader.read(doc).job();
    assertThat(job.spec().replicas()).containsEntry("master", 1);
    assertThat(job.spec().roleSpecs().get(0).env()).containsEntry("HF_DATASETS_OFFLINE", "");
    var rendered = writer.write(job);
    assertThat(rendered.at("/spec/pytorchReplicaSpecs/Master/replicas").intValue()).isEqualTo(1);
    assertRoundTrip(doc, rendered);
  }

  @Test
  void theFrameworksContainerKeepsItsPlaceAfterASidecar() {
    var doc = TestDocuments.document("golden/pytorch-elastic/input.yaml");
    var containers =
        (com.fasterxml.jackson.databind.node.ArrayNode)
            doc.at("/spec/pytorchReplicaSpecs/Worker/template/spec/containers");
    containers.insert(0, TestDocuments.yaml("{name: proxy, image: envoyproxy/envoy:v1.30}"));
    ((ObjectNode) containers.get(1)).remove("imagePullPolicy");
    var job = reader.read(doc).job();
    assertThat(job.spec().kubernetes().podTemplate().get("containers"))
        .isEqualTo(
            List.of(
                Map.of("name", "proxy", "image", "envoyproxy/envoy:v1.30"),
                Map.of("name", "pytorch")));
    assertRoundTrip(doc, writer.write(job));
  }

  private void assertRoundTrip(JsonNode document, JsonNode rendered) {
    assertSameTree(
        RoundTripNormalization.normalize(rendered), RoundTripNormalization.normalize(document));
  }

  private static List<String> names(JsonNode env) {
    var names = new java.util.ArrayList<String>();
    env.forEach(e -> names.add(e.get("name").asText()));
    return names;
  }
}
