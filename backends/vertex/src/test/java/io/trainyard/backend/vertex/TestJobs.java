package io.trainyard.backend.vertex;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.Placement;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.testkit.TestSpecs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/** Specs and config blocks for tests, read from YAML the way the gateway reads them. */
final class TestJobs {
  static final ObjectMapper YAML = TestSpecs.YAML;

  /** A GPU job with every field Vertex maps. */
  static final String FULL_SPEC =
      """
      framework: pytorch
      image: us-docker.pkg.dev/ml-prod/train/bert:1.4
      command: [python, train.py]
      args: [--epochs, "1"]
      env: {HF_DATASETS_OFFLINE: "1"}
      resources: {gpus: 8, gpuType: nvidia-a100-40gb, cpus: 8, memory: 64Gi}
      replicas: {master: 1, worker: 2}
      maxRuntime: 6h
      checkpoint: {uri: gs://ml-ckpt/bert/}
      inputs: [{name: train-data, uri: gs://ml-data/imdb/}]
      output: {uri: gs://ml-out/bert/}
      """;

  private TestJobs() {}

  static JobSpec spec(String specYaml) {
    return TestSpecs.spec(specYaml);
  }

  static VertexConfig config(String yaml) {
    try {
      return YAML.readValue(yaml, VertexConfig.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A backend block for the fake JobService: plaintext, no credentials. */
  static VertexConfig localConfig(String endpoint, String extraYaml) {
    return config(
        """
        type: vertex
        id: vx-test
        region: us-central1
        project: ml-prod
        endpoint: %s
        plaintext: true
        """
                .formatted(endpoint)
            + extraYaml);
  }

  static BackendJob job(JobSpec spec, Placement placement) {
    return job(newJobId(), spec, "ab".repeat(32), placement);
  }

  static BackendJob job(String jobId, JobSpec spec, String specHash, Placement placement) {
    return new BackendJob(
        jobId, 1, "NLP Team", "alice@example.com", "bert", spec, specHash, placement, Map.of());
  }

  /** A random lower-case ULID-shaped id. */
  static String newJobId() {
    return TestSpecs.newJobId();
  }
}
