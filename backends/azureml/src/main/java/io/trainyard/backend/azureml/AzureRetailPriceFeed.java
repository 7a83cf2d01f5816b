package io.trainyard.backend.azureml;

import io.trainyard.spi.pricing.FeedPrice;
import io.trainyard.spi.pricing.PriceFeed;
import io.trainyard.spi.pricing.PriceFeedException;
import io.trainyard.spi.pricing.PriceKey;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Azure VM prices from the public Azure Retail Prices API ({@code
 * https://prices.azure.com/api/retail/prices}), which needs no credentials. One query per region
 * and batch of sizes:
 *
 * <pre>{@code
 * $filter=serviceName eq 'Virtual Machines' and priceType eq 'Consumption'
 *     and armRegionName eq 'eastus' and (armSkuName eq 'Standard_D8s_v5' or ...)
 * }</pre>
 *
 * following {@code NextPageLink} until it is null. Of the items ({@code Items}) it keeps Linux
 * meters by the hour: {@code productName} with "Windows" is skipped, a {@code meterName} ending in
 * " Spot" is the spot price, one ending in " Low Priority" is skipped (the low-priority rate of
 * Batch and classic Azure ML clusters, not the VM's spot price), any other is the pay-as-you-go
 * price; of several, the newest {@code effectiveStartDate} wins. Covers provider {@code azure},
 * service {@code vm}; Azure ML placements are priced from those rows with no surcharge.
 */
final class AzureRetailPriceFeed implements PriceFeed {
  // Keeps each query's URL well below the lengths proxies refuse.
  private static final int SIZES_PER_QUERY = 10;
  // A guard against a NextPageLink that never ends; a VM size has a handful of meters per region.
  private static final int MAX_PAGES = 50;

  private final AzureRetailConfig config;
  private final HttpClient http;

  AzureRetailPriceFeed(AzureRetailConfig config) {
    this.config = config;
    this.http = HttpClient.newBuilder().connectTimeout(config.timeout()).build();
  }

  @Override
  public String name() {
    return "azure-retail-prices";
  }

  @Override
  public boolean covers(String provider, String service) {
    return AzureMlPlacements.PROVIDER.equals(provider)
        && AzureMlPlacements.VM_SERVICE.equals(service);
  }

  @Override
  public Answer prices(List<PriceKey> wanted) {
    var warnings = new ArrayList<String>();
    var byRegion = new TreeMap<String, List<PriceKey>>();
    for (var key : wanted) {
      if (key.accelerator()) {
        warnings.add(key + ": Azure prices GPUs with their VM size, not per accelerator");
      } else {
        byRegion.computeIfAbsent(key.region(), r -> new ArrayList<>()).add(key);
      }
    }
    var prices = new ArrayList<FeedPrice>();
    for (var entry : byRegion.entrySet()) {
      var keys = entry.getValue();
      for (int i = 0; i < keys.size(); i += SIZES_PER_QUERY) {
        var batch = keys.subList(i, Math.min(keys.size(), i + SIZES_PER_QUERY));
        var meters = new Meters();
        fetch(filter(entry.getKey(), batch), meters, warnings);
        for (var key : batch) {
          meters.price(key, warnings).ifPresent(prices::add);
        }
      }
    }
    return new Answer(prices, warnings);
  }

  static String filter(String region, List<PriceKey> keys) {
    var skus = new ArrayList<String>();
    keys.forEach(k -> skus.add("armSkuName eq '" + k.instanceType().replace("'", "''") + "'"));
    return "serviceName eq 'Virtual Machines' and priceType eq 'Consumption' and armRegionName eq '"
        + region.replace("'", "''")
        + "' and ("
        + String.join(" or ", skus)
        + ")";
  }

  private void fetch(String filter, Meters meters, List<String> warnings) {
    var url =
        config.endpoint()
            + "?currencyCode="
            + encode("'" + config.currency() + "'")
            + "&$filter="
            + encode(filter);
    for (int page = 0; url != null; page++) {
      if (page == MAX_PAGES) {
        warnings.add("stopped after " + MAX_PAGES + " pages of " + filter);
        return;
      }
      var body = get(url);
      for (var item : AzureJson.list(body, "Items")) {
        if (item instanceof Map<?, ?> m) {
          @SuppressWarnings("unchecked")
          var fields = (Map<String, Object>) m;
          meters.add(fields, warnings);
        }
      }
      url = AzureJson.string(body, "NextPageLink");
      if (url != null && url.isBlank()) {
        url = null;
      }
    }
  }

  private Map<String, Object> get(String url) {
    try {
      var request =
          HttpRequest.newBuilder(URI.create(url))
              .timeout(config.timeout())
              .header("Accept", "application/json")
              .GET()
              .build();
      var response = http.send(request, BodyHandlers.ofByteArray());
      if (response.statusCode() != 200) {
        throw new PriceFeedException(
            "Azure Retail Prices API answered HTTP " + response.statusCode() + " for " + host(url),
            null);
      }
      return AzureJson.readObject(response.body());
    } catch (IOException e) {
      throw new PriceFeedException(
          "Azure Retail Prices API at " + host(url) + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PriceFeedException("interrupted while reading Azure retail prices", e);
    } catch (IllegalArgumentException e) {
      throw new PriceFeedException(
          "Azure Retail Prices API at " + host(url) + " answered " + e.getMessage(), e);
    }
  }

  private static String host(String url) {
    var uri = URI.create(url);
    return uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort());
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** The meters of one query, by size: the newest pay-as-you-go and spot meter of each. */
  private static final class Meters {
    private final Map<String, Map<String, Object>> onDemand = new LinkedHashMap<>();
    private final Map<String, Map<String, Object>> spot = new LinkedHashMap<>();

    void add(Map<String, Object> item, List<String> warnings) {
      var sku = AzureJson.string(item, "armSkuName");
      var product = AzureJson.string(item, "productName");
      var meter = AzureJson.string(item, "meterName");
      var skuName = AzureJson.string(item, "skuName");
      if (sku == null || meter == null) {
        return;
      }
      if (product != null && product.contains("Windows")) {
        return;
      }
      if (!"Consumption".equals(AzureJson.string(item, "type"))
          || !"1 Hour".equals(AzureJson.string(item, "unitOfMeasure"))) {
        return;
      }
      if (meter.endsWith(" Low Priority")
          || (skuName != null && skuName.endsWith(" Low Priority"))) {
        return;
      }
      var target =
          meter.endsWith(" Spot") || (skuName != null && skuName.endsWith(" Spot"))
              ? spot
              : onDemand;
      target.merge(sku, item, Meters::newer);
    }

    java.util.Optional<FeedPrice> price(PriceKey key, List<String> warnings) {
      var od = onDemand.get(key.instanceType());
      if (od == null) {
        warnings.add(key + ": no Linux pay-as-you-go meter in the Azure Retail Prices API");
        return java.util.Optional.empty();
      }
      var odPrice = amount(od);
      if (odPrice.signum() <= 0) {
        warnings.add(key + ": the Azure Retail Prices API gives a price of 0");
        return java.util.Optional.empty();
      }
      var sp = spot.get(key.instanceType());
      var spPrice = sp == null ? null : amount(sp);
      if (spPrice != null && spPrice.signum() <= 0) {
        spPrice = null;
      }
      var source =
          "azure-retail-prices-api meterId="
              + AzureJson.string(od, "meterId")
              + " effectiveStartDate="
              + AzureJson.string(od, "effectiveStartDate")
              + (sp == null ? "" : " spot meterId=" + AzureJson.string(sp, "meterId"));
      return java.util.Optional.of(new FeedPrice(key, odPrice, spPrice, source));
    }

    private static BigDecimal amount(Map<String, Object> item) {
      var value = item.get("retailPrice");
      return value == null ? BigDecimal.ZERO : new BigDecimal(value.toString());
    }

    // ISO-8601 timestamps of one format compare as text.
    private static Map<String, Object> newer(Map<String, Object> a, Map<String, Object> b) {
      var da = AzureJson.string(a, "effectiveStartDate");
      var db = AzureJson.string(b, "effectiveStartDate");
      if (da == null) {
        return b;
      }
      return db != null && db.compareTo(da) > 0 ? b : a;
    }
  }
}
