package io.trainyard.backend.azureml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.trainyard.spi.pricing.FeedPrice;
import io.trainyard.spi.pricing.PriceFeedException;
import io.trainyard.spi.pricing.PriceFeedFactory;
import io.trainyard.spi.pricing.PriceKey;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The feed against a stub of the Azure Retail Prices API that answers in its JSON ({@code Items},
 * {@code NextPageLink}, the item fields of the API's documentation), with the meters a real answer
 * for a VM size holds: Linux and Windows, pay-as-you-go, Spot and Low Priority, and an older price.
 */
class AzureRetailPriceFeedIT {
  private HttpServer server;
  private final List<Map<String, String>> queries = new CopyOnWriteArrayList<>();
  private volatile int failWith;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/api/retail/prices", this::answer);
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private String endpoint() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/api/retail/prices";
  }

  private AzureRetailPriceFeed feed() {
    return new AzureRetailPriceFeed(AzureRetailConfig.bind(endpoint(), null, null));
  }

  @Test
  void linuxPayAsYouGoAndSpotMetersPriceTheRowsAndOtherMetersAreSkipped() {
    var d8 = PriceKey.instance("azure", "vm", "eastus", "Standard_D8s_v5");
    var a100 = PriceKey.instance("azure", "vm", "eastus", "Standard_NC24ads_A100_v4");

    var answer = feed().prices(List.of(d8, a100));

    assertThat(answer.prices())
        .extracting(FeedPrice::key, FeedPrice::onDemandUsdPerHour, FeedPrice::spotUsdPerHour)
        .containsExactlyInAnyOrder(
            org.assertj.core.groups.Tuple.tuple(
                d8, new java.math.BigDecimal("0.384"), new java.math.BigDecimal("0.04224")),
            org.assertj.core.groups.Tuple.tuple(
                a100, new java.math.BigDecimal("3.673"), new java.math.BigDecimal("0.444433")));
    assertThat(answer.prices())
        .filteredOn(p -> p.key().equals(d8))
        .singleElement()
        .satisfies(
            p ->
                assertThat(p.source())
                    .isEqualTo(
                        "azure-retail-prices-api meterId=d8-linux-new"
                            + " effectiveStartDate=2025-06-01T00:00:00Z spot meterId=d8-spot"));
    assertThat(answer.warnings()).isEmpty();
  }

  @Test
  void theQueryFiltersByServiceRegionSkuAndPriceTypeInUsdAndFollowsNextPageLink() {
    feed().prices(List.of(PriceKey.instance("azure", "vm", "eastus", "Standard_D8s_v5")));

    assertThat(queries).hasSize(2); // the first page and the NextPageLink
    var first = queries.get(0);
    assertThat(first.get("currencyCode")).isEqualTo("'USD'");
    assertThat(first.get("$filter"))
        .isEqualTo(
            "serviceName eq 'Virtual Machines' and priceType eq 'Consumption' and armRegionName"
                + " eq 'eastus' and (armSkuName eq 'Standard_D8s_v5')");
    assertThat(queries.get(1).get("$skip")).isEqualTo("100");
  }

  @Test
  void aSizeTheApiLacksIsAWarningAndAcceleratorKeysAreNotItsToPrice() {
    var missing = PriceKey.instance("azure", "vm", "westeurope", "Standard_D8s_v5");
    var gpu = new PriceKey("azure", "vm", "eastus", null, "nvidia-t4");

    var answer = feed().prices(List.of(missing, gpu));

    assertThat(answer.prices()).isEmpty();
    assertThat(answer.warnings())
        .anySatisfy(w -> assertThat(w).contains("azure/vm/westeurope/Standard_D8s_v5"))
        .anySatisfy(w -> assertThat(w).contains("not per accelerator"));
  }

  @Test
  void anApiThatRefusesIsAPriceFeedException() {
    failWith = 503;

    assertThatThrownBy(
            () ->
                feed()
                    .prices(List.of(PriceKey.instance("azure", "vm", "eastus", "Standard_D8s_v5"))))
        .isInstanceOf(PriceFeedException.class)
        .hasMessageContaining("HTTP 503");
  }

  @Test
  void theFactoryIsFoundByTypeAndCoversAzureVmRowsOnly() {
    var factories =
        ServiceLoader.load(PriceFeedFactory.class).stream()
            .map(ServiceLoader.Provider::get)
            .toList();

    assertThat(factories)
        .anySatisfy(
            f -> {
              assertThat(f.type()).isEqualTo("azure-retail");
              assertThat(f.configClass()).isEqualTo(AzureRetailConfig.class);
            });
    var feed = feed();
    assertThat(feed.covers("azure", "vm")).isTrue();
    assertThat(feed.covers("azure", "azureml")).isFalse();
    assertThat(feed.covers("aws", "ec2")).isFalse();
    assertThat(AzureRetailConfig.bind(null, null, null).endpoint())
        .isEqualTo("https://prices.azure.com/api/retail/prices");
    assertThatThrownBy(() -> AzureRetailConfig.bind(null, "EUR", null))
        .hasMessageContaining("currency");
    assertThatThrownBy(() -> AzureRetailConfig.bind("ftp://x", null, null))
        .hasMessageContaining("endpoint");
  }

  // ---- the stub ----

  private void answer(HttpExchange exchange) throws IOException {
    try (exchange) {
      var query = query(exchange.getRequestURI().getRawQuery());
      queries.add(query);
      if (failWith != 0) {
        exchange.sendResponseHeaders(failWith, -1);
        return;
      }
      var filter = query.getOrDefault("$filter", "");
      var items = new ArrayList<Object>();
      Object next = null;
      if (filter.contains("armRegionName eq 'eastus'")) {
        if (!query.containsKey("$skip")) {
          if (filter.contains("Standard_D8s_v5")) {
            items.add(
                item(
                    "d8-linux-old",
                    "Standard_D8s_v5",
                    "D8s v5",
                    "Virtual Machines Dsv5 Series",
                    0.4,
                    "2023-01-01T00:00:00Z"));
            items.add(
                item(
                    "d8-windows",
                    "Standard_D8s_v5",
                    "D8s v5",
                    "Virtual Machines Dsv5 Series Windows",
                    0.752,
                    "2025-06-01T00:00:00Z"));
            items.add(
                item(
                    "d8-lowpri",
                    "Standard_D8s_v5",
                    "D8s v5 Low Priority",
                    "Virtual Machines Dsv5 Series",
                    0.0768,
                    "2025-06-01T00:00:00Z"));
            next = endpoint() + "?currencyCode=%27USD%27&$filter=" + encode(filter) + "&$skip=100";
          }
          if (filter.contains("Standard_NC24ads_A100_v4")) {
            items.add(
                item(
                    "a100",
                    "Standard_NC24ads_A100_v4",
                    "NC24ads A100 v4",
                    "Virtual Machines NCads A100 v4 Series",
                    3.673,
                    "2024-01-01T00:00:00Z"));
            items.add(
                item(
                    "a100-spot",
                    "Standard_NC24ads_A100_v4",
                    "NC24ads A100 v4 Spot",
                    "Virtual Machines NCads A100 v4 Series",
                    0.444433,
                    "2024-01-01T00:00:00Z"));
          }
        } else {
          items.add(
              item(
                  "d8-linux-new",
                  "Standard_D8s_v5",
                  "D8s v5",
                  "Virtual Machines Dsv5 Series",
                  0.384,
                  "2025-06-01T00:00:00Z"));
          items.add(
              item(
                  "d8-spot",
                  "Standard_D8s_v5",
                  "D8s v5 Spot",
                  "Virtual Machines Dsv5 Series",
                  0.04224,
                  "2025-06-01T00:00:00Z"));
        }
      }
      var body = new LinkedHashMap<String, Object>();
      body.put("BillingCurrency", "USD");
      body.put("CustomerEntityId", "Default");
      body.put("CustomerEntityType", "Retail");
      body.put("Items", items);
      body.put("NextPageLink", next);
      body.put("Count", items.size());
      var bytes = AzureJson.write(body);
      exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
      exchange.sendResponseHeaders(200, bytes.length);
      exchange.getResponseBody().write(bytes);
    }
  }

  /** One item with the API's field names. */
  private static Map<String, Object> item(
      String meterId, String sku, String meterName, String productName, double price, String from) {
    var item = new LinkedHashMap<String, Object>();
    item.put("currencyCode", "USD");
    item.put("tierMinimumUnits", 0.0);
    item.put("retailPrice", price);
    item.put("unitPrice", price);
    item.put("armRegionName", "eastus");
    item.put("location", "US East");
    item.put("effectiveStartDate", from);
    item.put("meterId", meterId);
    item.put("meterName", meterName);
    item.put("productId", "DZH318Z0BQ4L");
    item.put("skuId", "DZH318Z0BQ4L/00TG");
    item.put("productName", productName);
    item.put("skuName", meterName);
    item.put("serviceName", "Virtual Machines");
    item.put("serviceId", "DZH313Z7MMC8");
    item.put("serviceFamily", "Compute");
    item.put("unitOfMeasure", "1 Hour");
    item.put("type", "Consumption");
    item.put("isPrimaryMeterRegion", true);
    item.put("armSkuName", sku);
    return item;
  }

  private static Map<String, String> query(String raw) {
    var map = new LinkedHashMap<String, String>();
    if (raw == null) {
      return map;
    }
    for (var pair : raw.split("&")) {
      var eq = pair.indexOf('=');
      map.put(
          URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
          URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
    }
    return map;
  }

  private static String encode(String s) {
    return java.net.URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
