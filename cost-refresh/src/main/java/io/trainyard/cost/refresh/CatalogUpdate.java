package io.trainyard.cost.refresh;

import io.trainyard.cost.PriceCatalog;
import io.trainyard.cost.PriceRow;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One refresh in progress: the rows re-priced so far and the warnings, turned into a {@link
 * RefreshResult} at the end. Rows keep their place in the catalog. Not thread-safe; one per
 * refresh.
 */
final class CatalogUpdate {
  /** Separates a row's own source from the source of a spot price that was carried over. */
  static final String SPOT_FROM = "; spot from ";

  /** Prices that move further than this factor either way are applied, but flagged. */
  private static final BigDecimal SUSPICIOUS_FACTOR = BigDecimal.valueOf(2);

  private final PriceCatalog current;
  private final String source;
  private final LocalDate date;
  // By identity: two rows of the catalog could be equal records.
  private final Map<PriceRow, PriceRow> replaced = new IdentityHashMap<>();
  private final List<String> warnings = new ArrayList<>();

  /**
   * @param api names the API in each re-priced row's source, e.g. {@code aws-price-list-api}
   * @param date the refresh date: the new catalog's {@code asOf} and part of each new source
   */
  CatalogUpdate(PriceCatalog current, String api, LocalDate date) {
    this.current = Objects.requireNonNull(current, "current");
    this.date = Objects.requireNonNull(date, "date");
    this.source = api + " " + date;
  }

  /**
   * Re-prices a row. A spot price the API does not give is carried over, and the row's source then
   * says where that spot price came from, so a quote never cites the API for a number it did not
   * give.
   *
   * @param spot the new spot price, or null to keep the row's
   */
  void update(PriceRow row, BigDecimal onDemand, BigDecimal spot) {
    update(row, onDemand, spot, null);
  }

  /**
   * As {@link #update(PriceRow, BigDecimal, BigDecimal)}, the API's own words for the price (a
   * meter, a SKU) added to the row's source.
   */
  void update(PriceRow row, BigDecimal onDemand, BigDecimal spot, String detail) {
    var newOnDemand = onDemand.stripTrailingZeros();
    flagJump(row, "on-demand", row.onDemandUsdPerHour(), newOnDemand);
    var newSpot = spot == null ? row.spotUsdPerHour() : spot.stripTrailingZeros();
    var rowSource = detail == null || detail.isBlank() ? source : source + " (" + detail + ")";
    if (spot == null && row.spotUsdPerHour() != null) {
      rowSource = rowSource + SPOT_FROM + spotOrigin(row.source());
    } else if (spot != null) {
      flagJump(row, "spot", row.spotUsdPerHour(), newSpot);
    }
    replaced.put(
        row,
        new PriceRow(
            row.provider(),
            row.service(),
            row.region(),
            row.instanceType(),
            row.gpuType(),
            row.gpuCount(),
            row.gpuMemoryGiB(),
            row.vcpus(),
            row.memoryGiB(),
            newOnDemand,
            newSpot,
            row.kind(),
            rowSource));
  }

  void warn(String warning) {
    warnings.add(warning);
  }

  void warnAll(List<String> more) {
    warnings.addAll(more);
  }

  /**
   * The refreshed catalog, dated today; or the current catalog itself when no row changed, so that
   * a refresh that priced nothing does not make stale prices look fresh.
   */
  RefreshResult result() {
    var total = current.rows().size();
    if (replaced.isEmpty()) {
      return new RefreshResult(current, 0, total, warnings);
    }
    var rows = current.rows().stream().map(r -> replaced.getOrDefault(r, r)).toList();
    return new RefreshResult(
        new PriceCatalog(rows, date), replaced.size(), total - replaced.size(), warnings);
  }

  /** {@code aws/ec2/us-east-1/m5.2xlarge}, or {@code gcp/gce/us-central1/nvidia-t4} for a GPU. */
  static String label(PriceRow row) {
    var name = row.kind() == PriceRow.Kind.INSTANCE ? row.instanceType() : row.gpuType();
    return row.provider() + "/" + row.service() + "/" + row.region() + "/" + name;
  }

  private void flagJump(PriceRow row, String which, BigDecimal before, BigDecimal after) {
    if (before == null || before.signum() <= 0 || after.signum() <= 0) {
      return;
    }
    var ratio = after.divide(before, 6, RoundingMode.HALF_UP);
    var inverse = before.divide(after, 6, RoundingMode.HALF_UP);
    if (ratio.compareTo(SUSPICIOUS_FACTOR) > 0 || inverse.compareTo(SUSPICIOUS_FACTOR) > 0) {
      warn(
          label(row)
              + ": "
              + which
              + " price moved from "
              + before.toPlainString()
              + " to "
              + after.toPlainString()
              + " USD/h; applied, check the mapping");
    }
  }

  /** Where a carried-over spot price first came from, without piling up one suffix per refresh. */
  private static String spotOrigin(String previousSource) {
    var at = previousSource.indexOf(SPOT_FROM);
    return at < 0 ? previousSource : previousSource.substring(at + SPOT_FROM.length());
  }
}
