package io.trainyard.cost.refresh;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * What one {@link CatalogRefresh#refreshInto} run did, for the log line and the health check.
 *
 * @param finishedAt when the run ended
 * @param outcomes one per refresher, in the order they ran
 * @param swapped whether a refreshed catalog was swapped into the price book
 * @param asOf the price book's catalog date after the run
 */
public record RefreshReport(
    Instant finishedAt, List<Outcome> outcomes, boolean swapped, LocalDate asOf) {

  public RefreshReport {
    Objects.requireNonNull(finishedAt, "finishedAt");
    outcomes = List.copyOf(outcomes);
  }

  /**
   * One refresher's part: a result, or the failure that kept its rows as they were.
   *
   * @param result null when the refresher failed
   * @param failure null when the refresher succeeded
   */
  public record Outcome(String refresher, RefreshResult result, PriceRefreshException failure) {
    public Outcome {
      Objects.requireNonNull(refresher, "refresher");
      if ((result == null) == (failure == null)) {
        throw new IllegalArgumentException("an outcome has either a result or a failure");
      }
    }

    public boolean succeeded() {
      return failure == null;
    }

    /**
     * {@code aws-price-list: 57 rows updated, 2 warnings} or {@code ...: failed: API_REFUSED: ...}.
     */
    public String summary() {
      if (failure != null) {
        return refresher + ": failed: " + failure.getMessage();
      }
      return refresher
          + ": "
          + result.updated()
          + " rows updated, "
          + result.kept()
          + " kept, "
          + result.warnings().size()
          + " warnings";
    }
  }

  /** True when every refresher succeeded; a failed one keeps its rows at their last good prices. */
  public boolean healthy() {
    return outcomes.stream().allMatch(Outcome::succeeded);
  }

  public List<Outcome> failures() {
    return outcomes.stream().filter(o -> !o.succeeded()).toList();
  }

  /** One line for the log and the health message. */
  public String summary() {
    return outcomes.stream().map(Outcome::summary).collect(Collectors.joining("; "))
        + (swapped ? "; catalog as of " + asOf : "; catalog unchanged");
  }
}
