package io.trainyard.gateway.pricing;

import io.trainyard.cost.refresh.AwsPriceListRefresher;
import io.trainyard.cost.refresh.GcpBillingCatalogRefresher;
import io.trainyard.cost.refresh.PriceRefresher;
import io.trainyard.gateway.config.PricingConfig;
import java.util.ArrayList;
import java.util.List;

/** The refreshers a configuration asks for: one per provider block present. */
public final class PriceRefreshers {
  private PriceRefreshers() {}

  public static List<PriceRefresher> from(PricingConfig.Refresh refresh) {
    var list = new ArrayList<PriceRefresher>();
    if (refresh.aws() != null) {
      list.add(new AwsPriceListRefresher(refresh.aws()));
    }
    if (refresh.gcp() != null) {
      list.add(new GcpBillingCatalogRefresher(refresh.gcp()));
    }
    return list;
  }
}
