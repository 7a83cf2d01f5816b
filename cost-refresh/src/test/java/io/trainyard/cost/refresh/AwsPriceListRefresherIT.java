package io.trainyard.cost.refresh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainyard.cost.CatalogPriceBook;
import io.trainyard.cost.PriceCatalog;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The real {@code PricingClient} against {@link PriceListStub}, over the embedded catalog. */
class AwsPriceListRefresherIT {
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-12-01T06:00:00Z"), ZoneOffset.UTC);
  private static final String EC2_SOURCE = "skypilot-catalog catalogs/v7/aws/vms.csv@001367d2";

  private final PriceCatalog catalog = PriceCatalog.embedded();
  private PriceListStub stub;
  private AwsPriceListRefresher refresher;

  @BeforeEach
  void start() throws Exception {
    stub = new PriceListStub();
    refresher = refresher(stub.endpoint());
  }

  @AfterEach
  void stop() {
    refresher.close();
    stub.close();
  }

  private static AwsPriceListRefresher refresher(URI endpoint) {
    var config = new AwsPriceListConfig(null, endpoint, "AKIDTRAINYARDTEST", "test-secret");
    return new AwsPriceListRefresher(config, CLOCK);
  }

  @Test
  void reprices_the_rows_in_the_answer_and_keeps_every_other_row() {
    stub.add(PriceListStub.ec2("m5.2xlarge", "us-east-1", "US East (N. Virginia)", "0.3900000000"));
    stub.add(PriceListStub.ec2("m5.2xlarge", "us-west-2", "US West (Oregon)", "0.3900000000"));
    stub.add(PriceListStub.sageMaker("ml.m5.2xlarge", "Training", "us-east-1", "0.4800000000"));
    stub.add(PriceListStub.sageMaker("ml.m5.2xlarge", "Hosting", "us-east-1", "0.6100000000"));

    var result = refresher.refresh(catalog);

    var fresh = result.catalog();
    var ec2 = fresh.instance("aws", "ec2", "us-east-1", "m5.2xlarge").orElseThrow();
    assertThat(ec2.onDemandUsdPerHour()).isEqualByComparingTo("0.39");
    assertThat(ec2.spotUsdPerHour())
        .as("spot is not in the Price List")
        .isEqualByComparingTo("0.1546");
    assertThat(ec2.source()).isEqualTo("aws-price-list-api 2026-12-01; spot from " + EC2_SOURCE);
    var ml = fresh.instance("aws", "sagemaker", "us-east-1", "ml.m5.2xlarge").orElseThrow();
    assertThat(ml.onDemandUsdPerHour()).as("training, not hosting").isEqualByComparingTo("0.48");
    assertThat(ml.spotUsdPerHour()).isNull();
    assertThat(ml.source()).isEqualTo("aws-price-list-api 2026-12-01");

    var ireland = fresh.instance("aws", "ec2", "eu-west-1", "m5.2xlarge").orElseThrow();
    assertThat(ireland).isEqualTo(catalog.instance("aws", "ec2", "eu-west-1", "m5.2xlarge").get());
    assertThat(fresh.instance("gcp", "gce", "us-central1", "n1-standard-8"))
        .isEqualTo(catalog.instance("gcp", "gce", "us-central1", "n1-standard-8"));
    assertThat(result.updated()).isEqualTo(3);
    assertThat(result.kept()).isEqualTo(catalog.rows().size() - 3);
    assertThat(fresh.rows()).hasSameSizeAs(catalog.rows());
    assertThat(fresh.asOf()).isEqualTo(LocalDate.of(2026, 12, 1));
    assertThat(result.warnings())
        .contains("aws/ec2/eu-west-1/m5.2xlarge: not in the Price List answer; kept");
  }

