package io.trainyard.backend.eks;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.OAuthTokenProvider;
import io.trainyard.backend.kubernetes.KubernetesCallSpans;
import io.trainyard.backend.kubernetes.KubernetesClients;
import io.trainyard.spi.BackendException;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.utils.IoUtils;

/**
 * Reaches one EKS cluster: asks {@code DescribeCluster} for its API server and CA, then builds a
 * fabric8 client for them whose every request carries the current IAM token. Nothing of the
 * machine's kubeconfig or {@code KUBERNETES_*} settings is read. Thread-safe.
 */
final class EksClusterConnector implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EksClusterConnector.class);
  private final String clusterName;
  private final String region;
  private final EksClient eks;
  private final OAuthTokenProvider tokens;
  private final UnaryOperator<EksClusterEndpoint> apiServerOverride;
  private final List<AutoCloseable> owned;
  private volatile KubernetesCallSpans spans;

  /**
   * @param apiServerOverride identity, except in tests (see {@link EksBackendFactory})
   * @param owned closed with this connector: the SDK clients and credential providers
   */
  EksClusterConnector(
      String clusterName,
      String region,
      EksClient eks,
      OAuthTokenProvider tokens,
      UnaryOperator<EksClusterEndpoint> apiServerOverride,
      List<AutoCloseable> owned) {
    this.clusterName = Objects.requireNonNull(clusterName, "clusterName");
    this.region = Objects.requireNonNull(region, "region");
    this.eks = Objects.requireNonNull(eks, "eks");
    this.tokens = Objects.requireNonNull(tokens, "tokens");
    this.apiServerOverride = Objects.requireNonNull(apiServerOverride, "apiServerOverride");
    this.owned = List.copyOf(owned);
  }

  /** The cluster client's calls become client spans of the gateway's trace. */
  EksClusterConnector withSpans(KubernetesCallSpans spans) {
    this.spans = spans;
    return this;
  }

  /**
   * The cluster's API server and CA.
   *
   * @throws BackendException.Unauthenticated AWS refused our identity, or there is none
   * @throws BackendException.Retryable the cluster is missing or not ACTIVE, or EKS did not answer
   */
  EksClusterEndpoint describe() {
    var action = "DescribeCluster " + clusterName + " in " + region;
    try {
      var cluster = eks.describeCluster(r -> r.name(clusterName)).cluster();
      return EksClusterEndpoint.of(clusterName, cluster);
    } catch (SdkException e) {
      throw EksErrors.translate(e, action);
    } catch (IllegalStateException e) {
      throw new BackendException.Retryable(e.getMessage(), e);
    }
  }

  /**
   * A client of the cluster's API server. Connecting makes no request to it: the first one goes out
   * when the backend is used.
   *
   * @throws BackendException as {@link #describe()}; also {@code Retryable} when the CA is not a
   *     PEM certificate
   */
  KubernetesClient connect() {
    var endpoint = apiServerOverride.apply(describe());
    try {
      endpoint.checkCertificate(clusterName);
    } catch (IllegalStateException e) {
      throw new BackendException.Retryable(e.getMessage(), e);
    }
    var config =
        new ConfigBuilder(Config.empty())
            .withMasterUrl(endpoint.apiServer().toString())
            .withCaCertData(endpoint.caData())
            .withOauthTokenProvider(tokens)
            .build();
    return KubernetesClients.build(config, spans);
  }

  @Override
  public void close() {
    IoUtils.closeQuietly(eks, LOG);
    for (var resource : owned) {
      IoUtils.closeQuietly(resource, LOG);
    }
  }
}
