package io.trainyard.cost.refresh;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.trainyard.spi.pricing.PriceFeedConfig;
import java.net.URI;

/**
 * Where and as whom to ask the AWS Price List Query API.
 *
 * @param region the Price List API's own region: {@code us-east-1} (default), {@code eu-central-1}
 *     or {@code ap-south-1}; prices of every region are served from each
 * @param endpoint overrides the API endpoint (tests); null for AWS's
 * @param accessKeyId with {@code secretAccessKey}: static credentials; both null for the SDK's
 *     default chain (environment, profile, container or instance role)
 */
// Its own block under pricing.refresh.aws/gcp has no type: of its own (as a source, it has one).
@JsonTypeInfo(use = JsonTypeInfo.Id.NONE)
public record AwsPriceListConfig(
    String region, URI endpoint, String accessKeyId, String secretAccessKey)
    implements PriceFeedConfig {
  public static final String DEFAULT_REGION = "us-east-1";

  public AwsPriceListConfig {
    region = region == null || region.isBlank() ? DEFAULT_REGION : region;
    if ((accessKeyId == null) != (secretAccessKey == null)) {
      throw new IllegalArgumentException("accessKeyId and secretAccessKey are set together");
    }
  }

  /** AWS's endpoint in {@link #DEFAULT_REGION}, with the SDK's default credentials. */
  public static AwsPriceListConfig defaults() {
    return new AwsPriceListConfig(null, null, null, null);
  }

  @Override
  public String toString() {
    return "AwsPriceListConfig[region="
        + region
        + ", endpoint="
        + endpoint
        + ", accessKeyId="
        + accessKeyId
        + ", secretAccessKey="
        + (secretAccessKey == null ? null : "***")
        + "]";
  }
}
