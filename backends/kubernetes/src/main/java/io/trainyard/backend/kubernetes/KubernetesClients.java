package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

/**
 * Builds every cluster client the Kubernetes backends use (kubeconfig, EKS, GKE), with the same
 * bounded retries. fabric8 retries a 5xx or a broken connection ten times with doubling pauses by
 * default: about 20 s (measured through a proxy answering 503) during which the reconciler's lane
 * for that backend waits and the job looks stuck. The gateway retries and fails over itself, with
 * the backend's health in view, so the client tries three times within about a second.
 */
public final class KubernetesClients {
  static final int RETRIES = 2;
  static final int FIRST_RETRY_PAUSE_MS = 250;

  private KubernetesClients() {}

  public static KubernetesClient build(Config config) {
    return build(config, null);
  }

  /**
   * A client whose calls become client spans of the gateway's trace ({@link KubernetesCallSpans});
   * {@code spans} null: none.
   */
  public static KubernetesClient build(Config config, KubernetesCallSpans spans) {
    config.setRequestRetryBackoffLimit(RETRIES);
    config.setRequestRetryBackoffInterval(FIRST_RETRY_PAUSE_MS);
    var builder = new KubernetesClientBuilder().withConfig(config);
    if (spans != null) {
      builder.withHttpClientBuilderConsumer(
          http -> http.addOrReplaceInterceptor(KubernetesCallSpans.NAME, spans));
    }
    return builder.build();
  }
}
