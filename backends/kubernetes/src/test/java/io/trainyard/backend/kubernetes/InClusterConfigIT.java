package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code inCluster: true} as a pod sees it: the API server from the pod's environment, the CA and
 * the projected token from a service-account directory (here a temporary one, beside fabric8's API
 * server over TLS). A rotated token is sent from the next request on; outside a pod the block fails
 * at start, saying why, instead of reaching for {@code ~/.kube/config}.
 */
class InClusterConfigIT {
  @Test
  void usesThePodsServiceAccountAndPicksUpARotatedToken(@TempDir Path account) throws Exception {
    try (var server = new CrudApiServer(true)) {
      Files.write(
          account.resolve("ca.crt"), Base64.getDecoder().decode(server.caCertificateBase64()));
      Files.writeString(account.resolve("namespace"), "trainyard\n");
      var token = account.resolve("token");
      Files.writeString(token, "first-token\n");
      var url = URI.create(server.url());
      var env =
          Map.of(
              "KUBERNETES_SERVICE_HOST", url.getHost(),
              "KUBERNETES_SERVICE_PORT", Integer.toString(url.getPort()));

      var config = InClusterConfig.from(env, account);
      assertThat(config.getNamespace()).isEqualTo("trainyard");
      try (var client = KubernetesClients.build(config)) {
        client.pods().inNamespace("nlp-jobs").list();
        // The kubelet writes the new token; the file's time moves on.
        Files.writeString(token, "second-token\n");
        Files.setLastModifiedTime(token, FileTime.from(Instant.now().plusSeconds(5)));
        client.pods().inNamespace("nlp-jobs").list();
      }
      assertThat(server.authorizations())
          .containsExactly("Bearer first-token", "Bearer second-token");
    }
  }

  @Test
  void outsideAPodItSaysSoInsteadOfUsingAnotherConfig(@TempDir Path account) throws Exception {
    assertThatThrownBy(() -> InClusterConfig.from(Map.of(), account))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("KUBERNETES_SERVICE_HOST is not set");
    assertThatThrownBy(
            () -> InClusterConfig.from(Map.of("KUBERNETES_SERVICE_HOST", "10.0.0.1"), account))
        .hasMessageContaining("token cannot be read");
    assertThatThrownBy(
            () ->
                TestJobs.config(
                    "type: kubernetes\nid: k\nregion: r\ninCluster: true\n"
                        + "kubeconfig: /etc/kube.conf\n"))
        .hasMessageContaining("inCluster: true uses the pod's service account");
  }
}
