package io.trainyard.cost.refresh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import io.trainyard.cost.CatalogPriceBook;
import io.trainyard.cost.PriceCatalog;
import io.trainyard.cost.PriceRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The refresher's HTTP client against {@link BillingCatalogStub}, over the embedded catalog. */
class GcpBillingCatalogRefresherIT {
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-12-01T06:00:00Z"), ZoneOffset.UTC);
  private static final String GCE = GcpBillingCatalogRefresher.COMPUTE_ENGINE;
  private static final String VERTEX = GcpBillingCatalogRefresher.VERTEX_AI;
  private static final String SOURCE = "gcp-billing-catalog-api 2026-12-01";
  private static final String KEY = "test-api-key";

  private static final List<String> AMERICAS = List.of("us-central1", "us-east1", "us-west1");

  /**
   * service | description | resourceGroup | usageType | serviceRegions | usageUnit | USD. The
   * Vertex AI training descriptions are an assumed form (see GcpSkuMapping.Flavour.VERTEX).
   */
  private static final String SKUS =
      """
      gce | N1 Predefined Instance Core running in Americas | N1Standard | OnDemand | americas | h | 0.031611
      gce | N1 Predefined Instance Ram running in Americas | N1Standard | OnDemand | americas | GiBy.h | 0.004237
      gce | Spot Preemptible N1 Predefined Instance Core running in Americas | N1Standard | Preemptible | americas | h | 0.00698
      gce | Spot Preemptible N1 Predefined Instance Ram running in Americas | N1Standard | Preemptible | americas | GiBy.h | 0.00094
      gce | N1 Predefined Instance Core running in Virginia | N1Standard | OnDemand | virginia | h | 0.035605
      gce | N1 Predefined Instance Ram running in Virginia | N1Standard | OnDemand | virginia | GiBy.h | 0.004773
      gce | Commitment v1: Cpu in Americas for 1 Year | CPU | Commit1Yr | americas | h | 0.019915
      gce | Nvidia Tesla T4 GPU running in Americas | GPU | OnDemand | americas | h | 0.35
      gce | Nvidia Tesla T4 GPU attached to Spot Preemptible VMs running in Americas | GPU | Preemptible | americas | h | 0.1
      gce | Nvidia Tesla T4 GPU running in Virginia | GPU | OnDemand | virginia | h | 0.37
      gce | Nvidia Tesla T4 GPU running in Virginia (DWS) | GPU | OnDemand | virginia | h | 0.4
      gce | A2 Instance Core running in Americas | CPU | OnDemand | americas | h | 0.031611
      gce | A2 Instance Ram running in Americas | RAM | OnDemand | americas | GiBy.h | 0.004237
      gce | Nvidia Tesla A100 GPU running in Americas | GPU | OnDemand | americas | h | 2.933908
      gce | Nvidia Tesla A100 80GB GPU running in Americas | GPU | OnDemand | americas | h | 3.9
      vertex | Vertex AI: Training on N1 Predefined Instance Core running in Americas | CPU | OnDemand | americas | h | 0.036352
      vertex | Vertex AI: Training on N1 Predefined Instance Ram running in Americas | RAM | OnDemand | americas | GiBy.h | 0.004872
      vertex | Vertex AI: Online/Batch Prediction N1 Predefined Instance Core running in Americas | CPU | OnDemand | americas | h | 0.043
      """;

  private final PriceCatalog catalog = PriceCatalog.embedded();
  private BillingCatalogStub stub;
  private GcpBillingCatalogRefresher refresher;

  @BeforeEach
  void start() throws Exception {
    stub = new BillingCatalogStub(KEY);
    refresher = refresher(KEY);
    for (var line : SKUS.strip().split("\n")) {
      var f = line.split("\\|");
      var service = f[0].strip().equals("gce") ? GCE : VERTEX;
      var regions = f[4].strip().equals("americas") ? AMERICAS : List.of("us-east4");
      stub.put(
          service, f[1].strip(), f[2].strip(), f[3].strip(), regions, f[5].strip(), f[6].strip());
    }
    var egress =
        stub.put(
            GCE,
            "Network Vpn Internet Egress from Americas to Africa",
            "VPNInternetEgress",
            "OnDemand",
            AMERICAS,
            "GiBy",
            "0.12");
    var tiers = (ArrayNode) egress.findPath("tieredRates");
    var nextTier = tiers.addObject().put("startUsageAmount", 1024).putObject("unitPrice");
    nextTier.put("currencyCode", "USD").put("units", "0").put("nanos", 110000000);
    var broken =
        stub.sku(
            GCE, "N2 Instance Core running in Americas", "CPU", "OnDemand", AMERICAS, "h", "0.03");
    broken.remove("category");
    stub.add(GCE, broken);
  }

