package io.trainyard.cost.refresh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.cost.CatalogPriceBook;
import io.trainyard.cost.PriceCatalog;
import io.trainyard.cost.PriceRow;
import io.trainyard.spi.pricing.FeedPrice;
import io.trainyard.spi.pricing.PriceFeed;
import io.trainyard.spi.pricing.PriceFeedConfig;
import io.trainyard.spi.pricing.PriceFeedException;
import io.trainyard.spi.pricing.PriceFeedFactory;
import io.trainyard.spi.pricing.PriceKey;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** A backend module's price feed applied to the catalog, and how refresher types are found. */
class FeedRefresherTest {
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-12-01T06:00:00Z"), ZoneOffset.UTC);
  private final PriceCatalog catalog = PriceCatalog.embedded();

  /** A feed for aws/ec2 whose answer is a function of the keys asked; records what it was asked. */
  private static final class Feed implements PriceFeed {
    final List<PriceKey> asked = new ArrayList<>();
    final Function<List<PriceKey>, Answer> answer;

    Feed(Function<List<PriceKey>, Answer> answer) {
      this.answer = answer;
    }

    @Override
    public String name() {
      return "test-feed";
    }

    @Override
    public boolean covers(String provider, String service) {
      return provider.equals("aws") && service.equals("ec2");
    }

    @Override
    public Answer prices(List<PriceKey> wanted) {
      asked.addAll(wanted);
      return answer.apply(wanted);
    }
  }

  private static final PriceKey M5 = PriceKey.instance("aws", "ec2", "us-east-1", "m5.2xlarge");

  @Test
  void repricesTheRowsItCoversAndExplainsTheOthers() {
    var feed =
        new Feed(
            wanted ->
                new PriceFeed.Answer(
                    List.of(new FeedPrice(M5, new BigDecimal("0.5"), null, "meter 42")),
                    List.of("one product skipped")));
    var result = new FeedRefresher(feed, CLOCK).refresh(catalog);

    var ec2Rows = catalog.rows().stream().filter(r -> r.service().equals("ec2")).count();
    assertThat(feed.asked).hasSize((int) ec2Rows).contains(M5);
    assertThat(feed.asked).allMatch(k -> k.service().equals("ec2"));
    assertThat(result.updated()).isEqualTo(1);
    assertThat(result.catalog().rows()).hasSameSizeAs(catalog.rows());
    assertThat(result.catalog().asOf()).isEqualTo(LocalDate.of(2026, 12, 1));
    var row = result.catalog().instance("aws", "ec2", "us-east-1", "m5.2xlarge").orElseThrow();
    assertThat(row.onDemandUsdPerHour()).isEqualByComparingTo("0.5");
    // The API gave no spot price: the row's is kept, and its source says where it came from.
    var before = catalog.instance("aws", "ec2", "us-east-1", "m5.2xlarge").orElseThrow();
    assertThat(row.spotUsdPerHour()).isEqualByComparingTo(before.spotUsdPerHour());
    assertThat(row.source()).startsWith("test-feed 2026-12-01 (meter 42); spot from ");
    // Rows of other services are the same rows.
    assertThat(result.catalog().instance("gcp", "gce", "us-central1", "n1-standard-8"))
        .contains(catalog.instance("gcp", "gce", "us-central1", "n1-standard-8").orElseThrow());
    assertThat(result.warnings())
        .contains("one product skipped")
        .anyMatch(w -> w.contains("aws/ec2/us-west-2/") && w.contains("gave no price"));
  }

  @Test
  void aPriceNotAskedForIsIgnoredAndNothingPricedChangesNothing() {
    var stray = PriceKey.instance("aws", "ec2", "mars-1", "m5.2xlarge");
    var feed =
        new Feed(
            wanted ->
                new PriceFeed.Answer(
                    List.of(new FeedPrice(stray, BigDecimal.ONE, null, "x")), List.of()));
    var result = new FeedRefresher(feed, CLOCK).refresh(catalog);
    assertThat(result.changed()).isFalse();
    assertThat(result.catalog()).isSameAs(catalog);
    assertThat(result.warnings()).anyMatch(w -> w.contains("aws/ec2/mars-1/m5.2xlarge, not asked"));
  }

  @Test
  void aFeedThatFailsLeavesTheCatalogAsItWas() {
    var feed =
        new Feed(
            wanted -> {
              throw new PriceFeedException("HTTP 503 from prices.example", null);
            });
    var book = new CatalogPriceBook(catalog);
    var report = CatalogRefresh.refreshInto(book, CLOCK, List.of(new FeedRefresher(feed, CLOCK)));
    assertThat(report.swapped()).isFalse();
    assertThat(book.catalog()).isSameAs(catalog);
    assertThat(report.outcomes().get(0).failure().code())
        .isEqualTo(PriceRefreshErrorCode.API_REFUSED);
    assertThat(report.outcomes().get(0).failure()).hasMessageContaining("HTTP 503");
  }

  record FeedConfig(String endpoint) implements PriceFeedConfig {}

  private static PriceFeedFactory<FeedConfig> factory(String type) {
    return new PriceFeedFactory<>() {
      @Override
      public String type() {
        return type;
      }

      @Override
      public Class<FeedConfig> configClass() {
        return FeedConfig.class;
      }

      @Override
      public PriceFeed create(FeedConfig config) {
        return new Feed(
            wanted ->
                new PriceFeed.Answer(
                    List.of(new FeedPrice(M5, new BigDecimal("0.7"), null, config.endpoint())),
                    List.of()));
      }
    };
  }

  @Test
  void theClassPathsTypesAndAModulesFeedAreOneList() {
    var onClassPath = RefresherTypes.discover();
    assertThat(onClassPath.all())
        .extracting(PriceRefresherFactory::type)
        .contains("aws-price-list", "gcp-billing-catalog");

    var types =
        new RefresherTypes(
            List.of(new AwsPriceListRefresherFactory()), List.of(factory("test-feed")));
    var refresher = types.create(new FeedConfig("https://prices.example"), CLOCK);
    assertThat(refresher.name()).isEqualTo("test-feed");
    var row =
        refresher
            .refresh(catalog)
            .catalog()
            .instance("aws", "ec2", "us-east-1", "m5.2xlarge")
            .map(PriceRow::source)
            .orElseThrow();
    assertThat(row).contains("(https://prices.example)");
    assertThat(types.create(AwsPriceListConfig.defaults(), CLOCK).name())
        .isEqualTo("aws-price-list");
  }

  @Test
  void twoModulesClaimingATypeOrAnUnboundBlockAreRefused() {
    assertThatThrownBy(() -> new RefresherTypes(List.of(), List.of(factory("dup"), factory("dup"))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("two price refreshers claim type dup");
    var none = new RefresherTypes(List.of(new AwsPriceListRefresherFactory()), List.of());
    assertThatThrownBy(() -> none.create(new FeedConfig("x"), CLOCK))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("known types: [aws-price-list]");
  }
}
