package io.trainyard.spi.pricing;

import java.util.List;

/**
 * Current prices from one provider's price API, for the catalog rows in its scope. The caller (the
 * cost module's refresh) applies them to the catalog: rows it was not given stay as they were, and
 * every in-scope row left unpriced is reported.
 *
 * <p>Thread-safety: called from one scheduler thread at a time; calls do network I/O and may take
 * tens of seconds.
 */
public interface PriceFeed extends AutoCloseable {

  /** A short, stable name for logs and health, e.g. {@code azure-retail-prices}. */
  String name();

  /** Whether rows of this provider and service are the feed's to price. */
  boolean covers(String provider, String service);

  /**
   * Prices for {@code wanted}, every key of which the feed {@link #covers}. A key the API has no
   * price for is left out of the answer, or explained in a warning.
   *
   * @throws PriceFeedException the API cannot be reached, refuses, or answers in a format the feed
   *     does not understand; the caller keeps its last good prices
   */
  Answer prices(List<PriceKey> wanted);

  /** Releases the API client; a no-op by default. */
  @Override
  default void close() {}

  /**
   * @param prices a price per key the API priced
   * @param warnings keys it could not price and why, answers it skipped; for logs and health
   */
  record Answer(List<FeedPrice> prices, List<String> warnings) {
    public Answer {
      prices = List.copyOf(prices);
      warnings = List.copyOf(warnings);
    }
  }
}
