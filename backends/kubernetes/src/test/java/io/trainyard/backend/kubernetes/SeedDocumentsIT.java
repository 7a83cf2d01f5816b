package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.trainyard.kubeflow.KubeflowDocuments;
import io.trainyard.kubeflow.KubeflowReader;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.spec.JobSpecValidator;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The seeds' PyTorchJobs (copies of ../shared/examples/kubeflow), submitted as they are: converted
 * as the gateway converts them, placed, submitted, and read back from the API server as the same
 * PyTorchJob in the team's namespace.
 */
class SeedDocumentsIT extends CrudServerTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One on-demand GPU pool without labels or taints: the object then holds the seed alone. */
  @Override
  String configYaml() {
    return """
        type: kubernetes
        id: k8s-use1
        region: us-east-1
        provider: aws
        nodePools:
          - {name: gpu, instanceType: g5.12xlarge, maxNodes: 8}
        """;
  }

  @ParameterizedTest
  @CsvSource({
    "seed-000-bert-pytorchjob.yaml, 1, 1",
    "seed-004-pytorchjob-master-2-workers.yaml, 1, 2"
  })
  void aSeedBecomesTheSamePyTorchJobInTheTeamsNamespace(String seed, int masters, int workers)
      throws IOException {
    var document = KubeflowDocuments.parseSingle(bytes("/seeds/" + seed));
    var converted = new KubeflowReader().read(document).job();
    assertThat(new JobSpecValidator().validate(converted)).isEmpty();
    var spec = converted.spec();
    var placement = backend.placements(spec).placements().get(0);
    var job =
        new BackendJob(
            TestJobs.newJobId(),
            1,
            "nlp",
            "alice",
            converted.metadata().name(),
            spec,
            "a".repeat(64),
            placement,
            Map.of("namespace", "nlp-jobs"));
    var ref = submit(job);
    var at = Attempt.of(ref);

    var live = operator.get(at);
    assertThat(live.getKind()).isEqualTo("PyTorchJob");
    assertThat(live.getMetadata().getNamespace()).isEqualTo("nlp-jobs");
    var tree = (ObjectNode) JSON.readTree(Serialization.asJson(live));
    var replicaSpecs = tree.at("/spec/pytorchReplicaSpecs");
    assertThat(replicaSpecs.at("/Master/replicas").asInt()).isEqualTo(masters);
    assertThat(replicaSpecs.at("/Worker/replicas").asInt()).isEqualTo(workers);
    for (var type : new String[] {"Master", "Worker"}) {
      var pod = replicaSpecs.at("/" + type + "/template/spec");
      assertThat(pod.at("/containers/0/name").asText()).isEqualTo("pytorch");
      assertThat(pod.at("/containers/0/resources/limits/nvidia.com~1gpu").asInt()).isEqualTo(1);
      if (seed.startsWith("seed-000")) {
        assertThat(pod.get("volumes").toString())
            .isEqualTo(
                "[{\"name\":\"shared\",\"persistentVolumeClaim\":{\"claimName\":\"data-pvc\"}}]");
        assertThat(pod.at("/containers/0/volumeMounts").toString())
            .isEqualTo("[{\"mountPath\":\"/mnt\",\"name\":\"shared\"}]");
      }
    }

    // Once it has ended and its logs are archived, read back as a user's document would be, it
    // is the job that was submitted (its own cleanup settings included).
    operator.succeeded(at);
    backend.cleanup(ref);
    tree = (ObjectNode) JSON.readTree(Serialization.asJson(operator.get(at)));
    var metadata = (ObjectNode) tree.get("metadata");
    metadata.retain("name", "labels");
    tree.remove("status");
    var back = new KubeflowReader().read(tree).job();
    assertThat(back.spec().roleSpecs()).isEqualTo(spec.roleSpecs());
    assertThat(back.spec().cleanup()).isEqualTo(spec.cleanup());
    // The object's labels read back as the job object's labels: the gateway's own among them.
    assertThat(back.spec().jobLabels())
        .containsEntry("trainyard.io/job-id", job.jobId())
        .containsEntry("trainyard.io/team", "nlp");
  }

  private static byte[] bytes(String resource) throws IOException {
    try (var in = SeedDocumentsIT.class.getResourceAsStream(resource)) {
      return in.readAllBytes();
    }
  }
}
