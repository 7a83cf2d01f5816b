package io.trainyard.backend.gke;

import io.fabric8.kubernetes.api.model.Config;
import io.fabric8.kubernetes.api.model.NamedCluster;
import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Where a GKE cluster's API server is and which CA vouches for it: from the block's {@code
 * endpoint} and {@code caCertificate}, or from a kubeconfig's cluster entry. A kubeconfig's user
 * entry is ignored: a GKE backend always authenticates with its own Google credentials, and never
 * runs the kubeconfig's {@code exec} plugin.
 *
 * @param serverUrl {@code https://host[:port]}
 * @param caCertificate base64 of the CA's PEM, as fabric8's {@code caCertData} takes it
 */
public record GkeEndpoint(String serverUrl, String caCertificate) {
  private static final String PEM_BEGIN = "-----BEGIN CERTIFICATE-----";

  public GkeEndpoint {
    Objects.requireNonNull(serverUrl, "serverUrl");
    Objects.requireNonNull(caCertificate, "caCertificate");
  }

  /**
   * The endpoint of a block: from {@code endpoint} and {@code caCertificate}, or read from its
   * kubeconfig.
   *
   * @throws IllegalArgumentException naming the field or the kubeconfig that is wrong
   */
  static GkeEndpoint of(GkeConfig config) {
    if (config.endpoint() != null) {
      return new GkeEndpoint(
          config.serverUrl(), checkCaCertificate(config.caCertificate(), "caCertificate"));
    }
    return fromKubeconfig(config.kubeconfigPath(), config.context());
  }

  /**
   * An endpoint as GKE gives it (an IP address or host, maybe with a port) or as an {@code
   * https://} URL, in URL form.
   *
   * @throws IllegalArgumentException naming {@code endpoint}
   */
  static String serverUrl(String endpoint) {
    var text = endpoint.strip();
    var scheme = text.indexOf("://");
    if (scheme >= 0 && !text.substring(0, scheme).toLowerCase(Locale.ROOT).equals("https")) {
      throw new IllegalArgumentException(
          "endpoint must be https (a GKE API server speaks only TLS): " + endpoint);
    }
    URI uri;
    try {
      uri = new URI(scheme >= 0 ? text : "https://" + text);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("endpoint is not a host or https URL: " + endpoint, e);
    }
    if (uri.getHost() == null
        || uri.getRawUserInfo() != null
        || uri.getRawQuery() != null
        || uri.getRawFragment() != null
        || !(uri.getRawPath() == null
            || uri.getRawPath().isEmpty()
            || uri.getRawPath().equals("/"))) {
      throw new IllegalArgumentException(
          "endpoint must be a host, host:port or https://host[:port]: " + endpoint);
    }
    return "https://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
  }

  /**
   * Checks that {@code base64Pem} is base64 of at least one PEM certificate.
   *
   * @param field the field named in the error
   * @return the value as plain base64 (line breaks dropped)
   * @throws IllegalArgumentException naming {@code field}
   */
  static String checkCaCertificate(String base64Pem, String field) {
    byte[] pem;
    try {
      pem = Base64.getMimeDecoder().decode(base64Pem.strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          field + " is not base64 (give clusterCaCertificate as GKE returns it)", e);
    }
    if (!new String(pem, StandardCharsets.US_ASCII).contains(PEM_BEGIN)) {
      throw new IllegalArgumentException(
          field + " does not decode to a PEM certificate (" + PEM_BEGIN + ")");
    }
    try {
      var certificates =
          CertificateFactory.getInstance("X.509")
              .generateCertificates(new ByteArrayInputStream(pem));
      if (certificates.isEmpty()) {
        throw new IllegalArgumentException(field + " holds no certificate");
      }
    } catch (CertificateException e) {
      throw new IllegalArgumentException(
          field + " is not a readable X.509 certificate: " + e.getMessage(), e);
    }
    return Base64.getEncoder().encodeToString(pem);
  }

  /**
   * The server and CA of a kubeconfig's context ({@code context}, else its current context).
   *
   * @throws IllegalArgumentException the file cannot be read, lacks the context, or its cluster has
   *     no CA or skips TLS verification
   */
  static GkeEndpoint fromKubeconfig(Path path, String context) {
    if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
      throw new IllegalArgumentException("kubeconfig " + path + " cannot be read");
    }
    Config kubeconfig;
    try (var in = Files.newInputStream(path)) {
      kubeconfig = Serialization.unmarshal(in, Config.class);
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("kubeconfig " + path + " is not a kubeconfig", e);
    }
    if (kubeconfig == null) {
      throw new IllegalArgumentException("kubeconfig " + path + " is empty");
    }
    var name = context != null ? context : kubeconfig.getCurrentContext();
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException(
          "kubeconfig " + path + " has no current-context; set context");
    }
    var contexts =
        kubeconfig.getContexts() == null ? List.<NamedContext>of() : kubeconfig.getContexts();
    var named =
        contexts.stream()
            .filter(c -> name.equals(c.getName()))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "kubeconfig "
                            + path
                            + " has no context "
                            + name
                            + " (it has "
                            + String.join(
                                ", ", contexts.stream().map(NamedContext::getName).toList())
                            + ")"));
    var clusterName = named.getContext() == null ? null : named.getContext().getCluster();
    var clusters =
        kubeconfig.getClusters() == null ? List.<NamedCluster>of() : kubeconfig.getClusters();
    var cluster =
        clusters.stream()
            .filter(c -> Objects.equals(clusterName, c.getName()) && c.getCluster() != null)
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "kubeconfig "
                            + path
                            + ": context "
                            + name
                            + " names cluster "
                            + clusterName
                            + ", which the file does not define"))
            .getCluster();
    var where = "kubeconfig " + path + ", cluster " + clusterName;
    if (cluster.getServer() == null || cluster.getServer().isBlank()) {
      throw new IllegalArgumentException(where + " has no server");
    }
    if (Boolean.TRUE.equals(cluster.getInsecureSkipTlsVerify())) {
      throw new IllegalArgumentException(
          where + " skips TLS verification; a GKE backend always verifies the cluster's CA");
    }
    String server;
    try {
      server = serverUrl(cluster.getServer());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + ": server " + e.getMessage(), e);
    }
    String ca;
    if (cluster.getCertificateAuthorityData() != null) {
      ca =
          checkCaCertificate(
              cluster.getCertificateAuthorityData(), where + ": certificate-authority-data");
    } else if (cluster.getCertificateAuthority() != null) {
      ca = caFile(path, cluster.getCertificateAuthority(), where);
    } else {
      throw new IllegalArgumentException(
          where + " names no certificate-authority-data or certificate-authority");
    }
    return new GkeEndpoint(server, ca);
  }

  // A relative certificate-authority path is relative to the kubeconfig, as kubectl reads it.
  private static String caFile(Path kubeconfig, String file, String where) {
    var base = kubeconfig.toAbsolutePath().getParent();
    var ca = base == null ? Path.of(file) : base.resolve(file);
    byte[] pem;
    try {
      pem = Files.readAllBytes(ca);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          where + ": certificate-authority " + ca + " cannot be read");
    }
    return checkCaCertificate(
        Base64.getEncoder().encodeToString(pem), where + ": certificate-authority " + ca);
  }
}
