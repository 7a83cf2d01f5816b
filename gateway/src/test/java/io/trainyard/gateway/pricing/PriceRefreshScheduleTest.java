package io.trainyard.gateway.pricing;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.cost.CatalogPriceBook;
import io.trainyard.cost.PriceCatalog;
import io.trainyard.cost.PriceRow;
import io.trainyard.cost.refresh.PriceRefreshErrorCode;
import io.trainyard.cost.refresh.PriceRefreshException;
import io.trainyard.cost.refresh.PriceRefresher;
import io.trainyard.cost.refresh.RefreshResult;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The schedule around the refreshers: swap on success, keep the last good prices on failure. */
class PriceRefreshScheduleTest {
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-12-01T03:00:00Z"), ZoneOffset.UTC);

  /** A price API that answers with a scripted catalog, or refuses. */
  private static final class ScriptedApi implements PriceRefresher {
    volatile PriceRefreshException refusal;

    @Override
    public String name() {
      return "scripted";
    }

    @Override
    public RefreshResult refresh(PriceCatalog current) {
      if (refusal != null) {
        throw refusal;
      }
      var rows =
          current.rows().stream()
              .map(
                  r ->
                      r.instanceType() != null && r.instanceType().equals("m5.2xlarge")
                          ? new PriceRow(
                              r.provider(),
                              r.service(),
                              r.region(),
                              r.instanceType(),
                              r.gpuType(),
                              r.gpuCount(),
                              r.gpuMemoryGiB(),
                              r.vcpus(),
                              r.memoryGiB(),
                              new BigDecimal("0.400"),
                              r.spotUsdPerHour(),
                              r.kind(),
                              "scripted")
                          : r)
              .toList();
      return new RefreshResult(
          new PriceCatalog(rows, LocalDate.of(2026, 12, 1)), 4, rows.size() - 4, List.of());
    }
  }

  @Test
  void aGoodRefreshSwapsThePricesInAndAFailedOneKeepsThem() throws Exception {
    var book = new CatalogPriceBook(PriceCatalog.embedded());
    var api = new ScriptedApi();
    var schedule = new PriceRefreshSchedule(book, List.of(api), Duration.ofHours(24), CLOCK);
    assertThat(schedule.execute().getMessage()).contains("first refresh pending");

    assertThat(schedule.refreshNow().healthy()).isTrue();
    var refreshed = book.catalog();
    assertThat(
            refreshed
                .instance("aws", "ec2", "us-east-1", "m5.2xlarge")
                .orElseThrow()
                .onDemandUsdPerHour())
        .isEqualByComparingTo("0.400");
    assertThat(book.asOf()).isEqualTo("2026-12-01");
    assertThat(schedule.execute().isHealthy()).isTrue();

    api.refusal = new PriceRefreshException(PriceRefreshErrorCode.API_REFUSED, "throttled");
    assertThat(schedule.refreshNow().healthy()).isFalse();
    assertThat(book.catalog()).isSameAs(refreshed);
    var health = schedule.execute();
    assertThat(health.isHealthy()).isFalse();
    assertThat(health.getMessage()).contains("last refresh failed").contains("throttled");
  }

  @Test
  void withoutRefreshersTheEmbeddedCatalogIsHealthy() {
    var book = new CatalogPriceBook(PriceCatalog.embedded());
    var schedule = new PriceRefreshSchedule(book, List.of(), Duration.ofHours(24), CLOCK);
    var health = schedule.execute();
    assertThat(health.isHealthy()).isTrue();
    assertThat(health.getMessage()).contains("prices as of 2026-11-30").contains("embedded");
  }
}
