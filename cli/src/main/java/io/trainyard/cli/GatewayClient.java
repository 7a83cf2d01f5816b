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
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The gateway's REST API over {@link HttpClient}. Answers of 2xx come back as their body; anything
 * else becomes a {@link CliException} ready to print. Never prints or logs the token.
 */
final class GatewayClient {
  static final String USER_AGENT = "trainyard-cli";
  static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

  private final URI base;
  private final String token;
  private final ObjectMapper json;
  private final HttpClient http;
  private final Duration requestTimeout;
  private final Duration connectTimeout;

  /**
   * @param token the bearer token, or null to send none
   */
  GatewayClient(URI base, String token, ObjectMapper json) {
    this(base, token, json, DEFAULT_TIMEOUT);
  }

  /**
   * @param timeout how long one request may take (a followed log stream excepted); connecting gives
   *     up after the shorter of this and 10 s
   */
  GatewayClient(URI base, String token, ObjectMapper json, Duration timeout) {
    this.base = base;
    this.token = token;
    this.json = json;
    this.requestTimeout = timeout;
    this.connectTimeout = timeout.compareTo(CONNECT_TIMEOUT) < 0 ? timeout : CONNECT_TIMEOUT;
    // HTTP/1.1: the JDK would otherwise try an h2c upgrade on every plain-http request.
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(connectTimeout)
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
              requestWithoutTimeout(path).timeout(requestTimeout).GET().build(),
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
        throw ErrorReport.from(response.statusCode(), body, json, token, Instant.now());
      }
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        onLine.accept(line);
      }
    } catch (IOException e) {
      throw CliException.of(
          ExitStatus.GATEWAY_ERROR,
          "the log stream from " + base + " broke off: " + describe(e),
          List.of());
    }
  }

  /** Parses a 2xx body. */
  /**
   * The gateway's answer as a tree for the CLI's views, each text value as a terminal should show
   * it ({@link TerminalText#visibleTree}); {@code --output json} prints the body as received.
   */
  JsonNode parse(String body) {
    try {
      return TerminalText.visibleTree(json.readTree(body));
    } catch (JsonProcessingException e) {
      throw CliException.of(
          ExitStatus.GATEWAY_ERROR,
          "the gateway at " + base + " answered something that is not JSON",
          List.of("  is --url (or TRAINYARD_URL) the gateway's application port?"));
    }
  }

  private HttpRequest.Builder request(String path) {
    return requestWithoutTimeout(path).timeout(requestTimeout).header("Accept", "application/json");
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
      throw ErrorReport.from(response.statusCode(), response.body(), json, token, Instant.now());
    }
    return response.body();
  }

  private CliException failure(IOException e) {
    // The JDK wraps an unresolved host in a ConnectException: look for the most specific cause.
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof UnknownHostException || cause instanceof UnresolvedAddressException) {
        return CliException.unreachable(base.toString(), "unknown host " + base.getHost());
      }
      if (cause instanceof HttpConnectTimeoutException) {
        return CliException.unreachable(
            base.toString(), "no connection within " + HumanDuration.format(connectTimeout));
      }
    }
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof ConnectException) {
        return CliException.unreachable(base.toString(), "connection refused");
      }
    }
    if (e instanceof HttpTimeoutException) {
      return CliException.of(
          ExitStatus.GATEWAY_ERROR,
          "the gateway at "
              + base
              + " did not answer within "
              + HumanDuration.format(requestTimeout),
          List.of("  a slow network? set TRAINYARD_TIMEOUT (e.g. 2m) to wait longer"));
    }
    return CliException.of(
        ExitStatus.GATEWAY_ERROR, "the request to " + base + " failed: " + describe(e), List.of());
  }

  private static String describe(IOException e) {
    return e.getMessage() == null || e.getMessage().isBlank()
        ? e.getClass().getSimpleName()
        : e.getMessage();
  }
}
