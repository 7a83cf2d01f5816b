package io.trainyard.spi.pricing;

/**
 * Creates price feeds of one type, found with {@link java.util.ServiceLoader} (a {@code
 * META-INF/services/io.trainyard.spi.pricing.PriceFeedFactory} file in the module).
 *
 * @param <C> the feed's configuration block
 */
public interface PriceFeedFactory<C extends PriceFeedConfig> {

  /** The {@code type:} of the feed's block under {@code pricing.refresh.sources}. */
  String type();

  /** The Jackson-bound configuration class of one block. */
  Class<C> configClass();

  /**
   * @throws IllegalArgumentException the block is invalid; the message names the field
   */
  PriceFeed create(C config);
}
