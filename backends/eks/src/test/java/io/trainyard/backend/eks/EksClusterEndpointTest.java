package io.trainyard.backend.eks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.net.SelfSignedCertificate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.eks.model.Cluster;
import software.amazon.awssdk.services.eks.model.ClusterStatus;

class EksClusterEndpointTest {
  private static final String ENDPOINT = "https://ABCDEF.gr7.us-east-1.eks.amazonaws.com";

  static String pemCa() throws Exception {
    var certificate = SelfSignedCertificate.create("eks-ca");
    try {
      var pem = Files.readAllBytes(Path.of(certificate.certificatePath()));
      return Base64.getEncoder().encodeToString(pem);
    } finally {
      certificate.delete();
    }
  }

  static Cluster cluster(ClusterStatus status, String endpoint, String ca) {
    return Cluster.builder()
        .name("ml-prod")
        .status(status)
        .endpoint(endpoint)
        .certificateAuthority(c -> c.data(ca))
        .build();
  }

  @Test
  void anActiveClusterGivesItsEndpointAndCa() throws Exception {
    var ca = pemCa();
    var endpoint = EksClusterEndpoint.of("ml-prod", cluster(ClusterStatus.ACTIVE, ENDPOINT, ca));

    assertThat(endpoint.apiServer()).hasToString(ENDPOINT);
    assertThat(endpoint.caData()).isEqualTo(ca);
    endpoint.checkCertificate("ml-prod");
  }

  @ParameterizedTest
  @EnumSource(
      value = ClusterStatus.class,
      names = {"CREATING", "DELETING", "FAILED", "PENDING"})
  void aClusterThatIsNotActiveIsRefusedSayingItsStatus(ClusterStatus status) {
    assertThatThrownBy(() -> EksClusterEndpoint.of("ml-prod", cluster(status, ENDPOINT, "x")))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("EKS cluster ml-prod is " + status + ", not ACTIVE");
  }

  @Test
  void anUpdatingClusterStillServes() {
    assertThat(EksClusterEndpoint.of("ml-prod", cluster(ClusterStatus.UPDATING, ENDPOINT, "x")))
        .isNotNull();
  }

  @Test
  void aClusterWithoutEndpointOrCaIsRefused() {
    assertThatThrownBy(
            () -> EksClusterEndpoint.of("ml-prod", cluster(ClusterStatus.ACTIVE, null, "x")))
        .hasMessage("EKS cluster ml-prod has no API server endpoint");
    assertThatThrownBy(
            () ->
                EksClusterEndpoint.of(
                    "ml-prod", cluster(ClusterStatus.ACTIVE, "http://plain.example.com", "x")))
        .hasMessageContaining("is not an https URL");
    assertThatThrownBy(
            () -> EksClusterEndpoint.of("ml-prod", cluster(ClusterStatus.ACTIVE, ENDPOINT, null)))
        .hasMessage("EKS cluster ml-prod has no certificate authority");
  }

  @Test
  void caDataThatIsNotAPemCertificateIsRefused() {
    // What moto hands out: 1400 random letters.
    var random = "Zm9v".repeat(350);
    var endpoint =
        EksClusterEndpoint.of("ml-prod", cluster(ClusterStatus.ACTIVE, ENDPOINT, random));

    assertThatThrownBy(() -> endpoint.checkCertificate("ml-prod"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "EKS cluster ml-prod: its certificate authority is not a base64 PEM certificate");
  }
}
