package io.trainyard.backend.eks;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.Objects;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4FamilyHttpSigner;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;
import software.amazon.awssdk.regions.Region;

/**
 * Makes the bearer token EKS accepts for an IAM identity, the way {@code aws eks get-token} and
 * aws-iam-authenticator make it: an STS {@code GetCallerIdentity} request, presigned with SigV4 in
 * the query string ({@code X-Amz-Expires=60}) with the header {@code x-k8s-aws-id: <cluster>}
 * signed too, so the token is good for that cluster only; the token is {@code k8s-aws-v1.} followed
 * by the presigned URL in unpadded base64url. The cluster's authenticator redeems the URL at STS
 * and maps the identity STS answers with (an access entry or {@code aws-auth}).
 *
 * <p>No request is made here: presigning is local. The credentials are resolved on each call, so a
 * refreshing provider (an assumed role) hands over fresh ones. Thread-safe.
 */
final class EksTokenGenerator {
  /** The prefix every EKS IAM token carries. */
  static final String PREFIX = "k8s-aws-v1.";

  /** The header that binds a token to one cluster. */
  static final String CLUSTER_HEADER = "x-k8s-aws-id";

  // What aws-iam-authenticator and `aws eks get-token` put in the URL: the authenticator
  // rejects a presigned URL that lives longer.
  private static final Duration URL_EXPIRES = Duration.ofSeconds(60);

  private final String clusterName;
  private final String region;
  private final URI stsEndpoint;
  private final AwsCredentialsProvider credentials;
  private final Clock clock;
  private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();

  /**
   * @param stsEndpoint where the URL points: the region's STS endpoint, or the block's override
   * @param clock the signing time comes from here
   */
  EksTokenGenerator(
      String clusterName,
      String region,
      URI stsEndpoint,
      AwsCredentialsProvider credentials,
      Clock clock) {
    this.clusterName = Objects.requireNonNull(clusterName, "clusterName");
    this.region = Objects.requireNonNull(region, "region");
    this.stsEndpoint = Objects.requireNonNull(stsEndpoint, "stsEndpoint");
    this.credentials = Objects.requireNonNull(credentials, "credentials");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The region's public STS endpoint, as the CLI uses: {@code https://sts.<region>.<domain>}. */
  static URI regionalStsEndpoint(String region) {
    var metadata = Region.of(region).metadata();
    var domain = metadata == null ? "amazonaws.com" : metadata.domain();
    return URI.create("https://sts." + region + "." + domain);
  }

  /** A new token, signed now. */
  String token() {
    var url = presignedUrl().getBytes(StandardCharsets.UTF_8);
    return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(url);
  }

  /** The presigned {@code GetCallerIdentity} URL inside a token, signed now. */
  String presignedUrl() {
    var request =
        SdkHttpRequest.builder()
            .method(SdkHttpMethod.GET)
            .uri(stsEndpoint)
            .encodedPath("/")
            .putRawQueryParameter("Action", "GetCallerIdentity")
            .putRawQueryParameter("Version", "2011-06-15")
            .putHeader(CLUSTER_HEADER, clusterName)
            .build();
    var identity = credentials.resolveCredentials();
    var signed =
        signer.sign(
            r ->
                r.identity(identity)
                    .request(request)
                    .putProperty(AwsV4FamilyHttpSigner.SERVICE_SIGNING_NAME, "sts")
                    .putProperty(AwsV4HttpSigner.REGION_NAME, region)
                    .putProperty(
                        AwsV4FamilyHttpSigner.AUTH_LOCATION,
                        AwsV4FamilyHttpSigner.AuthLocation.QUERY_STRING)
                    .putProperty(AwsV4FamilyHttpSigner.EXPIRATION_DURATION, URL_EXPIRES)
                    .putProperty(HttpSigner.SIGNING_CLOCK, clock));
    return signed.request().getUri().toString();
  }
}
