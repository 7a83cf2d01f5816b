package io.trainyard.cost.refresh;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The parts of one Billing Catalog SKU the mapping uses: {@code description}, {@code category}
 * ({@code resourceFamily}, {@code resourceGroup}, {@code usageType} such as {@code OnDemand} or
 * {@code Preemptible}), {@code serviceRegions}, and the price from {@code
 * pricingInfo[0].pricingExpression}: {@code usageUnit} and the single tiered rate's {@code
 * unitPrice {units, nanos}}.
 *
 * @param usdPerUnit null when the SKU has no single USD rate; {@code priceProblem} then says why
 */
record GcpSku(
    String skuId,
    String description,
    String resourceFamily,
    String resourceGroup,
    String usageType,
    List<String> serviceRegions,
    String usageUnit,
    BigDecimal usdPerUnit,
    String priceProblem) {

  GcpSku {
    serviceRegions = List.copyOf(serviceRegions);
  }

  /**
   * Reads a SKU. An unusual price (tiers, another currency) does not fail the SKU, since most SKUs
   * of a service (egress, storage) are never looked at; it fails only when the SKU is used.
   *
   * @throws IllegalArgumentException when the SKU lacks its description or category
   */
  static GcpSku parse(JsonNode sku) {
    var id = sku.path("skuId").asText("(no skuId)");
    var description = sku.path("description");
    var category = sku.path("category");
    if (!description.isTextual() || !category.isObject()) {
      throw new IllegalArgumentException("sku " + id + ": no description or category");
    }
    var regions = new ArrayList<String>();
    sku.path("serviceRegions").forEach(r -> regions.add(r.asText()));
    var expression = sku.path("pricingInfo").path(0).path("pricingExpression");
    String problem = null;
    BigDecimal usd = null;
    try {
      usd = unitPrice(expression);
    } catch (IllegalArgumentException e) {
      problem = e.getMessage();
    }
    return new GcpSku(
        id,
        description.asText(),
        category.path("resourceFamily").asText(""),
        category.path("resourceGroup").asText(""),
        category.path("usageType").asText(""),
        regions,
        expression.path("usageUnit").asText(""),
        usd,
        problem);
  }

  /** {@code units + nanos / 10^9} of the one tiered rate, in USD. */
  private static BigDecimal unitPrice(JsonNode expression) {
    var rates = expression.path("tieredRates");
    if (!rates.isArray() || rates.isEmpty()) {
      throw new IllegalArgumentException("no pricingInfo[0].pricingExpression.tieredRates");
    }
    if (rates.size() > 1) {
      // Tiers are volume prices (egress, storage); an hourly machine price has one.
      throw new IllegalArgumentException(rates.size() + " tiered rates, not one hourly rate");
    }
    var price = rates.get(0).path("unitPrice");
    var currency = price.path("currencyCode").asText("");
    if (!currency.equals("USD")) {
      throw new IllegalArgumentException("price in '" + currency + "', not USD");
    }
    try {
      // units is an int64, which the JSON mapping sends as a string.
      var units = new BigDecimal(price.path("units").asText("0"));
      var nanos = BigDecimal.valueOf(price.path("nanos").asLong(0)).movePointLeft(9);
      return units.add(nanos).stripTrailingZeros();
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("unitPrice.units '" + price.path("units") + "'");
    }
  }

  boolean availableIn(String region) {
    return serviceRegions.contains(region);
  }
}
