package io.trainyard.cost.refresh;

import io.trainyard.cost.CatalogPriceBook;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Runs refreshers one after another over the price book's catalog and swaps the result in only when
 * at least one of them re-priced something. A refresher that fails leaves its rows at their last
 * good prices; the others' work still lands. Nothing is swapped when every refresher failed or none
 * changed a row, so quotes keep the catalog (and the age) they had.
 *
 * <p>Run it from one thread at a time (one scheduled task): two concurrent runs would each swap in
 * a catalog built from the same starting point, and the later would win.
 */
public final class CatalogRefresh {
  private CatalogRefresh() {}

  public static RefreshReport refreshInto(CatalogPriceBook book, PriceRefresher... refreshers) {
    return refreshInto(book, Clock.systemUTC(), List.of(refreshers));
  }

  public static RefreshReport refreshInto(
      CatalogPriceBook book, Clock clock, List<PriceRefresher> refreshers) {
    Objects.requireNonNull(book, "book");
    var catalog = book.catalog();
    var outcomes = new ArrayList<RefreshReport.Outcome>();
    var changed = false;
    for (var refresher : refreshers) {
      try {
        var result = refresher.refresh(catalog);
        outcomes.add(new RefreshReport.Outcome(refresher.name(), result, null));
        if (result.changed()) {
          catalog = result.catalog();
          changed = true;
        }
      } catch (PriceRefreshException e) {
        outcomes.add(new RefreshReport.Outcome(refresher.name(), null, e));
      } catch (RuntimeException e) {
        // A bug in one refresher must not stop the others or the scheduler; it shows in health.
        var failure =
            new PriceRefreshException(
                PriceRefreshErrorCode.REFRESHER_FAILED, refresher.name() + ": " + e, e);
        outcomes.add(new RefreshReport.Outcome(refresher.name(), null, failure));
      }
    }
    if (changed) {
      book.replace(catalog);
    }
    return new RefreshReport(clock.instant(), outcomes, changed, book.asOf());
  }
}
