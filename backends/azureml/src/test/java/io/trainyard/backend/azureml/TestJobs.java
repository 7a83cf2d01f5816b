package io.trainyard.backend.azureml;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.InstanceShapes;
import io.trainyard.spi.Placement;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.JobSpecValidator;
import io.trainyard.spi.spec.TrainingJob;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/** Specs, config blocks and backends for tests, read from YAML the way the gateway reads them. */
public final class TestJobs {
  static final ObjectMapper YAML =
      new ObjectMapper(new YAMLFactory())
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

  private TestJobs() {}

  /** A valid spec from the body of {@code spec:}; checked by the validator. */
  public static JobSpec spec(String specYaml) {
    var yaml =
        "apiVersion: trainyard.io/v1\nkind: TrainingJob\nmetadata: {name: test}\nspec:\n"
            + specYaml.lines().map(l -> "  " + l).reduce("", (a, b) -> a + b + "\n");
    try {
      var job = YAML.readValue(yaml, TrainingJob.class);
      assertThat(new JobSpecValidator().validate(job)).as("spec errors").isEmpty();
      return job.spec();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static AzureMlConfig config(String yaml) {
    try {
      return YAML.readValue(yaml, AzureMlConfig.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A serverless block in eastus without endpoints: for pure tests. */
  static AzureMlConfig serverless(String extraYaml) {
    return config(
        """
        type: azureml
        id: aml
        region: eastus
        subscriptionId: 00000000-0000-0000-0000-000000000001
        resourceGroup: ml
        workspace: trainyard-ws
        storageAccount: trainyardws
        """
            + extraYaml);
  }

  /** A block for {@code fake}: a service principal, the fake's endpoints, fast polls. */
  public static AzureMlConfig fakeConfig(AzureMlFake fake, String extraYaml) {
    return config(
        "type: azureml\nid: aml-test\nregion: eastus\nlogPollInterval: 100ms\n"
            + fake.configYaml()
            + extraYaml);
  }

  /** A backend against {@code fake}, with its HTTP client trusting the fake's certificate. */
  public static AzureMlBackend backend(AzureMlFake fake, String extraYaml) {
    var context = new BackendContext(InstanceShapes.NONE, Path.of("target"), Clock.systemUTC());
    return AzureMlBackendFactory.create(
        fakeConfig(fake, extraYaml), context, AzureMlFake.httpClient());
  }

  public static BackendJob job(JobSpec spec, Placement placement) {
    return job(newJobId(), spec, "hash-1", placement);
  }

  public static BackendJob job(String jobId, JobSpec spec, String specHash, Placement placement) {
    return new BackendJob(
        jobId, 1, "nlp", "alice@example.com", "bert", spec, specHash, placement, Map.of());
  }

  /** A random lower-case ULID-shaped id. */
  public static String newJobId() {
    var chars = "0123456789abcdefghjkmnpqrstvwxyz";
    var id = new StringBuilder("01");
    for (int i = 0; i < 24; i++) {
      id.append(chars.charAt(ThreadLocalRandom.current().nextInt(chars.length())));
    }
    return id.toString();
  }

  /** A GPU job with every field Azure ML maps. */
  public static final String FULL_SPEC =
      """
      framework: pytorch
      image: myregistry.azurecr.io/bert:1.4
      command: [python, train.py]
      args: [--epochs, "1", --note, "it's fine"]
      env: {HF_DATASETS_OFFLINE: "1"}
      resources: {gpus: 1, gpuType: nvidia-a100-80gb, cpus: 8, memory: 64Gi}
      replicas: {master: 1, worker: 2}
      processesPerReplica: 1
      maxRuntime: 6h
      checkpoint: {uri: "azureml://datastores/ckpt/paths/bert/"}
      inputs: [{name: train, uri: "https://mldata.blob.core.windows.net/imdb/train/"}, {name: vocab, uri: "azureml://datastores/data/paths/vocab.txt"}]
      output: {uri: "azureml://datastores/out/paths/bert/"}
      """;
}
