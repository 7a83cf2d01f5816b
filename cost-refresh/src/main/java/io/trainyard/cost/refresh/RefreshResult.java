package io.trainyard.cost.refresh;

import io.trainyard.cost.PriceCatalog;
import java.util.List;
import java.util.Objects;

/**
 * What one refresher did.
 *
 * @param catalog the refreshed catalog; the very same instance as the input when nothing changed
 * @param updated rows re-priced from the API
 * @param kept rows left as they were (out of the refresher's scope, or explained by a warning)
 * @param warnings why in-scope rows were kept, products or SKUs that were skipped, and prices that
 *     moved suspiciously far; for logs and health
 */
public record RefreshResult(PriceCatalog catalog, int updated, int kept, List<String> warnings) {
  public RefreshResult {
    Objects.requireNonNull(catalog, "catalog");
    warnings = List.copyOf(warnings);
  }

  /** True when at least one row was re-priced, so the catalog is worth swapping in. */
  public boolean changed() {
    return updated > 0;
  }
}
