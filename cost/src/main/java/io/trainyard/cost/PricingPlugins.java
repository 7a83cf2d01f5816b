package io.trainyard.cost;

import io.trainyard.spi.pricing.ManagedService;
import io.trainyard.spi.pricing.PricingFacts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.ServiceLoader;

/**
 * The embedded catalog joined with what each backend module on the class path ships ({@link
 * PricingFacts}, found with {@link ServiceLoader}): its catalog rows and its managed services.
 *
 * @param catalog the embedded rows, then each module's
 * @param managedServices every module's managed services, one per (provider, service)
 */
public record PricingPlugins(PriceCatalog catalog, List<ManagedService> managedServices) {
  public PricingPlugins {
    managedServices = List.copyOf(managedServices);
  }

  /** The embedded catalog and every module's facts on this class path. */
  public static PricingPlugins discover() {
    return join(PriceCatalog.embedded(), ServiceLoader.load(PricingFacts.class));
  }

  /**
   * @throws IllegalArgumentException a module's rows are unreadable or repeat a row, or two modules
   *     claim the same managed service; the message names the module
   */
  public static PricingPlugins join(PriceCatalog base, Iterable<? extends PricingFacts> modules) {
    var catalog = base;
    var services = new LinkedHashMap<String, ManagedService>();
    for (var facts : modules) {
      var origin = facts.getClass().getName();
      catalog = withRows(catalog, facts, origin);
      for (var service : facts.managedServices()) {
        var key = service.provider() + "/" + service.service();
        if (services.putIfAbsent(key, service) != null) {
          throw new IllegalArgumentException(
              origin + " declares the managed service " + key + ", which another module declares");
        }
      }
    }
    return new PricingPlugins(catalog, new ArrayList<>(services.values()));
  }

  /** A price book over this catalog and these managed services. */
  public CatalogPriceBook priceBook(BigDecimal managedPremiumPct) {
    return new CatalogPriceBook(catalog, managedServices, managedPremiumPct);
  }

  private static PriceCatalog withRows(PriceCatalog catalog, PricingFacts facts, String origin) {
    try (var csv = facts.catalogRows()) {
      if (csv == null) {
        return catalog;
      }
      List<PriceRow> rows;
      try {
        rows = PriceCatalog.parse(csv);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(origin + ": " + e.getMessage(), e);
      }
      return catalog.plus(rows, facts.catalogCompiled(), origin);
    } catch (IOException e) {
      throw new UncheckedIOException(origin + ": its price rows are unreadable", e);
    }
  }
}
