package io.trainyard.backend.eks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.trainyard.testkit.MutableClock;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.sts.model.StsException;

class EksTokenProviderTest {
  private final MutableClock clock =
      new MutableClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));

  private EksTokenProvider provider(AwsCredentialsProvider credentials) {
    var generator =
        new EksTokenGenerator(
            "ml-prod",
            "us-east-1",
            EksTokenGenerator.regionalStsEndpoint("us-east-1"),
            credentials,
            clock);
    return new EksTokenProvider(generator, clock);
  }

  private EksTokenProvider provider() {
    return provider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKID", "secret")));
  }

  @Test
  void aTokenIsSignedNowForTheClusterAndKeptUntilItIsTenMinutesOld() {
    var tokens = provider();

    var first = tokens.getToken();
    var url = PresignedUrl.ofToken(first);
    assertThat(url.url().getHost()).isEqualTo("sts.us-east-1.amazonaws.com");
    assertThat(url.query())
        .containsEntry("Action", "GetCallerIdentity")
        .containsEntry("Version", "2011-06-15")
        .containsEntry("X-Amz-Expires", "60")
        .containsEntry("X-Amz-SignedHeaders", "host;x-k8s-aws-id");
    assertThat(url.signedAt()).isEqualTo(clock.instant());

    clock.advance(Duration.ofMinutes(9).plusSeconds(59));
    assertThat(tokens.getToken()).isEqualTo(first);

    clock.advance(Duration.ofSeconds(1));
    var second = tokens.getToken();
    assertThat(second).isNotEqualTo(first);
    assertThat(PresignedUrl.ofToken(second).signedAt()).isEqualTo(clock.instant());
    assertThat(tokens.getToken()).isEqualTo(second);
  }

  @Test
  void aClockSetBackGetsANewToken() {
    var tokens = provider();
    var first = tokens.getToken();

    clock.advance(Duration.ofMinutes(-5));

    assertThat(tokens.getToken()).isNotEqualTo(first);
  }

  @Test
  void theOverriddenStsEndpointIsWhereTheUrlPoints() {
    var generator =
        new EksTokenGenerator(
            "ml-prod",
            "eu-west-1",
            URI.create("https://vpce-0abc.sts.eu-west-1.vpce.amazonaws.com"),
            StaticCredentialsProvider.create(AwsBasicCredentials.create("AKID", "secret")),
            clock);

    var url = PresignedUrl.ofToken(generator.token());

    assertThat(url.url().getHost()).isEqualTo("vpce-0abc.sts.eu-west-1.vpce.amazonaws.com");
    assertThat(url.query().get("X-Amz-Credential")).contains("/eu-west-1/sts/aws4_request");
  }

  @Test
  void noCredentialsIsARefusedIdentityAndTheMessageCarriesNoToken() {
    AwsCredentialsProvider none =
        () -> {
          throw SdkClientException.create(
              "Unable to load credentials from any of the providers in the chain");
        };

    assertThatThrownBy(() -> provider(none).getToken())
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("could not make an EKS token: Unable to load credentials")
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(401));
  }

  @Test
  void anAssumeRoleRefusalIsARefusedIdentity() {
    AwsCredentialsProvider refused =
        () -> {
          throw StsException.builder()
              .statusCode(403)
              .awsErrorDetails(
                  software.amazon.awssdk.awscore.exception.AwsErrorDetails.builder()
                      .errorCode("AccessDenied")
                      .errorMessage("not authorized to perform sts:AssumeRole")
                      .build())
              .build();
        };

    assertThatThrownBy(() -> provider(refused).getToken())
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(401))
        .hasMessageContaining("AccessDenied: not authorized to perform sts:AssumeRole");
  }

  @Test
  void anUnreachableStsIsNotAnIdentityProblem() {
    AwsCredentialsProvider down =
        () -> {
          throw SdkClientException.create("Unable to execute HTTP request: Connection refused");
        };

    assertThatThrownBy(() -> provider(down).getToken())
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isLessThan(1));
  }
}