  @AfterEach
  void stop() {
    stub.close();
  }

  private GcpBillingCatalogRefresher refresher(String apiKey) {
    var config = new GcpBillingCatalogConfig(stub.endpoint(), apiKey, null, null);
    return new GcpBillingCatalogRefresher(config, CLOCK);
  }

  @Test
  void prices_hosts_as_cores_plus_memory_and_gpus_from_their_skus() {
    var result = refresher.refresh(catalog);
    var fresh = result.catalog();

    var n1 = gce(fresh, "us-central1", "n1-standard-8");
    assertThat(n1.onDemandUsdPerHour())
        .as("8 × 0.031611 + 30 × 0.004237")
        .isEqualByComparingTo("0.379998");
    assertThat(n1.spotUsdPerHour())
        .as("8 × 0.00698 + 30 × 0.00094")
        .isEqualByComparingTo("0.08404");
    assertThat(n1.source()).isEqualTo(SOURCE);
    assertThat(n1.vcpus()).isEqualTo(8.0);
    assertThat(gce(fresh, "us-central1", "n1-standard-16").onDemandUsdPerHour())
        .isEqualByComparingTo("0.759996");
    var a2 = gce(fresh, "us-central1", "a2-highgpu-8g");
    assertThat(a2.onDemandUsdPerHour())
        .as("96 × 0.031611 + 680 × 0.004237 + 8 × 2.933908 (A100 40GB, not 80GB)")
        .isEqualByComparingTo("29.38708");
    var t4 = fresh.accelerator("gcp", "gce", "us-central1", "nvidia-t4").orElseThrow();
    assertThat(t4.onDemandUsdPerHour()).isEqualByComparingTo("0.35");
    assertThat(t4.spotUsdPerHour()).isEqualByComparingTo("0.1");
    var vertex = fresh.instance("gcp", "vertex", "us-central1", "n1-standard-4").orElseThrow();
    assertThat(vertex.onDemandUsdPerHour())
        .as("4 × 0.036352 + 15 × 0.004872")
        .isEqualByComparingTo("0.218488");
    assertThat(vertex.spotUsdPerHour()).isNull();
    assertThat(fresh.asOf()).isEqualTo(LocalDate.of(2026, 12, 1));
    assertThat(result.updated()).isEqualTo(8);
    assertThat(fresh.rows().stream().filter(r -> r.provider().equals("aws")))
        .containsExactlyElementsOf(
            catalog.rows().stream().filter(r -> r.provider().equals("aws")).toList());
  }

  @Test
  void keeps_a_spot_price_it_cannot_find_and_says_where_it_came_from() {
    var result = refresher.refresh(catalog);

    var virginia = gce(result.catalog(), "us-east4", "n1-standard-8");
    assertThat(virginia.onDemandUsdPerHour()).isEqualByComparingTo("0.42803");
    assertThat(virginia.spotUsdPerHour()).isEqualByComparingTo("0.09039");
    assertThat(virginia.source())
        .isEqualTo(SOURCE + "; spot from skypilot-catalog catalogs/v7/gcp/vms.csv@017e2502");
    assertThat(result.warnings())
        .contains(
            "gcp/gce/us-east4/n1-standard-8: spot: no SKU for 'N1 Predefined Instance Core' (spot)"
                + " in us-east4; spot price kept");
  }

