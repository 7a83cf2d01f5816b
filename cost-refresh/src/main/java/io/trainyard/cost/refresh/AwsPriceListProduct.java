package io.trainyard.cost.refresh;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.util.TreeSet;

/**
 * One entry of a {@code GetProducts} {@code PriceList}: a JSON document (sent as a string) with
 * {@code product.attributes} and {@code terms.OnDemand.<sku>.<offerTerm>.priceDimensions.<rate>}
 * holding {@code unit} and {@code pricePerUnit.USD}. Reserved and savings-plan terms are ignored.
 *
 * @param region the AWS region code ({@code regionCode}, or derived from {@code location})
 * @param onDemandUsdPerHour the one hourly on-demand USD rate of the product
 */
record AwsPriceListProduct(String sku, String region, BigDecimal onDemandUsdPerHour) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * @throws IllegalArgumentException saying what is missing or inconsistent, with the SKU when
   *     known
   */
  static AwsPriceListProduct parse(String priceListEntry) {
    JsonNode root;
    try {
      root = JSON.readTree(priceListEntry);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage());
    }
    var product = root.path("product");
    var attributes = product.path("attributes");
    var sku = product.path("sku").asText("(no sku)");
    if (!attributes.isObject()) {
      throw new IllegalArgumentException("sku " + sku + ": no product.attributes");
    }
    return new AwsPriceListProduct(sku, region(sku, attributes), hourlyUsd(sku, root));
  }

  private static String region(String sku, JsonNode attributes) {
    var code = attributes.path("regionCode").asText("");
    if (!code.isBlank()) {
      return code;
    }
    var location = attributes.path("location").asText("");
    return AwsLocations.regionOf(location)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "sku " + sku + ": no regionCode, and location '" + location + "' is unknown"));
  }

  /** The single hourly USD rate across the product's on-demand terms. */
  private static BigDecimal hourlyUsd(String sku, JsonNode root) {
    var onDemand = root.path("terms").path("OnDemand");
    if (!onDemand.isObject() || onDemand.isEmpty()) {
      throw new IllegalArgumentException("sku " + sku + ": no terms.OnDemand");
    }
    var rates = new TreeSet<BigDecimal>();
    for (var term : onDemand) {
      for (var dimension : term.path("priceDimensions")) {
        if (!"Hrs".equalsIgnoreCase(dimension.path("unit").asText())) {
          continue;
        }
        var usd = dimension.path("pricePerUnit").path("USD");
        if (!usd.isTextual() && !usd.isNumber()) {
          throw new IllegalArgumentException("sku " + sku + ": an hourly rate without a USD price");
        }
        rates.add(decimal(sku, usd.asText()));
      }
    }
    if (rates.isEmpty()) {
      throw new IllegalArgumentException("sku " + sku + ": no hourly on-demand USD rate");
    }
    if (rates.size() > 1) {
      throw new IllegalArgumentException("sku " + sku + ": several hourly rates " + rates);
    }
    var rate = rates.first();
    if (rate.signum() <= 0) {
      throw new IllegalArgumentException("sku " + sku + ": hourly rate is " + rate.toPlainString());
    }
    return rate;
  }

  private static BigDecimal decimal(String sku, String text) {
    try {
      // "0.3840000000" and "0.384" are the same price.
      return new BigDecimal(text).stripTrailingZeros();
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("sku " + sku + ": USD price '" + text + "' is no number");
    }
  }
}
