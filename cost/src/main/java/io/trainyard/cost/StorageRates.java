package io.trainyard.cost;

import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;

/**
 * What a platform bills for the storage volume it provisions per instance for a job's run (a {@code
 * Placement.storageGbPerInstance}), per GB-month, prorated over the run (730 hours a month). Only
 * sourced rows; a region without one gets the nearest sourced rate marked estimated. Pure.
 */
final class StorageRates {
  /**
   * @param estimated the rate is another region's, not this one's
   * @param source where it comes from, for the quote's notes
   */
  record Rate(BigDecimal usdPerGbMonth, boolean estimated, String source) {}

  /** provider/service/region → rate. */
  private static final Map<String, Rate> ROWS =
      Map.of(
          "aws/sagemaker/eu-west-1",
          new Rate(
              new BigDecimal("0.154"),
              false,
              "$0.154 per GB-Mo of Training Job ML storage, EU (Ireland): an AWS bill of"
                  + " December 2023 in aws-samples/sagemaker-ssh-helper Sample_Costs.md"));

  private StorageRates() {}

  static Optional<Rate> of(String provider, String service, String region) {
    var exact = ROWS.get(provider + "/" + service + "/" + region);
    if (exact != null) {
      return Optional.of(exact);
    }
    return ROWS.entrySet().stream()
        .filter(e -> e.getKey().startsWith(provider + "/" + service + "/"))
        .findFirst()
        .map(
            e ->
                new Rate(
                    e.getValue().usdPerGbMonth(),
                    true,
                    "estimated: no rate for "
                        + region
                        + " in the catalog, "
                        + e.getKey().substring(e.getKey().lastIndexOf('/') + 1)
                        + "'s taken ("
                        + e.getValue().source()
                        + ")"));
  }
}
