package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

/** The factory reaches a cluster through a kubeconfig file, as an operator configures it. */
class KubernetesBackendFactoryIT extends CrudServerTest {

  @Test
  void theFactoryIsFoundByKindAndConnectsThroughTheKubeconfigsContext() throws Exception {
    var factory =
        ServiceLoader.load(BackendFactory.class).stream()
            .map(ServiceLoader.Provider::get)
            .filter(f -> f.kind().equals("kubernetes"))
            .findFirst()
            .orElseThrow();
    assertThat(factory.configClass()).isEqualTo(KubernetesConfig.class);

    var kubeconfig = kubeconfig(dataDir.resolve("onprem-a.kubeconfig"));
    var config =
        TestJobs.config(TestJobs.AWS_POOLS + "kubeconfig: " + kubeconfig + "\ncontext: onprem-a\n");
    try (var backend =
        new KubernetesBackendFactory()
            .create(config, new BackendContext(PriceCatalog.embedded(), dataDir, clock))) {
      assertThat(backend.health().healthy()).isTrue();
      assertThat(backend.id()).isEqualTo("k8s-use1");
      assertThat(backend.kind()).isEqualTo("kubernetes");
      var spec = TestJobs.spec(SPEC);
      var ref = backend.submit(TestJobs.job(spec, backend.placements(spec).placements().get(0)));
      assertThat(operator.get(Attempt.of(ref))).isNotNull();
    }
  }

  @Test
  void aRefusedCredentialMakesTheBackendUnhealthy() {
    cluster.clearExpectations();
    cluster
        .expect()
        .get()
        .withPath("/version")
        .andReturn(401, CrudApiServer.status(401, "Unauthorized", "Unauthorized"))
        .always();
    var health = backend.health();
    assertThat(health.healthy()).isFalse();
    assertThat(health.message()).startsWith("credentials refused: GET /version: Unauthorized");
  }

  @Test
  void aKubeconfigThatCannotBeReadIsAConfigurationError() {
    var config =
        TestJobs.config(TestJobs.AWS_POOLS + "kubeconfig: " + dataDir.resolve("missing") + "\n");
    var context = new BackendContext(PriceCatalog.embedded(), dataDir, clock);
    assertThatThrownBy(() -> new KubernetesBackendFactory().create(config, context))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("cannot be read");
  }

  @Test
  void aContextTheKubeconfigLacksIsAConfigurationError() throws Exception {
    var kubeconfig = kubeconfig(dataDir.resolve("k.kubeconfig"));
    var config =
        TestJobs.config(TestJobs.AWS_POOLS + "kubeconfig: " + kubeconfig + "\ncontext: nope\n");
    var context = new BackendContext(PriceCatalog.embedded(), dataDir, clock);
    assertThatThrownBy(() -> new KubernetesBackendFactory().create(config, context))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("nope");
  }

  private Path kubeconfig(Path file) throws Exception {
    Files.writeString(
        file,
        """
        apiVersion: v1
        kind: Config
        clusters:
          - name: mock
            cluster: {server: "%s"}
        users:
          - name: gateway
            user: {token: not-a-real-token}
        contexts:
          - name: other
            context: {cluster: nowhere, user: gateway}
          - name: onprem-a
            context: {cluster: mock, user: gateway, namespace: default}
        current-context: other
        """
            .formatted(cluster.url()));
    return file;
  }
}
