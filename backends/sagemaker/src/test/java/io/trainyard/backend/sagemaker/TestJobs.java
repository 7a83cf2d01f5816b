package io.trainyard.backend.sagemaker;

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

  private TestJobs() {}

  /** A valid spec from the body of {@code spec:}; checked by the validator. */
  static JobSpec spec(String specYaml) {
    return TestSpecs.spec(specYaml);
  }

  static SageMakerConfig config(String yaml) {
    try {
      return YAML.readValue(yaml, SageMakerConfig.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A backend block for a local server: static credentials, one attempt per call, fast polls. */
  static SageMakerConfig localConfig(String endpoint, String extraYaml) {
    return config(
        """
        type: sagemaker
        id: sm-test
        region: us-east-1
        roleArn: arn:aws:iam::123456789012:role/trainyard
        outputPath: s3://ml-out/trainyard/
        endpoint: %s
        accessKeyId: test
        secretAccessKey: test
        maxAttempts: 1
        """
                .formatted(endpoint)
            + extraYaml);
  }

  static BackendJob job(JobSpec spec, Placement placement) {
    return job(newJobId(), spec, "hash-1", placement);
  }

  static BackendJob job(String jobId, JobSpec spec, String specHash, Placement placement) {
    return new BackendJob(
        jobId, 1, "nlp", "alice@example.com", "bert", spec, specHash, placement, Map.of());
  }

  /** A random lower-case ULID-shaped id. */
  static String newJobId() {
    return TestSpecs.newJobId();
  }

  /** A GPU job with every field SageMaker maps. */
  static final String FULL_SPEC =
      """
      framework: pytorch
      image: 123456789012.dkr.ecr.us-east-1.amazonaws.com/bert:1.4
      command: [python, train.py]
      args: [--epochs, "1"]
      env: {HF_DATASETS_OFFLINE: "1"}
      resources: {gpus: 1, gpuType: nvidia-a10g, cpus: 4, memory: 16Gi}
      replicas: {master: 1, worker: 2}
      maxRuntime: 6h
      maxRestarts: 2
      checkpoint: {uri: s3://ml-ckpt/bert/}
      inputs: [{name: train, uri: s3://ml-data/imdb/train/}, {name: test, uri: s3://ml-data/imdb/test/}]
      output: {uri: s3://ml-out/bert/}
      """;
}
