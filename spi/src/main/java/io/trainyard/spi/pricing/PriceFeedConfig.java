package io.trainyard.spi.pricing;

import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * One block under {@code pricing.refresh.sources}, polymorphic by {@code type:}; the gateway
 * registers each factory's {@link PriceFeedFactory#configClass()} under its {@link
 * PriceFeedFactory#type()}.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
public interface PriceFeedConfig {}
