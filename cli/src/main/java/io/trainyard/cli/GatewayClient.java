package io.trainyard.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The gateway's REST API over {@link HttpClient}. Answers of 2xx come back as their body; anything
 * else becomes a {@link CliException} ready to print. Never prints or logs the token.
 */
final class GatewayClient {
  static final String USER_AGENT = "trainyard-cli";
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

  private final URI base;
  private final String token;
  private final ObjectMapper json;
  private final HttpClient http;

  /**
   * @param token the bearer token, or null to send none
   */
  GatewayClient(URI base, String token, ObjectMapper json) {
    this.base = base;
    this.token = token;
    this.json = json;
    // HTTP/1.1: the JDK would otherwise try an h2c upgrade on every plain-http request.
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT)
            .build();
  }

  URI base() {
    return base;
  }

  String get(String path) {
    return send(request(path).GET().build());
  }

  /** A download: the body's bytes as sent. */
  byte[] getBytes(String path) {
    HttpResponse<byte[]> response;
    try {
      response =
          http.send(
              requestWithoutTimeout(path).timeout(REQUEST_TIMEOUT).GET().build(),
              HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw failure(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw CliException.failed("interrupted");
    }
    if (response.statusCode() >= 400) {
      throw ErrorReport.from(
          response.statusCode(),
          new String(response.body(), StandardCharsets.UTF_8),
          json,
          token != null);
    }
    return response.body();
  }

  String delete(String path) {
    return send(request(path).DELETE().build());
  }

  String post(String path, byte[] body, String contentType, Map<String, String> headers) {
    var request =
        request(path)
            .header("Content-Type", contentType)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    headers.forEach(request::header);
    return send(request.build());
  }

  String put(String path, byte[] body, String contentType) {
    return send(
        request(path)
            .header("Content-Type", contentType)
            .PUT(HttpRequest.BodyPublishers.ofByteArray(body))
            .build());
  }

  /**
   * Reads a {@code text/plain} answer line by line, handing each line over as soon as it arrives;
   * returns when the gateway ends the stream.
   */
  void streamLines(String path, Consumer<String> onLine) {
    // No request timeout: a followed log stays open for as long as the job runs.
    var request = requestWithoutTimeout(path).header("Accept", "text/plain").GET().build();
    HttpResponse<InputStream> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (IOException e) {
      throw failure(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw CliException.failed("interrupted");
    }
    try (var reader =
        new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
      if (response.statusCode() >= 400) {
        String body = new String(response.body().readAllBytes(), StandardCharsets.UTF_8);
        throw ErrorReport.from(response.statusCode(), body, json, token != null);
      }
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        onLine.accept(line);
      }
    } catch (IOException e) {
      throw CliException.failed("the log stream from " + base + " broke off: " + describe(e));
    }
  }

  /** Parses a 2xx body. */
  JsonNode parse(String body) {
    try {
      return json.readTree(body);
    } catch (JsonProcessingException e) {
      throw CliException.failed("the gateway at " + base + " answered something that is not JSON");
    }
  }

  private HttpRequest.Builder request(String path) {
    return requestWithoutTimeout(path)
        .timeout(REQUEST_TIMEOUT)
        .header("Accept", "application/json");
  }

  private HttpRequest.Builder requestWithoutTimeout(String path) {
    var request = HttpRequest.newBuilder(URI.create(base + path)).header("User-Agent", USER_AGENT);
    if (token != null) {
      request.header("Authorization", "Bearer " + token);
    }
    return request;
  }

  private String send(HttpRequest request) {
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw failure(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw CliException.failed("interrupted");
    }
    if (response.statusCode() >= 400) {
      throw ErrorReport.from(response.statusCode(), response.body(), json, token != null);
    }
    return response.body();
  }

  private CliException failure(IOException e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof ConnectException
          || cause instanceof HttpConnectTimeoutException
          || cause instanceof UnknownHostException
          || cause instanceof UnresolvedAddressException) {
        return CliException.unreachable(base.toString());
      }
    }
    if (e instanceof HttpTimeoutException) {
      return CliException.failed(
          "the gateway at "
              + base
              + " did not answer within "
              + REQUEST_TIMEOUT.toSeconds()
              + " s");
    }
    return CliException.failed("the request to " + base + " failed: " + describe(e));
  }

  private static String describe(IOException e) {
    return e.getMessage() == null || e.getMessage().isBlank()
        ? e.getClass().getSimpleName()
        : e.getMessage();
  }
}