  @Test
  void asks_for_plain_linux_on_demand_ec2_and_sagemaker_training() {
    refresher.refresh(catalog);

    var ec2 = request("AmazonEC2", "m5.2xlarge");
    assertThat(filters(ec2))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "instanceType", "m5.2xlarge",
                "operatingSystem", "Linux",
                "tenancy", "Shared",
                "preInstalledSw", "NA",
                "capacitystatus", "Used"));
    assertThat(ec2.path("FormatVersion").asText()).isEqualTo("aws_v1");
    var sageMaker = request("AmazonSageMaker", "ml.p4d.24xlarge");
    assertThat(filters(sageMaker))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("instanceName", "ml.p4d.24xlarge", "component", "Training"));
  }

  @Test
  void pages_through_next_token_and_reads_regions_from_location_names() {
    stub.pageSize(1);
    stub.add(PriceListStub.ec2("m5.4xlarge", "us-east-1", "US East (N. Virginia)", "0.77"));
    stub.add(PriceListStub.ec2("m5.4xlarge", "us-west-2", "US West (Oregon)", "0.78"));
    stub.add(PriceListStub.ec2("m5.4xlarge", null, "EU (Ireland)", "0.86"));
    stub.add(PriceListStub.ec2("m5.4xlarge", "eu-central-1", "EU (Frankfurt)", "0.93"));

    var fresh = refresher.refresh(catalog).catalog();

    assertThat(
            fresh.instance("aws", "ec2", "eu-central-1", "m5.4xlarge").get().onDemandUsdPerHour())
        .isEqualByComparingTo("0.93");
    assertThat(fresh.instance("aws", "ec2", "eu-west-1", "m5.4xlarge").get().onDemandUsdPerHour())
        .as("no regionCode: location name")
        .isEqualByComparingTo("0.86");
    var pages =
        stub.requests().stream()
            .filter(r -> filters(r).get("instanceType") != null)
            .filter(r -> filters(r).get("instanceType").equals("m5.4xlarge"))
            .toList();
    assertThat(pages).hasSize(4);
    assertThat(pages.stream().filter(p -> p.hasNonNull("NextToken"))).hasSize(3);
  }

  @Test
  void skips_a_malformed_product_with_a_warning_and_keeps_its_row() {
    stub.add(PriceListStub.ec2("c5.4xlarge", "us-east-1", "US East (N. Virginia)", "0.70"));
    var noPrice = PriceListStub.ec2("c5.4xlarge", "us-west-2", "US West (Oregon)", "0.70");
    var term = noPrice.path("terms").path("OnDemand").elements().next();
    var dimension = (ObjectNode) term.path("priceDimensions").elements().next();
    dimension.remove("pricePerUnit");
    stub.add(noPrice);
    stub.addRaw("{\"product\": {\"sku\": \"TRUNCATED");

    var result = refresher.refresh(catalog);

    var fresh = result.catalog();
    assertThat(fresh.instance("aws", "ec2", "us-east-1", "c5.4xlarge").get().onDemandUsdPerHour())
        .isEqualByComparingTo("0.70");
    assertThat(fresh.instance("aws", "ec2", "us-west-2", "c5.4xlarge"))
        .isEqualTo(catalog.instance("aws", "ec2", "us-west-2", "c5.4xlarge"));
    assertThat(result.warnings())
        .anyMatch(
            w ->
                w.matches(
                    "AmazonEC2 c5.4xlarge: skipped a product: sku \\w+: an hourly rate without a USD price"))
        .anyMatch(w -> w.startsWith("AmazonEC2 c5.4xlarge: skipped a product: not JSON"))
        .contains("aws/ec2/us-west-2/c5.4xlarge: not in the Price List answer; kept");
  }

  @Test
  void two_prices_for_one_region_keep_the_row() {
    stub.add(PriceListStub.ec2("g5.xlarge", "us-east-1", "US East (N. Virginia)", "1.006"));
    stub.add(PriceListStub.ec2("g5.xlarge", "us-east-1", "US East (N. Virginia)", "1.2"));

    var result = refresher.refresh(catalog);

    assertThat(result.catalog().instance("aws", "ec2", "us-east-1", "g5.xlarge"))
        .isEqualTo(catalog.instance("aws", "ec2", "us-east-1", "g5.xlarge"));
    assertThat(result.warnings())
        .contains("aws/ec2/us-east-1/g5.xlarge: several on-demand prices [1.006, 1.2]; kept");
  }

  @Test
  void an_api_error_fails_the_refresh_and_the_book_keeps_its_catalog() {
    stub.add(PriceListStub.ec2("m5.2xlarge", "us-east-1", "US East (N. Virginia)", "0.39"));
    stub.failNext(
        400, "AccessDeniedException", "User is not authorized to perform pricing:GetProducts");
    var book = new CatalogPriceBook(catalog);

    var report = CatalogRefresh.refreshInto(book, refresher);

    assertThat(book.catalog()).isSameAs(catalog);
    assertThat(report.swapped()).isFalse();
    assertThat(report.healthy()).isFalse();
    var failure = report.failures().get(0).failure();
    assertThat(failure.code()).isEqualTo(PriceRefreshErrorCode.API_REFUSED);
    assertThat(failure.getMessage())
        .contains("GetProducts AmazonEC2", "400 AccessDeniedException", "not authorized");
  }

  @Test
  void an_unreachable_api_is_a_typed_failure() throws Exception {
    URI closed;
    try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      closed = URI.create("http://127.0.0.1:" + socket.getLocalPort());
    }
    try (var nowhere = refresher(closed)) {
      assertThatThrownBy(() -> nowhere.refresh(catalog))
          .isInstanceOfSatisfying(
              PriceRefreshException.class,
              e -> assertThat(e.code()).isEqualTo(PriceRefreshErrorCode.API_UNREACHABLE));
    }
  }

  @Test
  void a_refresh_that_prices_nothing_leaves_the_catalog_and_its_date() {
    var result = refresher.refresh(catalog);

    assertThat(result.catalog()).isSameAs(catalog);
    assertThat(result.changed()).isFalse();
    assertThat(result.catalog().asOf()).isEqualTo(catalog.asOf());
    var awsRows = catalog.rows().stream().filter(r -> r.provider().equals("aws")).count();
    assertThat(result.warnings()).hasSize((int) awsRows);
  }

  private JsonNode request(String serviceCode, String instance) {
    return stub.requests().stream()
        .filter(r -> r.path("ServiceCode").asText().equals(serviceCode))
        .filter(r -> filters(r).containsValue(instance))
        .findFirst()
        .orElseThrow();
  }

  private static Map<String, String> filters(JsonNode request) {
    var filters = new HashMap<String, String>();
    for (var f : request.path("Filters")) {
      assertThat(f.path("Type").asText()).isEqualTo("TERM_MATCH");
      filters.put(f.path("Field").asText(), f.path("Value").asText());
    }
    return filters;
  }
}
