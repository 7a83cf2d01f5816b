package io.trainyard.gateway.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/** A plain HTTP client of the gateway for tests: what a user's tool would send. */
public final class GatewayClient {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A response with its body parsed, when it is JSON. */
  public record Answer(int status, String body, Map<String, java.util.List<String>> headers) {
    public JsonNode json() {
      try {
        return JSON.readTree(body);
      } catch (IOException e) {
        throw new UncheckedIOException("not JSON: " + body, e);
      }
    }
  }

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final String base;

  public GatewayClient(int port) {
    this.base = "http://127.0.0.1:" + port;
  }

  public Answer get(String path, String token) {
    return send(request(path, token).GET().build());
  }

  public Answer delete(String path, String token) {
    return send(request(path, token).DELETE().build());
  }

  public Answer post(
      String path, String token, String contentType, String body, String... headers) {
    var r = request(path, token).header("Content-Type", contentType);
    for (int i = 0; i < headers.length; i += 2) {
      r.header(headers[i], headers[i + 1]);
    }
    return send(r.POST(HttpRequest.BodyPublishers.ofString(body)).build());
  }

  public Answer postBytes(String path, String token, String contentType, byte[] body) {
    return send(
        request(path, token)
            .header("Content-Type", contentType)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build());
  }

  private HttpRequest.Builder request(String path, String token) {
    var r = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(120));
    if (token != null) {
      r.header("Authorization", "Bearer " + token);
    }
    return r;
  }

  private Answer send(HttpRequest request) {
    try {
      var response = http.send(request, HttpResponse.BodyHandlers.ofString());
      return new Answer(response.statusCode(), response.body(), response.headers().map());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
