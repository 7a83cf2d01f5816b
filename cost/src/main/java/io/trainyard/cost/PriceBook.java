package io.trainyard.cost;

import io.trainyard.spi.Placement;

/** Prices a placement by the hour. Backends never see prices; the router asks this. Thread-safe. */
public interface PriceBook {

  /** The hourly price of the whole placement, or why no price is known for part of it. */
  Priced price(Placement placement);

  /** When the prices were compiled or refreshed, shown in every quote; null when unknown. */
  default java.time.LocalDate asOf() {
    return null;
  }

  /** A price, or the reason there is none. Exactly one of the two is set. */
  record Priced(Price price, String missing) {
    public static Priced of(Price price) {
      return new Priced(price, null);
    }

    public static Priced missing(String why) {
      return new Priced(null, why);
    }
  }

  /**
   * Prices only what the operator priced in configuration ({@code usdPerHour} of a local backend or
   * an on-prem cluster).
   */
  PriceBook OPERATOR =
      placement ->
          placement.operatorUsdPerHour() == null
              ? Priced.missing("no operator price for " + Lines.describe(placement))
              : Priced.of(new Price(placement.operatorUsdPerHour(), false, Price.OPERATOR_SOURCE));
}
