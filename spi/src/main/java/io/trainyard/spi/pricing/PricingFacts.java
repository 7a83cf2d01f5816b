package io.trainyard.spi.pricing;

import java.io.IOException;
import java.io.InputStream;
import java.time.LocalDate;
import java.util.List;

/**
 * Pricing facts a backend module ships, found with {@link java.util.ServiceLoader} (a {@code
 * META-INF/services/io.trainyard.spi.pricing.PricingFacts} file in the module). The price book
 * reads every module's facts once at start.
 */
public interface PricingFacts {

  /**
   * Catalog rows this module ships, as CSV in the price catalog's one schema (header line first;
   * see the cost module's {@code prices/SOURCES.md}), each row's {@code source} column saying where
   * its figure comes from; null when the module ships none. A row that repeats one the catalog
   * already has stops the gateway at start, naming both.
   */
  default InputStream catalogRows() throws IOException {
    return null;
  }

  /**
   * When the shipped rows were compiled; the catalog's age is that of its oldest part. Null when
   * the module ships no rows.
   */
  default LocalDate catalogCompiled() {
    return null;
  }

  /** Managed services whose instances are priced as another service's VMs plus a surcharge. */
  default List<ManagedService> managedServices() {
    return List.of();
  }
}
