package io.trainyard.backend.gke;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The server and CA a kubeconfig gives a GKE backend, and what it refuses. */
class GkeEndpointTest {
  private static final String CA = GkeConfigTest.CA;

  @TempDir Path dir;

  /** A kubeconfig as {@code gcloud container clusters get-credentials} writes it. */
  private String gcloudKubeconfig(String clusterFields) {
    return """
        apiVersion: v1
        kind: Config
        clusters:
          - name: gke_ml-prod_us-central1_train
            cluster: {%s}
          - name: other
            cluster: {server: "https://10.0.0.1", certificate-authority-data: "%s"}
        users:
          - name: gke_ml-prod_us-central1_train
            user:
              exec: {apiVersion: client.authentication.k8s.io/v1beta1, command: gke-gcloud-auth-plugin}
        contexts:
          - name: gke_ml-prod_us-central1_train
            context: {cluster: gke_ml-prod_us-central1_train, user: gke_ml-prod_us-central1_train}
          - name: other
            context: {cluster: other, user: gke_ml-prod_us-central1_train}
        current-context: gke_ml-prod_us-central1_train
        """
        .formatted(clusterFields, CA);
  }

  @Test
  void theCurrentContextsClusterGivesServerAndCa() throws IOException {
    var file =
        write(
            gcloudKubeconfig(
                "server: \"https://34.118.0.10\", certificate-authority-data: \"" + CA + "\""));

    assertThat(GkeEndpoint.fromKubeconfig(file, null))
        .isEqualTo(new GkeEndpoint("https://34.118.0.10", CA));
    assertThat(GkeEndpoint.fromKubeconfig(file, "other"))
        .isEqualTo(new GkeEndpoint("https://10.0.0.1", CA));
  }

  @Test
  void aCaFileIsReadRelativeToTheKubeconfig() throws IOException {
    Files.write(dir.resolve("ca.crt"), TestCertificates.pem());
    var file =
        write(gcloudKubeconfig("server: \"https://34.118.0.10\", certificate-authority: ca.crt"));

    assertThat(GkeEndpoint.fromKubeconfig(file, null).caCertificate())
        .isEqualTo(Base64.getEncoder().encodeToString(TestCertificates.pem()));
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "server: \"https://34.118.0.10\" | names no certificate-authority-data or certificate-authority",
        "server: \"https://34.118.0.10\", insecure-skip-tls-verify: true | skips TLS verification",
        "server: \"http://34.118.0.10\", certificate-authority-data: CA | server endpoint must be https",
        "certificate-authority-data: CA | has no server",
        "server: \"https://34.118.0.10\", certificate-authority-data: aGVsbG8= | certificate-authority-data does not decode to a PEM certificate",
        "server: \"https://34.118.0.10\", certificate-authority: missing.crt | certificate-authority",
      })
  void aClusterEntryAGkeBackendCannotTrustIsRefused(String fields, String problem)
      throws IOException {
    var file = write(gcloudKubeconfig(fields.replace("CA", CA)));

    assertThatThrownBy(() -> GkeEndpoint.fromKubeconfig(file, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("kubeconfig " + file + ", cluster gke_ml-prod_us-central1_train")
        .hasMessageContaining(problem);
  }

  @Test
  void aContextTheKubeconfigLacksIsNamedWithTheOnesItHas() throws IOException {
    var file =
        write(
            gcloudKubeconfig(
                "server: \"https://34.118.0.10\", certificate-authority-data: \"" + CA + "\""));

    assertThatThrownBy(() -> GkeEndpoint.fromKubeconfig(file, "gke_typo"))
        .hasMessage(
            "kubeconfig "
                + file
                + " has no context gke_typo (it has gke_ml-prod_us-central1_train, other)");
  }

  @Test
  void aKubeconfigWithoutCurrentContextNeedsOne() throws IOException {
    var file =
        write(
            gcloudKubeconfig(
                    "server: \"https://34.118.0.10\", certificate-authority-data: \"" + CA + "\"")
                .replace("current-context: gke_ml-prod_us-central1_train\n", ""));

    assertThatThrownBy(() -> GkeEndpoint.fromKubeconfig(file, null))
        .hasMessage("kubeconfig " + file + " has no current-context; set context");
  }

  @Test
  void aKubeconfigThatCannotBeReadIsNamed() {
    var file = dir.resolve("missing.kubeconfig");
    assertThatThrownBy(() -> GkeEndpoint.fromKubeconfig(file, null))
        .hasMessage("kubeconfig " + file + " cannot be read");
  }

  private Path write(String text) throws IOException {
    return Files.writeString(dir.resolve("gke.kubeconfig"), text);
  }
}
