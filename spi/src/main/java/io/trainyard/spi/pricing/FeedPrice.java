package io.trainyard.spi.pricing;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * A row's price as the API gave it.
 *
 * @param onDemandUsdPerHour the on-demand (pay-as-you-go) price, positive
 * @param spotUsdPerHour the spot (low-priority, preemptible) price, or null when the API gave none:
 *     the row's spot price is kept then
 * @param source what the price is, e.g. {@code azure-retail-prices-api meterId=...}; the refresh
 *     adds the date
 */
public record FeedPrice(
    PriceKey key, BigDecimal onDemandUsdPerHour, BigDecimal spotUsdPerHour, String source) {
  public FeedPrice {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(onDemandUsdPerHour, "onDemandUsdPerHour");
    Objects.requireNonNull(source, "source");
    if (onDemandUsdPerHour.signum() <= 0
        || (spotUsdPerHour != null && spotUsdPerHour.signum() <= 0)) {
      throw new IllegalArgumentException(key + ": prices must be positive");
    }
  }
}
