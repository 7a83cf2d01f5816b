package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.OAuthTokenProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Map;

/**
 * The client configuration of a gateway running in a pod of the cluster it fronts ({@code
 * inCluster: true}): the API server the pod's environment names ({@code KUBERNETES_SERVICE_HOST},
 * {@code KUBERNETES_SERVICE_PORT}), the service account's CA and token from its mounted directory —
 * and nothing else: no kubeconfig, no fall-back to {@code ~/.kube/config}, which on a developer's
 * machine would point the backend at whatever cluster that file names.
 *
 * <p>The token is the kubelet-rotated projected one (bound service-account tokens live an hour by
 * default): it is read again whenever the file changes, so a rotated token is used from the next
 * request on. The token is never logged.
 */
final class InClusterConfig {
  /** Where the kubelet mounts a pod's service account. */
  static final Path SERVICE_ACCOUNT = Path.of("/var/run/secrets/kubernetes.io/serviceaccount");

  private InClusterConfig() {}

  /** The pod's own configuration. */
  static Config fromPod() {
    return from(System.getenv(), SERVICE_ACCOUNT);
  }

  /**
   * @param env the pod's environment
   * @param serviceAccount the directory with {@code token}, {@code ca.crt} (and {@code namespace})
   * @throws IllegalArgumentException when this is not a pod: no service host, or no token
   */
  static Config from(Map<String, String> env, Path serviceAccount) {
    var host = env.get("KUBERNETES_SERVICE_HOST");
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException(
          "inCluster: true, but KUBERNETES_SERVICE_HOST is not set: the gateway is not running in"
              + " a pod (give a kubeconfig instead)");
    }
    var token = serviceAccount.resolve("token");
    if (!Files.isReadable(token)) {
      throw new IllegalArgumentException(
          "inCluster: true, but "
              + token
              + " cannot be read: the pod mounts no service account"
              + " token (automountServiceAccountToken: false?)");
    }
    var port = env.getOrDefault("KUBERNETES_SERVICE_PORT", "443");
    var builder =
        new ConfigBuilder(Config.empty())
            .withMasterUrl("https://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port)
            .withOauthTokenProvider(new RotatingToken(token));
    var ca = serviceAccount.resolve("ca.crt");
    if (Files.isReadable(ca)) {
      builder.withCaCertFile(ca.toString());
    }
    var namespace = serviceAccount.resolve("namespace");
    if (Files.isReadable(namespace)) {
      builder.withNamespace(read(namespace).trim());
    }
    return builder.build();
  }

  /** The token file's content, read again when the file's modification time changes. */
  static final class RotatingToken implements OAuthTokenProvider {
    private final Path file;
    private FileTime readAt;
    private String token;

    RotatingToken(Path file) {
      this.file = file;
    }

    @Override
    public synchronized String getToken() {
      try {
        var modified = Files.getLastModifiedTime(file);
        if (token == null || !modified.equals(readAt)) {
          token = read(file).trim();
          readAt = modified;
        }
      } catch (IOException e) {
        // Keep the last token: the kubelet swaps the file through a symlink, briefly absent.
        if (token == null) {
          throw new UncheckedIOException("service account token " + file, e);
        }
      }
      return token;
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
