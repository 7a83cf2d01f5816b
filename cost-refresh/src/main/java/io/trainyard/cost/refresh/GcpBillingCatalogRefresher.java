package io.trainyard.cost.refresh;

import io.trainyard.cost.PriceCatalog;
import io.trainyard.cost.PriceRow;
import io.trainyard.cost.refresh.GcpSkuMapping.Flavour;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Re-prices the catalog's {@code gcp/gce} rows from the Compute Engine SKUs ({@code
 * services/6F81-5844-456A}) and its {@code gcp/vertex} rows from the Vertex AI SKUs ({@code
 * services/C7E2-9256-1C43}) of the Cloud Billing Catalog API, as {@link GcpSkuMapping} describes.
 * Compute Engine spot prices come from the {@code Preemptible} SKUs; Vertex rows carry no spot
 * price. A row that cannot be mapped is kept, with a warning saying which SKU was missing or
 * ambiguous. Thread-safety: as {@link PriceRefresher}.
 */
public final class GcpBillingCatalogRefresher implements PriceRefresher {
  public static final String NAME = "gcp-billing-catalog";
  static final String SOURCE = "gcp-billing-catalog-api";
  static final String COMPUTE_ENGINE = "6F81-5844-456A";
  static final String VERTEX_AI = "C7E2-9256-1C43";

  private final GcpBillingCatalogClient client;
  private final Clock clock;

  /**
   * @throws PriceRefreshException with {@code CONFIG_INVALID} when the credentials file is unusable
   */
  public GcpBillingCatalogRefresher(GcpBillingCatalogConfig config) {
    this(config, Clock.systemUTC());
  }

  /**
   * @param clock gives the refresh date (UTC)
   */
  public GcpBillingCatalogRefresher(GcpBillingCatalogConfig config, Clock clock) {
    this.client = new GcpBillingCatalogClient(config);
    this.clock = clock;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public RefreshResult refresh(PriceCatalog current) {
    var update =
        new CatalogUpdate(current, SOURCE, LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC));
    reprice(rows(current, "gce"), COMPUTE_ENGINE, Flavour.GCE, update);
    reprice(rows(current, "vertex"), VERTEX_AI, Flavour.VERTEX, update);
    return update.result();
  }

  private static List<PriceRow> rows(PriceCatalog catalog, String service) {
    return catalog.rows().stream()
        .filter(r -> r.provider().equals("gcp") && r.service().equals(service))
        .toList();
  }

  private void reprice(
      List<PriceRow> rows, String serviceId, Flavour flavour, CatalogUpdate update) {
    if (rows.isEmpty()) {
      return; // no need to page through thousands of SKUs
    }
    var listing = client.skus(serviceId);
    update.warnAll(listing.warnings());
    var skus = listing.skus();
    for (var row : rows) {
      var label = CatalogUpdate.label(row);
      var onDemand = GcpSkuMapping.price(row, flavour, skus, false);
      if (!onDemand.found()) {
        update.warn(label + ": " + onDemand.problem() + "; kept");
        continue;
      }
      var spot = flavour.hasSpot ? GcpSkuMapping.price(row, flavour, skus, true) : null;
      if (spot != null && !spot.found() && row.spotUsdPerHour() != null) {
        update.warn(label + ": spot: " + spot.problem() + "; spot price kept");
      }
      update.update(row, onDemand.usd(), spot != null && spot.found() ? spot.usd() : null);
    }
  }
}
