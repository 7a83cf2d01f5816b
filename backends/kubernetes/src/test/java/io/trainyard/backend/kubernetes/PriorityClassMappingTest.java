package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.BackendJob;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A cluster block's {@code priorityClasses}: the queue priority of a job (capped by its team) picks
 * the PriorityClass of its pods, on the rendered object, unless the spec names one.
 */
class PriorityClassMappingTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<PriorityClassRange> RANGES =
      List.of(
          new PriorityClassRange(800, "high"),
          new PriorityClassRange(0, "low"),
          new PriorityClassRange(300, "normal"));
  private static final ClusterSettings CLUSTER =
      TestJobs.config(TestJobs.ONPREM_A).settings().withPriorityClasses(RANGES);

  @ParameterizedTest
  @CsvSource({
    "'', '', normal", // default 500
    "'priority: 0,', '', low",
    "'priority: 299,', '', low",
    "'priority: 300,', '', normal",
    "'priority: 800,', '', high",
    "'priority: 1000,', '', high",
    "'priority: 900,', 700, normal", // the team's cap applies first
  })
  void thePriorityPicksTheClassOfEveryPod(String priority, String teamCap, String expected) {
    var object = render(priority, teamCap.isEmpty() ? Map.of() : Map.of("maxPriority", teamCap));
    var specs = object.at("/spec/pytorchReplicaSpecs");
    assertThat(specs.size()).isEqualTo(2);
    specs.forEach(
        role ->
            assertThat(role.at("/template/spec/priorityClassName").asText()).isEqualTo(expected));
  }

  @Test
  void aClassTheSpecNamesWins() {
    var object =
        render("kubernetes: {scheduling: {priorityClass: urgent}}, priority: 0,", Map.of());
    assertThat(
            object
                .at("/spec/pytorchReplicaSpecs/Master/template/spec/priorityClassName")
                .isMissingNode())
        .isTrue();
    assertThat(object.at("/spec/runPolicy/schedulingPolicy/priorityClass").asText())
        .isEqualTo("urgent");
    var fromPodTemplate =
        render("kubernetes: {podTemplate: {priorityClassName: batch}}, priority: 900,", Map.of());
    assertThat(
            fromPodTemplate
                .at("/spec/pytorchReplicaSpecs/Worker/template/spec/priorityClassName")
                .asText())
        .isEqualTo("batch");
  }

  @Test
  void withoutRangesNothingIsSet() {
    var cluster = TestJobs.config(TestJobs.ONPREM_A).settings();
    var object = render(cluster, "priority: 900,", Map.of());
    assertThat(
            object
                .at("/spec/pytorchReplicaSpecs/Master/template/spec/priorityClassName")
                .isMissingNode())
        .isTrue();
  }

  @Test
  void theBlockBindsFromYamlAndRefusesBadEntries() throws Exception {
    var yaml = new ObjectMapper(new YAMLFactory());
    List<PriorityClassRange> ranges =
        yaml.readValue(
            "[{min: 800, name: high}, {min: 0, name: low}]",
            yaml.getTypeFactory().constructCollectionType(List.class, PriorityClassRange.class));
    assertThat(ranges)
        .containsExactly(new PriorityClassRange(800, "high"), new PriorityClassRange(0, "low"));
    assertThatThrownBy(() -> new PriorityClassRange(1001, "x"))
        .hasMessageContaining("priorityClasses[].min");
    assertThatThrownBy(() -> new PriorityClassRange(5, "Not A Name"))
        .hasMessageContaining("priorityClasses[].name");
  }

  private static JsonNode render(String extra, Map<String, String> settings) {
    return render(CLUSTER, extra, settings);
  }

  private static JsonNode render(
      ClusterSettings cluster, String extra, Map<String, String> settings) {
    var spec =
        TestJobs.spec(
            "{framework: pytorch, image: i, command: [train], "
                + extra
                + " replicas: {master: 1, worker: 1}}");
    var placement =
        new KubernetesPlacements(cluster, PriceCatalog.embedded())
            .propose(spec)
            .placements()
            .get(0);
    var job =
        new BackendJob(
            "01hzx3kq7v8m2n4p6r8t0w2y4a", 1, "nlp", "bob", "x", spec, "h", placement, settings);
    try {
      return JSON.readTree(
          Serialization.asJson(new KubeflowJobRenderer(cluster).desired(job, placement)));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
