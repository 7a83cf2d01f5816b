package io.trainyard.cost.refresh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The AWS Price List Query API's {@code GetProducts} on 127.0.0.1, in its JSON 1.1 protocol ({@code
 * X-Amz-Target: AWSPriceListService.GetProducts}): keeps products as the API sends them (a JSON
 * document per {@code PriceList} string), honours {@code TERM_MATCH} filters on {@code
 * productFamily} and {@code product.attributes}, pages with {@code NextToken} at {@link
 * #pageSize(int)}, and answers with scripted AWS errors. Keeps each request body.
 */
final class PriceListStub implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String TARGET = "AWSPriceListService.GetProducts";

  /** The Price List's usage-type prefixes; us-east-1 EC2 has none. */
  private static final Map<String, String> USAGE_PREFIX =
      Map.of(
          "us-east-1", "USE1-", "us-west-2", "USW2-", "eu-west-1", "EU-", "eu-central-1", "EUC1-");

  private final HttpServer server;
  private final List<String> products = new CopyOnWriteArrayList<>();
  private final List<JsonNode> requests = new CopyOnWriteArrayList<>();
  private final Deque<ObjectNode> faults = new ArrayDeque<>();
  private volatile int pageSize = 100;

  PriceListStub() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Answers at most this many products a page, whatever {@code MaxResults} asks. */
  void pageSize(int size) {
    pageSize = size;
  }

  void add(JsonNode product) {
    products.add(product.toString());
  }

  /** An entry as it is, even one that is not JSON. */
  void addRaw(String priceListEntry) {
    products.add(priceListEntry);
  }

  /** The next call fails with this AWS error. */
  synchronized void failNext(int status, String type, String message) {
    faults.add(JSON.createObjectNode().put("status", status).put("type", type).put("m", message));
  }

  /** The bodies of the {@code GetProducts} calls received. */
  List<JsonNode> requests() {
    return List.copyOf(requests);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      var body = JSON.readTree(exchange.getRequestBody().readAllBytes());
      var target = exchange.getRequestHeaders().getFirst("X-Amz-Target");
      if (!TARGET.equals(target)) {
        error(exchange, 400, "UnknownOperationException", "unknown operation " + target);
        return;
      }
      requests.add(body);
      ObjectNode fault;
      synchronized (this) {
        fault = faults.poll();
      }
      if (fault != null) {
        error(
            exchange,
            fault.get("status").asInt(),
            fault.get("type").asText(),
            fault.get("m").asText());
        return;
      }
      answer(exchange, body);
    }
  }

  private void answer(HttpExchange exchange, JsonNode request) throws IOException {
    var matching = products.stream().filter(p -> matches(p, request)).toList();
    var from = 0;
    if (request.hasNonNull("NextToken")) {
      try {
        from = Integer.parseInt(request.get("NextToken").asText().replace("page-", ""));
      } catch (NumberFormatException e) {
        error(exchange, 400, "InvalidNextTokenException", "The NextToken is invalid.");
        return;
      }
    }
    var size = Math.min(pageSize, request.path("MaxResults").asInt(100));
    var to = Math.min(matching.size(), from + size);
    var answer = JSON.createObjectNode().put("FormatVersion", "aws_v1");
    var list = answer.putArray("PriceList");
    matching.subList(from, to).forEach(list::add);
    if (to < matching.size()) {
      answer.put("NextToken", "page-" + to);
    }
    send(exchange, 200, answer, null);
  }

  private static boolean matches(String entry, JsonNode request) {
    JsonNode product;
    try {
      product = JSON.readTree(entry);
    } catch (IOException e) {
      return true; // unreadable entries are in every answer
    }
    if (!product.path("serviceCode").asText().equals(request.path("ServiceCode").asText())) {
      return false;
    }
    for (var filter : request.path("Filters")) {
      var field = filter.path("Field").asText();
      var value =
          field.equals("productFamily")
              ? product.path("product").path("productFamily")
              : product.path("product").path("attributes").path(field);
      if (!value.asText().equalsIgnoreCase(filter.path("Value").asText())) {
        return false;
      }
    }
    return true;
  }

  private static void error(HttpExchange exchange, int status, String type, String message)
      throws IOException {
    send(
        exchange,
        status,
        JSON.createObjectNode().put("__type", type).put("Message", message),
        type);
  }

  private static void send(HttpExchange exchange, int status, JsonNode body, String errorType)
      throws IOException {
    var bytes = JSON.writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/x-amz-json-1.1");
    exchange.getResponseHeaders().set("x-amzn-RequestId", "stub-" + System.nanoTime());
    if (errorType != null) {
      exchange.getResponseHeaders().set("x-amzn-ErrorType", errorType);
    }
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  @Override
  public void close() {
    server.stop(0);
  }

  // ---- products in the API's format ----

  /** A Linux, shared-tenancy, on-demand EC2 product as {@code GetProducts} returns it. */
  static ObjectNode ec2(String instanceType, String region, String location, String usdPerHour) {
    var sku = sku("EC2" + instanceType + region);
    var root = JSON.createObjectNode();
    var product = root.putObject("product").put("productFamily", "Compute Instance");
    var a = product.putObject("attributes");
    a.put("servicecode", "AmazonEC2").put("servicename", "Amazon Elastic Compute Cloud");
    a.put("instanceType", instanceType).put("instanceFamily", "General purpose");
    a.put("location", location).put("locationType", "AWS Region");
    if (region != null) {
      a.put("regionCode", region);
    }
    a.put("operatingSystem", "Linux").put("tenancy", "Shared").put("preInstalledSw", "NA");
    a.put("capacitystatus", "Used").put("licenseModel", "No License required");
    a.put("operation", "RunInstances").put("marketoption", "OnDemand");
    var prefix = region == null || region.equals("us-east-1") ? "" : usagePrefix(region);
    a.put("usagetype", prefix + "BoxUsage:" + instanceType);
    a.put("vcpu", "8").put("memory", "32 GiB").put("storage", "EBS only");
    product.put("sku", sku);
    root.put("serviceCode", "AmazonEC2");
    var description = "$" + usdPerHour + " per On Demand Linux " + instanceType + " Instance Hour";
    terms(root, sku, usdPerHour, description);
    // A reserved term with an hourly part of its own: never the on-demand price.
    var reserved =
        ((ObjectNode) root.get("terms")).putObject("Reserved").putObject(sku + ".4NA7Y494T4");
    reserved.put("sku", sku).put("offerTermCode", "4NA7Y494T4");
    var dims = reserved.putObject("priceDimensions");
    dimension(dims, sku + ".4NA7Y494T4.2TG2D8R56U", "Quantity", "Upfront Fee", "1234");
    dimension(dims, sku + ".4NA7Y494T4.6YS6EN2CT7", "Hrs", "Linux (Amazon VPC)", "0.1400000000");
    reserved
        .putObject("termAttributes")
        .put("LeaseContractLength", "1yr")
        .put("OfferingClass", "standard")
        .put("PurchaseOption", "Partial Upfront");
    return root;
  }

  /** A SageMaker {@code ML Instance} product of one component (Training, Hosting, Notebook). */
  static ObjectNode sageMaker(String instanceName, String component, String region, String usd) {
    var sku = sku("SM" + instanceName + component + region);
    var root = JSON.createObjectNode();
    var product = root.putObject("product").put("productFamily", "ML Instance");
    var a = product.putObject("attributes");
    a.put("servicecode", "AmazonSageMaker").put("servicename", "Amazon SageMaker");
    a.put("instanceName", instanceName).put("instanceType", instanceName + "-" + component);
    a.put("component", component).put("computeType", "Standard Instances");
    a.put("regionCode", region).put("location", "US East (N. Virginia)");
    a.put("locationType", "AWS Region").put("operation", "RunInstance");
    var usage = component.equals("Training") ? "Train:" : "Host:";
    a.put("usagetype", usagePrefix(region) + usage + instanceName);
    a.put("vCpu", "8").put("memory", "32 GiB").put("gpu", "0").put("currentGeneration", "Yes");
    product.put("sku", sku);
    root.put("serviceCode", "AmazonSageMaker");
    terms(root, sku, usd, "$" + usd + " per " + component + " " + instanceName + " hour");
    return root;
  }

  private static void terms(ObjectNode root, String sku, String usd, String description) {
    var term = root.putObject("terms").putObject("OnDemand").putObject(sku + ".JRTCKXETXF");
    term.put("sku", sku).put("effectiveDate", "2026-11-01T00:00:00Z");
    term.put("offerTermCode", "JRTCKXETXF");
    var dims = term.putObject("priceDimensions");
    dimension(dims, sku + ".JRTCKXETXF.6YS6EN2CT7", "Hrs", description, usd);
    term.putObject("termAttributes");
    root.put("version", "20261120000000").put("publicationDate", "2026-11-20T00:00:00Z");
  }

  private static void dimension(
      ObjectNode dims, String rateCode, String unit, String description, String usd) {
    var d = dims.putObject(rateCode);
    d.put("unit", unit).put("endRange", "Inf").put("description", description);
    d.putArray("appliesTo");
    d.put("rateCode", rateCode).put("beginRange", "0");
    d.putObject("pricePerUnit").put("USD", usd);
  }

  private static String usagePrefix(String region) {
    return USAGE_PREFIX.getOrDefault(region, "");
  }

  private static String sku(String seed) {
    var hex = Integer.toHexString(seed.hashCode()).toUpperCase(Locale.ROOT);
    return ("SKU" + hex + "QQQQQQQQ").substring(0, 16);
  }
}
