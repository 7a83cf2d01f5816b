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
import java.util.Set;

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

  /**
   * Polls {@code GET /v1/jobs/{id}} until the job is in {@code state}, for up to 60 s.
   *
   * @return the job as it then is
   */
  public JsonNode awaitState(String id, String state, String token) {
    return poll(id, token, Set.of(state), Duration.ofSeconds(60));
  }

  /**
   * Polls {@code GET /v1/jobs/{id}} until the job has ended (SUCCEEDED, FAILED or CANCELLED), for
   * up to 90 s.
   *
   * @return the job as it then is
   */
  public JsonNode awaitEnd(String id, String token) {
    return poll(id, token, Set.of("SUCCEEDED", "FAILED", "CANCELLED"), Duration.ofSeconds(90));
  }

  private JsonNode poll(String id, String token, Set<String> states, Duration timeout) {
    var deadline = System.nanoTime() + timeout.toNanos();
    JsonNode job = null;
    while (System.nanoTime() < deadline) {
      job = get("/v1/jobs/" + id, token).json();
      if (states.contains(job.path("state").asText())) {
        return job;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    throw new AssertionError("job " + id + " never reached " + states + "; last: " + job);
  }

  /** A new temporary directory named after {@code prefix}, for a test gateway's dataDir. */
  public static java.nio.file.Path tempDir(String prefix) {
    try {
      return java.nio.file.Files.createTempDirectory(prefix);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
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
