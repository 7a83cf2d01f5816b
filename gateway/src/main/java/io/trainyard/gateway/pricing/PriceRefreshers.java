package io.trainyard.gateway.pricing;

import io.trainyard.cost.refresh.PriceRefresher;
import io.trainyard.cost.refresh.RefresherTypes;
import io.trainyard.gateway.config.PricingConfig;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/** The refreshers a configuration asks for: one per block, of the types on the class path. */
public final class PriceRefreshers {
  private PriceRefreshers() {}

  public static List<PriceRefresher> from(PricingConfig.Refresh refresh, Clock clock) {
    var types = RefresherTypes.discover();
    var list = new ArrayList<PriceRefresher>();
    for (var block : refresh.blocks()) {
      list.add(types.create(block, clock));
    }
    return list;
  }
}
