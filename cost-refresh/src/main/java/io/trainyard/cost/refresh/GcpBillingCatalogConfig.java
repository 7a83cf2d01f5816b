package io.trainyard.cost.refresh;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import io.trainyard.spi.pricing.PriceFeedConfig;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where and as whom to ask the Cloud Billing Catalog API ({@code services.skus.list}). The catalog
 * is public: an API key is enough; a service-account (or other Google credentials) file works too.
 *
 * @param endpoint the API's base URI; null for {@code https://cloudbilling.googleapis.com}
 * @param apiKey sent as the {@code key} query parameter
 * @param credentialsFile a Google credentials JSON file, used when there is no API key
 * @param timeout per HTTP request; null for 60 seconds (a page holds up to 5000 SKUs)
 */
// Its own block under pricing.refresh.aws/gcp has no type: of its own (as a source, it has one).
@JsonTypeInfo(use = JsonTypeInfo.Id.NONE)
public record GcpBillingCatalogConfig(
    URI endpoint, String apiKey, Path credentialsFile, Duration timeout)
    implements PriceFeedConfig {
  public static final URI DEFAULT_ENDPOINT = URI.create("https://cloudbilling.googleapis.com");

  public GcpBillingCatalogConfig {
    endpoint = endpoint == null ? DEFAULT_ENDPOINT : endpoint;
    apiKey = apiKey == null || apiKey.isBlank() ? null : apiKey;
    if (apiKey == null && credentialsFile == null) {
      throw new IllegalArgumentException(
          "the Billing Catalog needs an apiKey or a credentialsFile");
    }
    timeout = timeout == null ? Duration.ofSeconds(60) : timeout;
  }

  public static GcpBillingCatalogConfig withApiKey(String apiKey) {
    return new GcpBillingCatalogConfig(null, apiKey, null, null);
  }

  @Override
  public String toString() {
    return "GcpBillingCatalogConfig[endpoint="
        + endpoint
        + ", apiKey="
        + (apiKey == null ? null : "***")
        + ", credentialsFile="
        + credentialsFile
        + ", timeout="
        + timeout
        + "]";
  }
}
