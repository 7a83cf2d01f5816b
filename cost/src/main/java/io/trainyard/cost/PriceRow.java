package io.trainyard.cost;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * One row of the price catalog (see {@code prices/SOURCES.md} beside the embedded catalog).
 *
 * @param instanceType null on {@link Kind#ACCELERATOR} rows
 * @param gpuType null when the instance has no GPUs
 * @param gpuMemoryGiB per GPU; 0 when unknown
 * @param spotUsdPerHour null where no spot price is known (all managed rows)
 * @param source where the number comes from
 */
public record PriceRow(
    String provider,
    String service,
    String region,
    String instanceType,
    String gpuType,
    int gpuCount,
    double gpuMemoryGiB,
    double vcpus,
    double memoryGiB,
    BigDecimal onDemandUsdPerHour,
    BigDecimal spotUsdPerHour,
    Kind kind,
    String source) {

  /** An instance's all-in price, or the price of one attachable accelerator. */
  public enum Kind {
    INSTANCE,
    ACCELERATOR
  }

  public PriceRow {
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(service, "service");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(onDemandUsdPerHour, "onDemandUsdPerHour");
    Objects.requireNonNull(kind, "kind");
  }

  /** The hourly price for spot or on-demand capacity; null when not known. */
  public BigDecimal usdPerHour(boolean spot) {
    return spot ? spotUsdPerHour : onDemandUsdPerHour;
  }
}
