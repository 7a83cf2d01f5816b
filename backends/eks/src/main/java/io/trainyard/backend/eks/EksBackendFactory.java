package io.trainyard.backend.eks;

import io.trainyard.backend.kubernetes.KubernetesCallSpans;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendFactory;
import io.trainyard.spi.TrainingBackend;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.http.apache.ApacheHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.eks.EksClient;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;

/**
 * Creates {@code type: eks} backends; registered for {@link java.util.ServiceLoader}. Builds the
 * SDK clients and the token provider; no request is made until the backend is used.
 */
public final class EksBackendFactory implements BackendFactory<EksConfig> {
  public static final String KIND = "eks";

  private final UnaryOperator<EksClusterEndpoint> apiServerOverride;

  /** The factory {@link java.util.ServiceLoader} makes: the API server is where EKS says it is. */
  public EksBackendFactory() {
    this(UnaryOperator.identity());
  }

  /**
   * Tests only, and on purpose not reachable from a configuration block: moto answers {@code
   * DescribeCluster} with a fake endpoint and a random CA, so a test swaps in a local API server
   * (and its certificate) after the real lookup. Everything else (DescribeCluster, credentials,
   * token, TLS trust of the CA handed over) runs as in production.
   */
  EksBackendFactory(UnaryOperator<EksClusterEndpoint> apiServerOverride) {
    this.apiServerOverride = Objects.requireNonNull(apiServerOverride, "apiServerOverride");
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public Class<EksConfig> configClass() {
    return EksConfig.class;
  }

  @Override
  public TrainingBackend create(EksConfig config, BackendContext context) {
    var owned = new ArrayList<AutoCloseable>();
    var credentials = credentials(config, owned);
    var eks = EksClient.builder().httpClientBuilder(ApacheHttpClient.builder());
    eks.region(Region.of(config.region())).credentialsProvider(credentials);
    config.eksEndpointUri().ifPresent(eks::endpointOverride);
    var sts =
        config
            .stsEndpointUri()
            .orElseGet(() -> EksTokenGenerator.regionalStsEndpoint(config.region()));
    var generator =
        new EksTokenGenerator(
            config.clusterName(), config.region(), sts, credentials, context.clock());
    var connector =
        new EksClusterConnector(
            config.clusterName(),
            config.region(),
            eks.build(),
            new EksTokenProvider(generator, context.clock()),
            apiServerOverride,
            owned);
    connector.withSpans(new KubernetesCallSpans(context.openTelemetry(), KIND, config.id()));
    return new EksBackend(config.settings(), context, connector);
  }

  /**
   * The default chain's identity, or the block's role assumed with it. The SDK's provider renews
   * the role's session credentials before they expire.
   *
   * @param owned collects what must be closed with the backend
   */
  static AwsCredentialsProvider credentials(EksConfig config, List<AutoCloseable> owned) {
    var chain = DefaultCredentialsProvider.builder().build();
    owned.add(chain);
    if (config.roleArn() == null) {
      return chain;
    }
    var sts =
        StsClient.builder()
            .httpClientBuilder(ApacheHttpClient.builder())
            .region(Region.of(config.region()))
            .credentialsProvider(chain);
    config.stsEndpointUri().ifPresent(sts::endpointOverride);
    var stsClient = sts.build();
    var assumed =
        StsAssumeRoleCredentialsProvider.builder()
            .stsClient(stsClient)
            .refreshRequest(
                r -> r.roleArn(config.roleArn()).roleSessionName(config.roleSessionName()))
            .build();
    // The provider before its client: it must stop refreshing before the client goes.
    owned.add(assumed);
    owned.add(stsClient);
    return assumed;
  }
}
