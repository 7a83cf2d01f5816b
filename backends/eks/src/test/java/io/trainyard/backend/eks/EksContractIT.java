package io.trainyard.backend.eks;

import io.trainyard.backend.kubernetes.CrudApiServer;
import io.trainyard.backend.kubernetes.KubernetesBackendContract;
import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.TrainingBackend;
import io.trainyard.testkit.MotoServer;
import io.trainyard.testkit.MutableClock;
import java.net.URI;
import java.nio.file.Path;
import java.time.Clock;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The backend contract on an EKS backend built from its block as in {@link EksBackendIT}: the
 * cluster described by moto, the API server a TLS CRUD server reached with IAM tokens.
 */
@ExtendWith(MotoServer.class)
class EksContractIT extends KubernetesBackendContract {
  @TempDir Path dataDir;
  private final MutableClock clock = new MutableClock();
  private CrudApiServer cluster;
  private TrainingBackend backend;

  @BeforeAll
  static void credentials() {
    MotoEks.useTestCredentials();
  }

  @BeforeEach
  void start() throws Exception {
    cluster = new CrudApiServer(true);
    var clusterName = "ml-" + UUID.randomUUID().toString().substring(0, 8);
    MotoEks.createCluster(clusterName);
    var config = EksConfigTest.read(MotoEks.block("eks-use1", clusterName));
    var factory =
        new EksBackendFactory(
            fromEks ->
                new EksClusterEndpoint(URI.create(cluster.url()), cluster.caCertificateBase64()));
    backend = factory.create(config, new BackendContext(PriceCatalog.embedded(), dataDir, clock));
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
