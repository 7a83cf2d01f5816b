package io.trainyard.backend.eks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.backend.kubernetes.TestJobs;
import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendException;
import io.trainyard.testkit.MotoServer;
import io.trainyard.testkit.MutableClock;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sts.StsClient;

/** DescribeCluster, AssumeRole and the token's STS request against moto, through the real SDK. */
@ExtendWith(MotoServer.class)
class EksMotoIT {
  @TempDir Path dataDir;
  private final MutableClock clock = new MutableClock();

  @BeforeAll
  static void credentials() {
    MotoEks.useTestCredentials();
  }

  private BackendContext context() {
    return new BackendContext(PriceCatalog.embedded(), dataDir, clock);
  }

  private static String name() {
    return "ml-" + UUID.randomUUID().toString().substring(0, 8);
  }

  private EksClusterConnector connector(EksConfig config) {
    var owned = new ArrayList<AutoCloseable>();
    var credentials = EksBackendFactory.credentials(config, owned);
    var eks =
        software.amazon.awssdk.services.eks.EksClient.builder()
            .region(software.amazon.awssdk.regions.Region.of(config.region()))
            .endpointOverride(config.eksEndpointUri().orElseThrow())
            .credentialsProvider(credentials)
            .build();
    var generator =
        new EksTokenGenerator(
            config.clusterName(),
            config.region(),
            config.stsEndpointUri().orElseThrow(),
            credentials,
            clock);
    return new EksClusterConnector(
        config.clusterName(),
        config.region(),
        eks,
        new EksTokenProvider(generator, clock),
        e -> e,
        owned);
  }

  @Test
  void describeClusterGivesWhatEksSays() throws Exception {
    var name = name();
    var created = MotoEks.createCluster(name);
    var config = EksConfigTest.read(MotoEks.block("eks-moto", name));

    try (var connector = connector(config)) {
      var endpoint = connector.describe();

      assertThat(endpoint.apiServer()).isEqualTo(URI.create(created.endpoint()));
      assertThat(endpoint.caData()).isEqualTo(created.certificateAuthority().data());
    }
  }

  @Test
  void aMissingClusterIsNamedAndRetryable() throws Exception {
    var config = EksConfigTest.read(MotoEks.block("eks-moto", "no-such-cluster"));

    try (var connector = connector(config)) {
      assertThatThrownBy(connector::describe)
          .isInstanceOf(BackendException.Retryable.class)
          .hasMessage(
              "DescribeCluster no-such-cluster in us-east-1: no such cluster"
                  + " (ResourceNotFoundException)");
    }
  }

  @Test
  void aBackendOfAMissingClusterStartsAndIsUnhealthySayingWhy() throws Exception {
    var config = EksConfigTest.read(MotoEks.block("eks-moto", "no-such-cluster"));

    try (var backend = new EksBackendFactory().create(config, context())) {
      var health = backend.health();
      assertThat(health.healthy()).isFalse();
      assertThat(health.message())
          .isEqualTo(
              "unreachable: DescribeCluster no-such-cluster in us-east-1: no such cluster"
                  + " (ResourceNotFoundException)");
      var proposals =
          backend.placements(
              TestJobs.spec(
                  "framework: pytorch\nimage: i\ncommand: [python, t.py]\nresources: {cpus: 4, memory: 16Gi}\nreplicas: {master: 1}\n"));
      assertThat(proposals.placements()).isEmpty();
      assertThat(proposals.rejections().get(0).reason()).startsWith("cluster not reachable: ");
    }
  }

  @Test
  void motosCaIsRefusedClearly() throws Exception {
    var name = name();
    MotoEks.createCluster(name);
    var config = EksConfigTest.read(MotoEks.block("eks-moto", name));

    try (var connector = connector(config)) {
      assertThatThrownBy(connector::connect)
          .isInstanceOf(BackendException.Retryable.class)
          .hasMessage(
              "EKS cluster "
                  + name
                  + ": its certificate authority is not a base64 PEM certificate");
    }
  }

  /**
   * With {@code roleArn} the token is signed by the role's session: its credential is the key
   * AssumeRole issued, and STS (asked with the SDK, since moto cannot route a query-signed GET)
   * names that key's identity the assumed role. moto checks no signature; the signature itself is
   * checked against the CLI in {@link EksTokenCliIT}.
   */
  @Test
  void withARoleTheTokenIsSignedByTheAssumedRole() throws Exception {
    var name = name();
    var config =
        EksConfigTest.read(
            MotoEks.block("eks-moto", name)
                + "roleArn: arn:aws:iam::123456789012:role/trainyard-eks\n");
    var owned = new ArrayList<AutoCloseable>();
    var credentials = EksBackendFactory.credentials(config, owned);
    try (var sts =
        StsClient.builder()
            .region(Region.of(config.region()))
            .endpointOverride(config.stsEndpointUri().orElseThrow())
            .credentialsProvider(credentials)
            .build()) {
      var url =
          PresignedUrl.ofToken(
              new EksTokenGenerator(
                      name,
                      config.region(),
                      config.stsEndpointUri().orElseThrow(),
                      credentials,
                      clock)
                  .token());
      var session = (AwsSessionCredentials) credentials.resolveCredentials();

      assertThat(url.query().get("X-Amz-Credential")).startsWith(session.accessKeyId() + "/");
      assertThat(url.query()).containsEntry("X-Amz-Security-Token", session.sessionToken());
      assertThat(sts.getCallerIdentity().arn())
          .isEqualTo("arn:aws:sts::123456789012:assumed-role/trainyard-eks/trainyard-eks-moto");
    } finally {
      for (var c : owned) {
        c.close();
      }
    }
  }
}
