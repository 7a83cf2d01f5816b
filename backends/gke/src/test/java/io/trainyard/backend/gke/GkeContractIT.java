package io.trainyard.backend.gke;

import io.trainyard.backend.kubernetes.CrudApiServer;
import io.trainyard.backend.kubernetes.KubernetesBackendContract;
import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.BackendConfig;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.TrainingBackend;
import io.trainyard.testkit.MutableClock;
import io.trainyard.testkit.TestSpecs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backend contract on a GKE backend built from its block as in {@link GkeBackendIT}: a TLS CRUD
 * server at the configured endpoint, reached with access tokens from the local Google token
 * endpoint.
 */
class GkeContractIT extends KubernetesBackendContract {
  @TempDir Path dir;
  private final MutableClock clock = new MutableClock();
  private FakeGoogleTokenEndpoint google;
  private CrudApiServer cluster;
  private TrainingBackend backend;

  @BeforeEach
  void start() {
    google = new FakeGoogleTokenEndpoint();
    cluster = new CrudApiServer(true);
    var keyFile = google.writeKey(dir.resolve("trainyard-gke.json"));
    var yaml =
        """
        type: gke
        id: gke-usc1
        region: us-central1
        project: ml-prod
        cluster: train
        credentialsFile: %s
        endpoint: %s
        caCertificate: %s
        nodePools:
          - {name: t4, instanceType: n1-standard-8, accelerator: {gpuType: nvidia-t4, gpus: 1}, maxNodes: 10}
        """
            .formatted(keyFile, cluster.url(), cluster.caCertificateBase64());
    try {
      var mapper = TestSpecs.YAML.copy();
      mapper.registerSubtypes(GkeConfig.class);
      var config = (GkeConfig) mapper.readValue(yaml, BackendConfig.class);
      backend =
          new GkeBackendFactory()
              .create(config, new BackendContext(PriceCatalog.embedded(), dir, clock));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @AfterEach
  void stop() {
    backend.close();
    cluster.close();
    google.close();
  }

  /** The cluster's only pool has T4s. */
  @Override
  protected String jobSpec() {
    return """
        framework: pytorch
        image: registry.example.com/bert:1.4
        command: [python, train.py]
        resources: {gpus: 1, gpuType: nvidia-t4, cpus: 4, memory: 16Gi}
        replicas: {master: 1}
        """;
  }

  @Override
  protected TrainingBackend backend() {
    return backend;
  }

  @Override
  protected CrudApiServer cluster() {
    return cluster;
  }

  @Override
  protected Clock clock() {
    return clock;
  }
}
