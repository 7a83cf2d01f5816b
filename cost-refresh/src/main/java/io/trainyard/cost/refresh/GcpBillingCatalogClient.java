package io.trainyard.cost.refresh;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.auth.oauth2.GoogleCredentials;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * {@code GET /v1/services/{serviceId}/skus} of the Cloud Billing Catalog REST API, every page
 * ({@code pageToken} / {@code nextPageToken}), in USD. The google-cloud-billing gRPC client is not
 * available here, so this speaks the documented JSON over {@link HttpClient}.
 */
final class GcpBillingCatalogClient {
  /** Stops a server that keeps answering with new page tokens; Compute Engine needs about 10. */
  private static final int MAX_PAGES = 200;

  private static final int PAGE_SIZE = 5000;
  private static final String SCOPE = "https://www.googleapis.com/auth/cloud-platform";
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The SKUs read, and the ones skipped as malformed. */
  record Listing(List<GcpSku> skus, List<String> warnings) {}

  private final GcpBillingCatalogConfig config;
  private final GoogleCredentials credentials;
  private final HttpClient http;

  GcpBillingCatalogClient(GcpBillingCatalogConfig config) {
    this.config = config;
    this.credentials = config.apiKey() == null ? credentials(config) : null;
    this.http = HttpClient.newBuilder().connectTimeout(config.timeout()).build();
  }

  private static GoogleCredentials credentials(GcpBillingCatalogConfig config) {
    try (InputStream in = Files.newInputStream(config.credentialsFile())) {
      return GoogleCredentials.fromStream(in).createScoped(SCOPE);
    } catch (IOException | RuntimeException e) {
      throw new PriceRefreshException(
          PriceRefreshErrorCode.CONFIG_INVALID,
          "credentialsFile " + config.credentialsFile() + " is not usable: " + e.getMessage(),
          e);
    }
  }

  Listing skus(String serviceId) {
    var skus = new ArrayList<GcpSku>();
    var warnings = new ArrayList<String>();
    var seenTokens = new HashSet<String>();
    var token = "";
    for (var page = 0; page < MAX_PAGES; page++) {
      var body = page(serviceId, token);
      var entries = body.path("skus");
      if (!entries.isMissingNode() && !entries.isArray()) {
        throw unreadable(serviceId, "skus is not a list");
      }
      for (var entry : entries) {
        try {
          skus.add(GcpSku.parse(entry));
        } catch (IllegalArgumentException e) {
          warnings.add("services/" + serviceId + ": skipped a SKU: " + e.getMessage());
        }
      }
      token = body.path("nextPageToken").asText("");
      if (token.isEmpty()) {
        return new Listing(skus, warnings);
      }
      if (!seenTokens.add(token)) {
        throw unreadable(serviceId, "the same nextPageToken came back twice");
      }
    }
    throw unreadable(serviceId, "more than " + MAX_PAGES + " pages");
  }

  private JsonNode page(String serviceId, String pageToken) {
    var uri = uri(serviceId, pageToken);
    var request =
        HttpRequest.newBuilder(uri).timeout(config.timeout()).header("Accept", "application/json");
    authorize(request, uri);
    HttpResponse<byte[]> response;
    try {
      response = http.send(request.GET().build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new PriceRefreshException(
          PriceRefreshErrorCode.API_UNREACHABLE, action(serviceId) + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PriceRefreshException(
          PriceRefreshErrorCode.API_UNREACHABLE, action(serviceId) + ": interrupted", e);
    }
    JsonNode body;
    try {
      body = JSON.readTree(response.body());
    } catch (IOException e) {
      body = null;
    }
    if (response.statusCode() != 200) {
      throw refused(serviceId, response.statusCode(), body);
    }
    if (body == null || !body.isObject()) {
      throw unreadable(serviceId, "the answer is not a JSON object");
    }
    return body;
  }

  private URI uri(String serviceId, String pageToken) {
    var query = new StringBuilder("currencyCode=USD&pageSize=").append(PAGE_SIZE);
    if (!pageToken.isEmpty()) {
      query.append("&pageToken=").append(URLEncoder.encode(pageToken, StandardCharsets.UTF_8));
    }
    if (config.apiKey() != null) {
      query.append("&key=").append(URLEncoder.encode(config.apiKey(), StandardCharsets.UTF_8));
    }
    var base = config.endpoint().toString().replaceAll("/+$", "");
    return URI.create(base + "/v1/services/" + serviceId + "/skus?" + query);
  }

  private void authorize(HttpRequest.Builder request, URI uri) {
    if (credentials == null) {
      return;
    }
    try {
      credentials.getRequestMetadata(uri).forEach((k, vs) -> vs.forEach(v -> request.header(k, v)));
    } catch (IOException | RuntimeException e) {
      throw new PriceRefreshException(
          PriceRefreshErrorCode.CREDENTIALS_REFUSED,
          "no access token for credentialsFile " + config.credentialsFile() + ": " + e.getMessage(),
          e);
    }
  }

  /** Google's error body: {@code {"error": {"code": 403, "message": ..., "status": ...}}}. */
  private static PriceRefreshException refused(String serviceId, int status, JsonNode body) {
    var error = body == null ? null : body.path("error");
    var words =
        error == null || error.isMissingNode()
            ? "(no error body)"
            : error.path("status").asText("") + ": " + error.path("message").asText("");
    return new PriceRefreshException(
        PriceRefreshErrorCode.API_REFUSED, action(serviceId) + ": " + status + " " + words);
  }

  private static PriceRefreshException unreadable(String serviceId, String why) {
    return new PriceRefreshException(
        PriceRefreshErrorCode.RESPONSE_UNREADABLE, action(serviceId) + ": " + why);
  }

  private static String action(String serviceId) {
    return "GET services/" + serviceId + "/skus";
  }
}
