package io.trainyard.backend.azureml;

import io.trainyard.spi.pricing.PriceFeed;
import io.trainyard.spi.pricing.PriceFeedFactory;

/**
 * Creates {@code type: azure-retail} price feeds; registered for {@link java.util.ServiceLoader}.
 */
public final class AzureRetailPriceFeedFactory implements PriceFeedFactory<AzureRetailConfig> {
  public static final String TYPE = "azure-retail";

  @Override
  public String type() {
    return TYPE;
  }

  @Override
  public Class<AzureRetailConfig> configClass() {
    return AzureRetailConfig.class;
  }

  @Override
  public PriceFeed create(AzureRetailConfig config) {
    return new AzureRetailPriceFeed(config);
  }
}
