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
import java.util.Locale;
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

  /**
   * The pod's own configuration. The token and CA files are where the kubelet mounts them, unless
   * fabric8's own settings move them — the system properties {@value
   * Config#KUBERNETES_AUTH_SERVICEACCOUNT_TOKEN_FILE_SYSTEM_PROPERTY} and {@value
   * Config#KUBERNETES_CA_CERTIFICATE_FILE_SYSTEM_PROPERTY}, or the environment variables {@code
   * KUBERNETES_AUTH_SERVICEACCOUNT_TOKEN} and {@code KUBERNETES_CERTS_CA_FILE} — as fabric8's own
   * in-cluster configuration honours them; the namespace file sits beside the token.
   */
  static Config fromPod() {
    var env = System.getenv();
    var token =
        setting(
            env,
            Config.KUBERNETES_AUTH_SERVICEACCOUNT_TOKEN_FILE_SYSTEM_PROPERTY,
            SERVICE_ACCOUNT.resolve("token"));
    var ca =
        setting(
            env,
            Config.KUBERNETES_CA_CERTIFICATE_FILE_SYSTEM_PROPERTY,
            SERVICE_ACCOUNT.resolve("ca.crt"));
    return from(env, token, ca, token.resolveSibling("namespace"));
  }

  /** fabric8's convention: a system property, else the environment variable of the same name. */
  private static Path setting(Map<String, String> env, String property, Path fallback) {
    var value = System.getProperty(property);
    if (value == null || value.isBlank()) {
      value = env.get(property.toUpperCase(Locale.ROOT).replace('.', '_'));
    }
    return value == null || value.isBlank() ? fallback : Path.of(value);
  }

  /**
   * @param env the pod's environment
   * @param serviceAccount the directory with {@code token}, {@code ca.crt} (and {@code namespace})
   * @throws IllegalArgumentException when this is not a pod: no service host, or no token
   */
  static Config from(Map<String, String> env, Path serviceAccount) {
    return from(
        env,
        serviceAccount.resolve("token"),
        serviceAccount.resolve("ca.crt"),
        serviceAccount.resolve("namespace"));
  }

  /**
   * @param env the pod's environment
   * @param token the projected service-account token
   * @param ca the cluster's CA certificate (used when readable)
   * @param namespace the pod's namespace file (used when readable)
   */
  static Config from(Map<String, String> env, Path token, Path ca, Path namespace) {
    var host = env.get("KUBERNETES_SERVICE_HOST");
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException(
          "inCluster: true, but KUBERNETES_SERVICE_HOST is not set: the gateway is not running in"
              + " a pod (give a kubeconfig instead)");
    }
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
    if (Files.isReadable(ca)) {
      builder.withCaCertFile(ca.toString());
    }
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
