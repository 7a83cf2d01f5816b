package io.trainyard.cost.refresh;

import io.trainyard.spi.pricing.PriceFeedConfig;
import java.time.Clock;

/**
 * Creates refreshers of one {@code type:} (a block under {@code pricing.refresh.sources}), found
 * with {@link java.util.ServiceLoader}. The AWS and GCP refreshers are two; each backend module's
 * {@link io.trainyard.spi.pricing.PriceFeedFactory} becomes another ({@link RefresherTypes}).
 *
 * @param <C> the refresher's configuration block
 */
public interface PriceRefresherFactory<C extends PriceFeedConfig> {

  /** The block's {@code type:}, e.g. {@code aws-price-list}. */
  String type();

  /** The Jackson-bound configuration class of one block. */
  Class<C> configClass();

  /**
   * @throws IllegalArgumentException the block is invalid; the message names the field
   */
  PriceRefresher create(C config, Clock clock);
}
