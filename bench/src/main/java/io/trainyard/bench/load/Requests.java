package io.trainyard.bench.load;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.regex.Pattern;

/** One-off calls a scenario makes to set itself up (not measured). */
public final class Requests {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");

  private Requests() {}

  /** Submits {@code yaml} as {@code token}'s caller and returns the job's id. */
  public static String submit(GatewayProcess gateway, String token, String yaml) {
    var response =
        send(
            HttpRequest.newBuilder(gateway.app("/v1/jobs"))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/yaml")
                .POST(HttpRequest.BodyPublishers.ofString(yaml))
                .build());
    if (response.statusCode() != 201 && response.statusCode() != 200) {
      throw new IllegalStateException(
          "submit answered " + response.statusCode() + ": " + response.body());
    }
    var m = ID.matcher(response.body());
    if (!m.find()) {
      throw new IllegalStateException("no id in " + response.body());
    }
    return m.group(1);
  }

  /** Sends {@code request} and returns the answer as text. */
  public static HttpResponse<String> send(HttpRequest request) {
    try {
      return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException(request.uri() + ": " + e, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
