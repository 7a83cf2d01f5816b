package io.trainyard.cost.refresh;

import io.trainyard.cost.PriceCatalog;
import io.trainyard.cost.PriceRow;
import io.trainyard.spi.pricing.FeedPrice;
import io.trainyard.spi.pricing.PriceFeed;
import io.trainyard.spi.pricing.PriceFeedException;
import io.trainyard.spi.pricing.PriceKey;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A backend module's {@link PriceFeed} as a {@link PriceRefresher}: asks the feed for the catalog
 * rows it covers and applies the answer under the refresher contract (every row kept in place, an
 * in-scope row left unpriced explained by a warning, a refresh that priced nothing changes
 * nothing).
 */
final class FeedRefresher implements PriceRefresher {
  private final PriceFeed feed;
  private final Clock clock;

  FeedRefresher(PriceFeed feed, Clock clock) {
    this.feed = Objects.requireNonNull(feed, "feed");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public String name() {
    return feed.name();
  }

  @Override
  public RefreshResult refresh(PriceCatalog current) {
    var update =
        new CatalogUpdate(
            current, feed.name(), LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC));
    // By identity: the catalog is the list of rows; two equal records would still be two rows.
    var inScope = new IdentityHashMap<PriceRow, PriceKey>();
    for (var row : current.rows()) {
      if (feed.covers(row.provider(), row.service())) {
        inScope.put(row, key(row));
      }
    }
    if (inScope.isEmpty()) {
      update.warn(feed.name() + ": the catalog has no rows this feed prices");
      return update.result();
    }
    var wanted = new LinkedHashSet<>(inScope.values());
    PriceFeed.Answer answer;
    try {
      answer = feed.prices(List.copyOf(wanted));
    } catch (PriceFeedException e) {
      throw new PriceRefreshException(
          PriceRefreshErrorCode.API_REFUSED, feed.name() + ": " + e.getMessage(), e);
    }
    Map<PriceKey, FeedPrice> byKey = new HashMap<>();
    for (var price : answer.prices()) {
      if (!wanted.contains(price.key())) {
        update.warn(feed.name() + ": ignored a price for " + price.key() + ", not asked for");
      } else if (byKey.putIfAbsent(price.key(), price) != null) {
        update.warn(feed.name() + ": " + price.key() + " priced twice; kept the first");
      }
    }
    for (var entry : inScope.entrySet()) {
      var price = byKey.get(entry.getValue());
      if (price == null) {
        update.warn(entry.getValue() + ": kept, " + feed.name() + " gave no price for it");
      } else {
        update.update(
            entry.getKey(), price.onDemandUsdPerHour(), price.spotUsdPerHour(), price.source());
      }
    }
    update.warnAll(answer.warnings());
    return update.result();
  }

  @Override
  public void close() {
    feed.close();
  }

  private static PriceKey key(PriceRow row) {
    return row.kind() == PriceRow.Kind.INSTANCE
        ? PriceKey.instance(row.provider(), row.service(), row.region(), row.instanceType())
        : new PriceKey(row.provider(), row.service(), row.region(), null, row.gpuType());
  }
}
