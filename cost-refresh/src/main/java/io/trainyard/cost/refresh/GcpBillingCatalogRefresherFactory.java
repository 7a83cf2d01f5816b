package io.trainyard.cost.refresh;

import java.time.Clock;

/** {@code type: gcp-billing-catalog}, also read from {@code pricing.refresh.gcp}. */
public final class GcpBillingCatalogRefresherFactory
    implements PriceRefresherFactory<GcpBillingCatalogConfig> {
  @Override
  public String type() {
    return GcpBillingCatalogRefresher.NAME;
  }

  @Override
  public Class<GcpBillingCatalogConfig> configClass() {
    return GcpBillingCatalogConfig.class;
  }

  @Override
  public PriceRefresher create(GcpBillingCatalogConfig config, Clock clock) {
    return new GcpBillingCatalogRefresher(config, clock);
  }
}
