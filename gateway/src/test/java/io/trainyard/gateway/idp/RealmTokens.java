package io.trainyard.gateway.idp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;

/** Tokens from a Keycloak realm's token endpoint, as a client application asks for them. */
final class RealmTokens {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final String issuer;

  RealmTokens(String serverUrl, String realm) {
    this.issuer = serverUrl + "/realms/" + realm;
  }

  String issuer() {
    return issuer;
  }

  String tokenEndpoint() {
    return issuer + "/protocol/openid-connect/token";
  }

  /** An access token by the password grant. */
  String passwordToken(String client, String user, String password) {
    return tokenResponse(
            Map.of(
                "grant_type", "password",
                "client_id", client,
                "username", user,
                "password", password,
                "scope", "openid"))
        .get("access_token")
        .asText();
  }

  /** The token endpoint's answer to a form; fails the test unless it is 200. */
  JsonNode tokenResponse(Map<String, String> form) {
    var body =
        form.entrySet().stream()
            .map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
            .collect(Collectors.joining("&"));
    var request =
        HttpRequest.newBuilder(URI.create(tokenEndpoint()))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .timeout(Duration.ofSeconds(30))
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    try {
      var response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new AssertionError(
            "token endpoint answered " + response.statusCode() + ": " + response.body());
      }
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
