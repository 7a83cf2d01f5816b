package io.trainyard.backend.gke;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.trainyard.backend.kubernetes.KubernetesBackend;
import io.trainyard.backend.kubernetes.KubernetesCallSpans;
import io.trainyard.backend.kubernetes.KubernetesClients;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendFactory;
import io.trainyard.spi.TrainingBackend;

/**
 * Creates {@code type: gke} backends; registered for {@link java.util.ServiceLoader}. A GKE backend
 * is a {@link KubernetesBackend} whose client reaches the cluster's endpoint, trusts only the
 * cluster's CA and carries a Google access token ({@link GkeTokenProvider}) on every request.
 */
public final class GkeBackendFactory implements BackendFactory<GkeConfig> {
  public static final String KIND = "gke";

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public Class<GkeConfig> configClass() {
    return GkeConfig.class;
  }

  /**
   * Reads the block's files (kubeconfig, key file) and resolves its credentials now, so a broken
   * setup fails at start. A block that names its cluster only by project and name has it looked up
   * through the GKE API now too ({@link GkeClusterLookup}), with the token the client will then
   * use; otherwise no request reaches the cluster or Google until the backend is used.
   *
   * @throws IllegalArgumentException a file cannot be read or is not what the block says, or the
   *     cluster does not exist
   * @throws io.trainyard.spi.BackendException.Retryable the GKE API cannot be reached or the
   *     cluster is not running: the gateway starts without this backend and retries
   * @throws io.trainyard.spi.BackendException.Unauthenticated Google refused the credentials
   */
  @Override
  public TrainingBackend create(GkeConfig config, BackendContext context) {
    var given = config.looksUpCluster() ? null : GkeEndpoint.of(config);
    var tokens =
        new GkeTokenProvider(
            config.id(),
            GkeCredentials.of(config),
            context.clock(),
            GkeTokenProvider.DEFAULT_REFRESH_MARGIN);
    var endpoint = given != null ? given : GkeClusterLookup.endpoint(config, tokens::getToken);
    var spans = new KubernetesCallSpans(context.openTelemetry(), KIND, config.id());
    return KubernetesBackend.create(
        KIND, config.settings(), client(endpoint, tokens, spans), context);
  }

  static KubernetesClient client(GkeEndpoint endpoint, GkeTokenProvider tokens) {
    return client(endpoint, tokens, null);
  }

  /**
   * A client of exactly this endpoint: built from an empty configuration, so nothing of the gateway
   * host's own kubeconfig, service account or {@code KUBERNETES_*} environment leaks in.
   */
  static KubernetesClient client(
      GkeEndpoint endpoint, GkeTokenProvider tokens, KubernetesCallSpans spans) {
    Config config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl(endpoint.serverUrl())
            .withCaCertData(endpoint.caCertificate())
            .withOauthTokenProvider(tokens)
            .build();
    return KubernetesClients.build(config, spans);
  }
}
