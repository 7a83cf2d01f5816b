package io.trainyard.backend.kubernetes;

import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.TrainingBackend;
import io.trainyard.testkit.MutableClock;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** The backend contract on the kubernetes backend, against the CRUD API server. */
class KubernetesContractIT extends KubernetesBackendContract {
  @TempDir Path dataDir;
  private CrudApiServer cluster;
  private MutableClock clock;
  private KubernetesBackend backend;

  @BeforeEach
  void start() {
    cluster = new CrudApiServer();
    clock = new MutableClock();
    backend =
        KubernetesBackend.create(
            "kubernetes",
            TestJobs.config(TestJobs.AWS_POOLS).settings(),
            cluster.newClient(),
            new BackendContext(PriceCatalog.embedded(), dataDir, clock));
  }

  @AfterEach
  void stop() {
    backend.close();
    cluster.close();
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
