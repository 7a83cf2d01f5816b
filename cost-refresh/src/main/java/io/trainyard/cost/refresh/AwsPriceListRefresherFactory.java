package io.trainyard.cost.refresh;

import java.time.Clock;

/** {@code type: aws-price-list}, also read from {@code pricing.refresh.aws}. */
public final class AwsPriceListRefresherFactory
    implements PriceRefresherFactory<AwsPriceListConfig> {
  @Override
  public String type() {
    return AwsPriceListRefresher.NAME;
  }

  @Override
  public Class<AwsPriceListConfig> configClass() {
    return AwsPriceListConfig.class;
  }

  @Override
  public PriceRefresher create(AwsPriceListConfig config, Clock clock) {
    return new AwsPriceListRefresher(config, clock);
  }
}
