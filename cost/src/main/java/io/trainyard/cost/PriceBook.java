package io.trainyard.cost;

import io.trainyard.spi.Placement;
import java.util.Optional;

/** Prices a placement by the hour. Backends never see prices; the router asks this. Thread-safe. */
public interface PriceBook {

  /** The hourly price of the whole placement, or empty when no price is known for part of it. */
  Optional<Price> price(Placement placement);

  /**
   * Prices only what the operator priced in configuration ({@code usdPerHour} of a local backend or
   * an on-prem pool). The catalog-backed book builds on this.
   */
  PriceBook OPERATOR =
      placement ->
          placement.operatorUsdPerHour() == null
              ? Optional.empty()
              : Optional.of(new Price(placement.operatorUsdPerHour(), false, "operator"));
}
