/**
 * What a backend module tells the price book without seeing a price list: catalog rows it ships as
 * data, the managed services it prices as a VM plus a surcharge ({@link PricingFacts}), and price
 * feeds that re-price its rows from a provider's public price API ({@link PriceFeedFactory}). Both
 * are found with {@link java.util.ServiceLoader}, so adding a provider edits neither {@code cost}
 * nor {@code gateway}.
 */
package io.trainyard.spi.pricing;
