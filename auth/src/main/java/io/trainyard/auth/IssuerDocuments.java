package io.trainyard.auth;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Duration;

/**
 * Fetches an issuer's small public JSON documents: its discovery document and its key set. Each
 * answer is bounded in size and time, so a misbehaving endpoint cannot stall or flood the gateway.
 * Thread-safe.
 */
final class IssuerDocuments {
  static final String DISCOVERY_PATH = "/.well-known/openid-configuration";
  // Keycloak's key set with a handful of keys is a few KB; this leaves ample room for rotation.
  private static final int MAX_BYTES = 512 * 1024;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http;
  private final Duration timeout;

  IssuerDocuments(Duration timeout) {
    this.timeout = timeout;
    // Redirects are not followed: the keys come from where discovery says, or nowhere.
    this.http =
        HttpClient.newBuilder()
            .connectTimeout(timeout)
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();
  }

  /**
   * The issuer's {@code jwks_uri}, from its discovery document, which must name the same issuer
   * (OpenID Connect Discovery 1.0, section 4.3).
   */
  URI discoverJwksUri(String issuer) throws IOException, ParseException {
    URI where = URI.create(issuer.replaceAll("/+$", "") + DISCOVERY_PATH);
    JsonNode document;
    try {
      document = JSON.readTree(get(where));
    } catch (JsonProcessingException e) {
      throw new ParseException("the discovery document at " + where + " is not JSON", 0);
    }
    String named = document.path("issuer").asText(null);
    if (!issuer.equals(named)) {
      throw new ParseException(
          "the discovery document at " + where + " names issuer " + named + ", not " + issuer, 0);
    }
    String jwksUri = document.path("jwks_uri").asText(null);
    if (jwksUri == null || !(jwksUri.startsWith("https://") || jwksUri.startsWith("http://"))) {
      throw new ParseException("the discovery document at " + where + " has no jwks_uri", 0);
    }
    return URI.create(jwksUri);
  }

  /** The body of a 200 answer to a GET of {@code uri}. */
  String get(URI uri) throws IOException {
    var request =
        HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", "application/json").GET();
    HttpResponse<InputStream> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while fetching " + uri, e);
    }
    try (InputStream body = response.body()) {
      byte[] bytes = body.readNBytes(MAX_BYTES + 1);
      if (response.statusCode() != 200) {
        throw new IOException(uri + " answered HTTP " + response.statusCode());
      }
      if (bytes.length > MAX_BYTES) {
        throw new IOException(uri + " answered more than " + MAX_BYTES + " bytes");
      }
      return new String(bytes, StandardCharsets.UTF_8);
    }
  }
}
