package io.trainyard.backend.azureml;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Azure client spans are named by resource type, never by the names in the path. */
class AzureMlCallSpansTest {
  private static final String WORKSPACE =
      "/subscriptions/s1/resourceGroups/rg/providers/Microsoft.MachineLearningServices"
          + "/workspaces/ws";

  @ParameterizedTest
  @CsvSource({
    "/jobs/ty-01-a1, jobs",
    "/jobs, jobs",
    "/jobs/ty-01-a1/cancel, cancel",
    "/computes/gpu-cluster, computes",
  })
  void namesAnArmCallByItsResourceType(String tail, String resource) {
    assertThat(AzureMlCallSpans.resource(WORKSPACE + tail)).isEqualTo(resource);
  }

  @ParameterizedTest
  @CsvSource({"/azureml/ExperimentRun/dcid.x/user_logs/std_log.txt, blob", "/, /"})
  void namesABlobCallAsBlob(String path, String resource) {
    assertThat(AzureMlCallSpans.resource(path)).isEqualTo(resource);
  }
}
