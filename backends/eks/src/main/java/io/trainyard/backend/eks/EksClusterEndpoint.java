package io.trainyard.backend.eks;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.Base64;
import java.util.Objects;
import software.amazon.awssdk.services.eks.model.Cluster;
import software.amazon.awssdk.services.eks.model.ClusterStatus;

/**
 * Where a cluster's API server is and which CA signs its serving certificate, as {@code
 * DescribeCluster} tells it.
 *
 * @param apiServer the API server's URL, e.g. {@code https://ABC.gr7.us-east-1.eks.amazonaws.com}
 * @param caData the cluster CA, base64 of PEM, as DescribeCluster and kubeconfig carry it
 */
record EksClusterEndpoint(URI apiServer, String caData) {

  EksClusterEndpoint {
    Objects.requireNonNull(apiServer, "apiServer");
    Objects.requireNonNull(caData, "caData");
  }

  /**
   * The endpoint of a described cluster that can take requests.
   *
   * @throws IllegalStateException the cluster is not {@code ACTIVE}, or lacks an endpoint or a CA;
   *     the message says which. Whether the CA is a certificate is {@link #checkCertificate}'s
   *     business.
   */
  static EksClusterEndpoint of(String name, Cluster cluster) {
    var status = cluster.status();
    // UPDATING clusters serve requests (a version or config update is under way); CREATING,
    // DELETING, FAILED and PENDING ones do not, or not yet.
    if (status != ClusterStatus.ACTIVE && status != ClusterStatus.UPDATING) {
      throw new IllegalStateException(
          "EKS cluster " + name + " is " + cluster.statusAsString() + ", not ACTIVE");
    }
    var endpoint = cluster.endpoint();
    if (endpoint == null || endpoint.isBlank()) {
      throw new IllegalStateException("EKS cluster " + name + " has no API server endpoint");
    }
    URI uri;
    try {
      uri = URI.create(endpoint);
    } catch (IllegalArgumentException e) {
      throw new IllegalStateException(
          "EKS cluster " + name + ": its endpoint '" + endpoint + "' is not a URL", e);
    }
    if (!"https".equals(uri.getScheme()) || uri.getHost() == null) {
      throw new IllegalStateException(
          "EKS cluster " + name + ": its endpoint '" + endpoint + "' is not an https URL");
    }
    var ca = cluster.certificateAuthority() == null ? null : cluster.certificateAuthority().data();
    if (ca == null || ca.isBlank()) {
      throw new IllegalStateException("EKS cluster " + name + " has no certificate authority");
    }
    return new EksClusterEndpoint(uri, ca);
  }

  /** Refuses CA data that is not a PEM certificate, before the client would fail on it later. */
  void checkCertificate(String name) {
    try {
      var pem = Base64.getMimeDecoder().decode(caData);
      var certificates =
          CertificateFactory.getInstance("X.509")
              .generateCertificates(new ByteArrayInputStream(pem));
      if (certificates.isEmpty()) {
        throw new CertificateException("no certificate");
      }
    } catch (IllegalArgumentException | CertificateException e) {
      throw new IllegalStateException(
          "EKS cluster " + name + ": its certificate authority is not a base64 PEM certificate", e);
    }
  }
}