  @Test
  void keeps_rows_it_cannot_map_with_a_note() {
    var result = refresher.refresh(catalog);
    var fresh = result.catalog();

    for (var kept :
        new String[][] {{"europe-west4", "n1-standard-8"}, {"us-central1", "n2-standard-8"}}) {
      assertThat(gce(fresh, kept[0], kept[1])).isEqualTo(gce(catalog, kept[0], kept[1]));
    }
    assertThat(fresh.accelerator("gcp", "gce", "us-east4", "nvidia-t4"))
        .isEqualTo(catalog.accelerator("gcp", "gce", "us-east4", "nvidia-t4"));
    assertThat(fresh.accelerator("gcp", "vertex", "us-central1", "nvidia-h100-80gb"))
        .isEqualTo(catalog.accelerator("gcp", "vertex", "us-central1", "nvidia-h100-80gb"));
    assertThat(result.warnings())
        .contains(
            "gcp/gce/europe-west4/n1-standard-8: no SKU for 'N1 Predefined Instance Core' in"
                + " europe-west4; kept",
            "gcp/gce/us-east4/nvidia-t4: several SKUs for 'Nvidia Tesla T4 GPU' in us-east4 with"
                + " prices [0.37, 0.4]; kept",
            "gcp/vertex/us-central1/nvidia-h100-80gb: no SKU for 'Nvidia H100 80GB GPU' in"
                + " us-central1; kept")
        .anyMatch(
            w ->
                w.matches(
                    "services/6F81-5844-456A: skipped a SKU: sku [0-9A-F-]+: no description or category"))
        .noneMatch(w -> w.contains("Egress"));
  }

  @Test
  void pages_through_next_page_token_with_the_api_key() {
    stub.pageSize(4);

    var fresh = refresher.refresh(catalog).catalog();

    assertThat(gce(fresh, "us-central1", "a2-highgpu-8g").onDemandUsdPerHour())
        .isEqualByComparingTo("29.38708");
    var computePages = stub.requests().stream().filter(r -> r.get("service").equals(GCE)).toList();
    assertThat(computePages).hasSize(5); // 17 SKUs, 4 a page
    assertThat(computePages.stream().filter(r -> r.containsKey("pageToken"))).hasSize(4);
    assertThat(stub.requests())
        .allSatisfy(
            r -> {
              assertThat(r).containsEntry("key", KEY).containsEntry("currencyCode", "USD");
            });
    assertThat(stub.requests().stream().filter(r -> r.get("service").equals(VERTEX))).hasSize(1);
  }

  @Test
  void an_api_error_fails_the_refresh_and_the_book_keeps_its_catalog() {
    stub.fail(403, "PERMISSION_DENIED", "Cloud Billing API has not been used in project 1 before");
    var book = new CatalogPriceBook(catalog);

    var report = CatalogRefresh.refreshInto(book, refresher);

    assertThat(book.catalog()).isSameAs(catalog);
    assertThat(report.swapped()).isFalse();
    var failure = report.failures().get(0).failure();
    assertThat(failure.code()).isEqualTo(PriceRefreshErrorCode.API_REFUSED);
    assertThat(failure.getMessage())
        .isEqualTo(
            "API_REFUSED: GET services/6F81-5844-456A/skus: 403 PERMISSION_DENIED: Cloud Billing"
                + " API has not been used in project 1 before");
  }

  @Test
  void a_wrong_api_key_is_refused() {
    assertThatThrownBy(() -> refresher("not-the-key").refresh(catalog))
        .isInstanceOfSatisfying(
            PriceRefreshException.class,
            e -> {
              assertThat(e.code()).isEqualTo(PriceRefreshErrorCode.API_REFUSED);
              assertThat(e.getMessage()).contains("400 INVALID_ARGUMENT: API key not valid");
            });
  }

  @Test
  void an_unusable_credentials_file_is_a_config_error(@TempDir Path dir) throws Exception {
    var file = Files.writeString(dir.resolve("sa.json"), "{\"type\": \"nonsense\"}");
    var config = new GcpBillingCatalogConfig(stub.endpoint(), null, file, null);

    assertThatThrownBy(() -> new GcpBillingCatalogRefresher(config, CLOCK))
        .isInstanceOfSatisfying(
            PriceRefreshException.class,
            e -> assertThat(e.code()).isEqualTo(PriceRefreshErrorCode.CONFIG_INVALID));
  }

  private static PriceRow gce(PriceCatalog catalog, String region, String machineType) {
    return catalog.instance("gcp", "gce", region, machineType).orElseThrow();
  }
}
