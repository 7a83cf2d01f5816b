package io.trainyard.cost.refresh;

import io.trainyard.cost.PriceCatalog;

/**
 * Re-prices the catalog rows one price API knows about.
 *
 * <p>Contract: the returned catalog has every row of {@code current}, in the same order; rows the
 * refresher could price are replaced (new hourly price, {@code source} naming the API and the
 * date), every other row is kept as it was, and each in-scope row that was kept is explained by a
 * warning. The catalog's {@code asOf} becomes the refresh date when at least one row changed. A
 * refresher never changes a row's shape (vCPUs, memory, GPUs).
 *
 * <p>Thread-safety: implementations are safe to call from one scheduler thread at a time; calls do
 * network I/O and may take tens of seconds. Idempotent: refreshing twice against the same API
 * answer gives the same prices.
 */
public interface PriceRefresher extends AutoCloseable {
  /** A short, stable name for logs and health, e.g. {@code aws-price-list}. */
  String name();

  /**
   * @throws PriceRefreshException when the API cannot be reached, refuses, or answers in a format
   *     it does not understand; the caller keeps its last good catalog
   */
  RefreshResult refresh(PriceCatalog current);

  /** Releases the API client; a no-op by default. */
  @Override
  default void close() {}
}
