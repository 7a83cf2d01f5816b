package io.trainyard.backend.azureml;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonTypeName;
import io.trainyard.spi.pricing.PriceFeedConfig;
import java.net.URI;
import java.time.Duration;

/**
 * The {@code type: azure-retail} block under {@code pricing.refresh.sources}: the public Azure
 * Retail Prices API, which needs no credentials.
 *
 * <pre>{@code
 * - type: azure-retail
 *   endpoint: https://prices.azure.com/api/retail/prices   # default; tests point it elsewhere
 *   currency: USD                                          # the only one the catalog holds
 *   timeout: 30s
 * }</pre>
 */
@JsonTypeName(AzureRetailPriceFeedFactory.TYPE)
public record AzureRetailConfig(String endpoint, String currency, Duration timeout)
    implements PriceFeedConfig {
  static final String DEFAULT_ENDPOINT = "https://prices.azure.com/api/retail/prices";

  public AzureRetailConfig {
    endpoint = endpoint == null || endpoint.isBlank() ? DEFAULT_ENDPOINT : endpoint;
    currency = currency == null || currency.isBlank() ? "USD" : currency;
    timeout = timeout == null ? Duration.ofSeconds(30) : timeout;
    try {
      var uri = URI.create(endpoint);
      if (uri.getScheme() == null
          || !(uri.getScheme().equals("https") || uri.getScheme().equals("http"))
          || uri.getHost() == null) {
        throw new IllegalArgumentException("needs an http(s) URL with a host");
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("endpoint: '" + endpoint + "': " + e.getMessage(), e);
    }
    if (!currency.equals("USD")) {
      throw new IllegalArgumentException(
          "currency must be USD: the price catalog holds USD prices only");
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive");
    }
  }

  @JsonCreator
  static AzureRetailConfig bind(
      @JsonProperty("endpoint") String endpoint,
      @JsonProperty("currency") String currency,
      @JsonProperty("timeout") String timeout) {
    return new AzureRetailConfig(
        endpoint, currency, timeout == null ? null : parseTimeout(timeout));
  }

  private static Duration parseTimeout(String text) {
    try {
      return io.trainyard.spi.spec.Quantities.duration(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("timeout: " + e.getMessage(), e);
    }
  }
}
