package io.trainyard.cost;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * An hourly price before discounts.
 *
 * @param estimated true when any part had to be estimated (not a published price)
 * @param source where the number comes from, e.g. the operator's configuration or a catalog row's
 *     source
 */
public record Price(BigDecimal usdPerHour, boolean estimated, String source) {
  /** The source of a price the operator set in a backend's configuration. */
  public static final String OPERATOR_SOURCE = "set by the operator in the backend's configuration";

  public Price {
    Objects.requireNonNull(usdPerHour, "usdPerHour");
    if (usdPerHour.signum() < 0) {
      throw new IllegalArgumentException("a price cannot be negative");
    }
  }
}
