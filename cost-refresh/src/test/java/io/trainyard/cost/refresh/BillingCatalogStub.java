package io.trainyard.cost.refresh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Pattern;

/**
 * The Cloud Billing Catalog REST API's {@code GET /v1/services/{serviceId}/skus} on 127.0.0.1: SKUs
 * in the API's JSON, pages with opaque {@code pageToken}s ({@code nextPageToken} is {@code ""} on
 * the last page, as the API sends it), checks the {@code key} parameter, and answers with Google's
 * error body when told to. Keeps each request's query parameters.
 */
final class BillingCatalogStub implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern PATH = Pattern.compile("/v1/services/([^/]+)/skus");

  private final HttpServer server;
  private final String apiKey;
  private final Map<String, List<JsonNode>> skus = new ConcurrentHashMap<>();
  private final List<Map<String, String>> requests = new CopyOnWriteArrayList<>();
  private volatile ObjectNode fault;
  private volatile int pageSize = 5000;
  private int ids;

  BillingCatalogStub(String apiKey) throws IOException {
    this.apiKey = apiKey;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Answers at most this many SKUs a page, whatever {@code pageSize} asks. */
  void pageSize(int size) {
    pageSize = size;
  }

  void add(String serviceId, JsonNode sku) {
    skus.computeIfAbsent(serviceId, k -> new CopyOnWriteArrayList<>()).add(sku);
  }

  /** Every later call fails with this Google error. */
  void fail(int code, String status, String message) {
    var body = JSON.createObjectNode();
    body.putObject("error").put("code", code).put("message", message).put("status", status);
    fault = body;
  }

  /** The query parameters of each call, with {@code service} for the path's service id. */
  List<Map<String, String>> requests() {
    return List.copyOf(requests);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      var query = query(exchange.getRequestURI().getRawQuery());
      var path = PATH.matcher(exchange.getRequestURI().getPath());
      if (!exchange.getRequestMethod().equals("GET") || !path.matches()) {
        error(exchange, 404, "NOT_FOUND", "no such method");
        return;
      }
      query.put("service", path.group(1));
      requests.add(query);
      if (fault != null) {
        send(exchange, fault.path("error").path("code").asInt(), fault);
      } else if (query.get("key") == null) {
        error(exchange, 403, "PERMISSION_DENIED", "The request is missing a valid API key.");
      } else if (!query.get("key").equals(apiKey)) {
        error(exchange, 400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.");
      } else {
        page(exchange, skus.getOrDefault(path.group(1), List.of()), query);
      }
    }
  }

  private void page(HttpExchange exchange, List<JsonNode> all, Map<String, String> query)
      throws IOException {
    var token = query.getOrDefault("pageToken", "");
    var from =
        token.isEmpty()
            ? 0
            : Integer.parseInt(
                new String(Base64.getDecoder().decode(token), StandardCharsets.UTF_8));
    var size = Math.min(pageSize, Integer.parseInt(query.getOrDefault("pageSize", "5000")));
    var to = Math.min(all.size(), from + size);
    var body = JSON.createObjectNode();
    var list = body.putArray("skus");
    all.subList(from, to).forEach(list::add);
    var next = to < all.size() ? Base64.getEncoder().encodeToString(("" + to).getBytes()) : "";
    body.put("nextPageToken", next);
    send(exchange, 200, body);
  }

  private static Map<String, String> query(String raw) {
    var params = new HashMap<String, String>();
    if (raw == null) {
      return params;
    }
    for (var pair : raw.split("&")) {
      var kv = pair.split("=", 2);
      params.put(kv[0], kv.length < 2 ? "" : URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
    }
    return params;
  }

  private static void error(HttpExchange exchange, int code, String status, String message)
      throws IOException {
    var body = JSON.createObjectNode();
    body.putObject("error").put("code", code).put("message", message).put("status", status);
    send(exchange, code, body);
  }

  private static void send(HttpExchange exchange, int status, JsonNode body) throws IOException {
    var bytes = JSON.writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  @Override
  public void close() {
    server.stop(0);
  }

  // ---- SKUs in the API's format ----

  /** A SKU of the Compute Engine or Vertex AI service, priced per {@code unit} in USD. */
  synchronized ObjectNode sku(
      String serviceId,
      String description,
      String group,
      String usageType,
      List<String> regions,
      String unit,
      String usd) {
    var id = String.format("%04X-%04X-%04X", 0xA000 + ids, 0xB000 + ids, 0xC000 + ids);
    ids++;
    var sku = JSON.createObjectNode();
    sku.put("name", "services/" + serviceId + "/skus/" + id).put("skuId", id);
    sku.put("description", description);
    var category = sku.putObject("category");
    category.put(
        "serviceDisplayName", serviceId.startsWith("6F81") ? "Compute Engine" : "Vertex AI");
    category.put("resourceFamily", "Compute").put("resourceGroup", group);
    category.put("usageType", usageType);
    var regionList = sku.putArray("serviceRegions");
    regions.forEach(regionList::add);
    var info = sku.putArray("pricingInfo").addObject();
    info.put("summary", "").put("currencyConversionRate", 1);
    info.put("effectiveTime", "2026-11-30T12:00:00.000Z");
    var expression = info.putObject("pricingExpression");
    expression.put("usageUnit", unit);
    expression.put("usageUnitDescription", unit.equals("h") ? "hour" : "gibibyte hour");
    expression.put("baseUnit", unit.equals("h") ? "s" : "By.s");
    expression.put("baseUnitDescription", unit.equals("h") ? "second" : "byte second");
    expression.put("baseUnitConversionFactor", unit.equals("h") ? 3600 : 3865470566400L);
    expression.put("displayQuantity", 1);
    var price = new BigDecimal(usd);
    var rate = expression.putArray("tieredRates").addObject().put("startUsageAmount", 0);
    rate.putObject("unitPrice")
        .put("currencyCode", "USD")
        .put("units", price.toBigInteger().toString())
        .put("nanos", price.remainder(BigDecimal.ONE).movePointRight(9).intValueExact());
    info.putObject("aggregationInfo")
        .put("aggregationLevel", "ACCOUNT")
        .put("aggregationInterval", "DAILY")
        .put("aggregationCount", 1);
    sku.put("serviceProviderName", "Google");
    var geo = sku.putObject("geoTaxonomy").put("type", "MULTI_REGIONAL");
    var geoRegions = geo.putArray("regions");
    regions.forEach(geoRegions::add);
    return sku;
  }

  /** Adds {@link #sku} to its service and returns it. */
  ObjectNode put(
      String serviceId,
      String description,
      String group,
      String usageType,
      List<String> regions,
      String unit,
      String usd) {
    var sku = sku(serviceId, description, group, usageType, regions, unit, usd);
    add(serviceId, sku);
    return sku;
  }
}
