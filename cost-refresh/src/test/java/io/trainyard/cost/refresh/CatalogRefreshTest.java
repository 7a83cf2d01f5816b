package io.trainyard.cost.refresh;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.cost.CatalogPriceBook;
import io.trainyard.cost.PriceCatalog;
import io.trainyard.cost.PriceRow;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The runner and the update rules, with refreshers that answer from memory. */
class CatalogRefreshTest {
  private static final LocalDate DAY = LocalDate.of(2026, 12, 1);
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-12-01T06:00:00Z"), ZoneOffset.UTC);

  private final PriceCatalog catalog = PriceCatalog.embedded();

  /** A refresher whose answer is a function of the catalog it is given. */
  private record Answering(String name, Function<PriceCatalog, RefreshResult> answer)
      implements PriceRefresher {
    @Override
    public RefreshResult refresh(PriceCatalog current) {
      return answer.apply(current);
    }
  }

  private static PriceRefresher repricing(String name, String instanceType, String usd) {
    return new Answering(
        name,
        current -> {
          var update = new CatalogUpdate(current, name, DAY);
          current.rows().stream()
              .filter(r -> instanceType.equals(r.instanceType()))
              .forEach(r -> update.update(r, new BigDecimal(usd), null));
          return update.result();
        });
  }

  private static PriceRefresher failing(String name, RuntimeException e) {
    return new Answering(
        name,
        current -> {
          throw e;
        });
  }

  @Test
  void swaps_in_what_succeeded_and_reports_what_failed() {
    var book = new CatalogPriceBook(catalog);
    var refused =
        new PriceRefreshException(PriceRefreshErrorCode.API_REFUSED, "403 PERMISSION_DENIED");

    var report =
        CatalogRefresh.refreshInto(
            book, CLOCK, List.of(failing("gcp", refused), repricing("aws", "m5.2xlarge", "0.5")));

    assertThat(report.swapped()).isTrue();
    assertThat(book.asOf()).isEqualTo(DAY);
    assertThat(
            book.catalog()
                .instance("aws", "ec2", "us-east-1", "m5.2xlarge")
                .get()
                .onDemandUsdPerHour())
        .isEqualByComparingTo("0.5");
    assertThat(report.healthy()).isFalse();
    assertThat(report.failures())
        .extracting(RefreshReport.Outcome::failure)
        .containsExactly(refused);
    assertThat(report.summary())
        .isEqualTo(
            "gcp: failed: API_REFUSED: 403 PERMISSION_DENIED; aws: 4 rows updated, "
                + (catalog.rows().size() - 4)
                + " kept, 0 warnings; catalog as of 2026-12-01");
    assertThat(report.finishedAt()).isEqualTo(CLOCK.instant());
  }

  @Test
  void refreshers_run_over_each_others_results() {
    var book = new CatalogPriceBook(catalog);

    CatalogRefresh.refreshInto(
        book, repricing("first", "m5.2xlarge", "0.5"), repricing("second", "c5.4xlarge", "0.7"));

    var fresh = book.catalog();
    assertThat(fresh.instance("aws", "ec2", "us-east-1", "m5.2xlarge").get().source())
        .startsWith("first ");
    assertThat(fresh.instance("aws", "ec2", "us-east-1", "c5.4xlarge").get().source())
        .startsWith("second ");
  }

  @Test
  void nothing_changed_or_everything_failed_leaves_the_book_alone() {
    var book = new CatalogPriceBook(catalog);

    var report =
        CatalogRefresh.refreshInto(
            book,
            repricing("none", "no-such-type", "1"),
            failing("bug", new IllegalStateException("boom")));

    assertThat(book.catalog()).isSameAs(catalog);
    assertThat(report.swapped()).isFalse();
    assertThat(report.asOf()).isEqualTo(catalog.asOf());
    var bug = report.failures().get(0).failure();
    assertThat(bug.code()).isEqualTo(PriceRefreshErrorCode.REFRESHER_FAILED);
    assertThat(bug.getMessage()).contains("bug", "boom");
    assertThat(report.summary()).endsWith("; catalog unchanged");
  }

  @Test
  void a_carried_spot_source_does_not_pile_up_over_refreshes() {
    var row = catalog.instance("aws", "ec2", "us-east-1", "m5.2xlarge").orElseThrow();
    var first = new CatalogUpdate(catalog, "api", DAY);
    first.update(row, new BigDecimal("0.39"), null);
    var once = first.result().catalog();
    var second = new CatalogUpdate(once, "api", DAY.plusDays(1));
    second.update(
        once.instance("aws", "ec2", "us-east-1", "m5.2xlarge").get(), new BigDecimal("0.4"), null);

    var twice = second.result().catalog().instance("aws", "ec2", "us-east-1", "m5.2xlarge").get();

    assertThat(twice.source())
        .isEqualTo("api 2026-12-02; spot from skypilot-catalog catalogs/v7/aws/vms.csv@001367d2");
    assertThat(twice.spotUsdPerHour()).isEqualByComparingTo(row.spotUsdPerHour());
  }

  @Test
  void a_price_that_moves_more_than_twofold_is_applied_and_flagged() {
    PriceRow row = catalog.instance("aws", "ec2", "us-east-1", "p5.48xlarge").orElseThrow();
    var update = new CatalogUpdate(catalog, "api", DAY);

    update.update(row, new BigDecimal("40.00"), null);

    var result = update.result();
    assertThat(
            result
                .catalog()
                .instance("aws", "ec2", "us-east-1", "p5.48xlarge")
                .get()
                .onDemandUsdPerHour())
        .isEqualByComparingTo("40");
    assertThat(result.warnings())
        .containsExactly(
            "aws/ec2/us-east-1/p5.48xlarge: on-demand price moved from 98.32 to 40 USD/h; applied,"
                + " check the mapping");
  }
}
