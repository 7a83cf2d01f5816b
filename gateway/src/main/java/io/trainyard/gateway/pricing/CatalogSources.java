package io.trainyard.gateway.pricing;

import io.trainyard.cost.refresh.PriceRefresher;
import java.util.List;
import java.util.stream.Collectors;

/** Where the gateway's prices come from, in words for {@code GET /v1/backends}. */
public final class CatalogSources {
  private CatalogSources() {}

  public static String describe(List<PriceRefresher> refreshers) {
    if (refreshers.isEmpty()) {
      return "embedded catalog";
    }
    return "embedded catalog, refreshed by "
        + refreshers.stream().map(PriceRefresher::name).collect(Collectors.joining(", "));
  }
}
