package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendFactory;
import io.trainyard.spi.TrainingBackend;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Creates {@code type: kubernetes} backends; registered for {@link java.util.ServiceLoader}. */
public final class KubernetesBackendFactory implements BackendFactory<KubernetesConfig> {
  public static final String KIND = "kubernetes";

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public Class<KubernetesConfig> configClass() {
    return KubernetesConfig.class;
  }

  /** Connects lazily: no request is made until the backend is used. */
  @Override
  public TrainingBackend create(KubernetesConfig config, BackendContext context) {
    var spans = new KubernetesCallSpans(context.openTelemetry(), KIND, config.id());
    return KubernetesBackend.create(KIND, config.settings(), client(config, spans), context);
  }

  static KubernetesClient client(KubernetesConfig config) {
    return client(config, null);
  }

  /**
   * A client for the pod's own service account ({@code inCluster: true}, {@link InClusterConfig}),
   * the block's kubeconfig (and context), or, without either, the client's own discovery:
   * in-cluster service account, then {@code $KUBECONFIG} / {@code ~/.kube/config}.
   *
   * @throws IllegalArgumentException the kubeconfig cannot be read or lacks the context, or {@code
   *     inCluster} is set outside a pod
   */
  static KubernetesClient client(KubernetesConfig config, KubernetesCallSpans spans) {
    Config clientConfig;
    var path = config.kubeconfigPath();
    if (config.inCluster()) {
      clientConfig = InClusterConfig.fromPod();
    } else if (path == null) {
      clientConfig = Config.autoConfigure(config.context());
    } else {
      if (!Files.isReadable(path)) {
        throw new IllegalArgumentException("kubeconfig " + path + " cannot be read");
      }
      try {
        requireContext(path, config.context());
        clientConfig = Config.fromKubeconfig(config.context(), path.toFile());
      } catch (RuntimeException e) {
        throw new IllegalArgumentException("kubeconfig " + path + ": " + e.getMessage(), e);
      }
    }
    return KubernetesClients.build(clientConfig, spans);
  }

  // The client falls back to its defaults (localhost) for a context the file lacks: a typo would
  // point the backend at another cluster, so it is refused here.
  private static void requireContext(Path path, String context) {
    if (context == null) {
      return;
    }
    io.fabric8.kubernetes.api.model.Config kubeconfig;
    try (var in = Files.newInputStream(path)) {
      kubeconfig = Serialization.unmarshal(in, io.fabric8.kubernetes.api.model.Config.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    var names =
        kubeconfig.getContexts() == null
            ? List.<String>of()
            : kubeconfig.getContexts().stream().map(NamedContext::getName).toList();
    if (!names.contains(context)) {
      throw new IllegalArgumentException(
          "has no context " + context + " (it has " + String.join(", ", names) + ")");
    }
  }
}
