package io.trainyard.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The OAuth side of the CLI: OIDC discovery, the device authorization grant (RFC 8628), the
 * password grant and refreshing, against any OIDC IdP (Keycloak here). Public client: no secret.
 * Never prints or logs a token or password.
 */
final class IdpClient {
  static final String DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  /** The endpoints discovery names. */
  record Endpoints(String tokenEndpoint, String deviceEndpoint) {}

  /**
   * What the device endpoint hands out: a code for the person, one for us, and the PKCE verifier
   * that must come with our polls.
   */
  record DeviceCode(
      String deviceCode,
      String userCode,
      String verificationUri,
      String verificationUriComplete,
      Duration expiresIn,
      Duration interval,
      String codeVerifier) {}

  /** A token endpoint answer: tokens, or an OAuth error code. */
  record TokenAnswer(JsonNode body, String error, String errorDescription) {
    boolean ok() {
      return error == null;
    }
  }

  private final HttpClient http;
  private final ObjectMapper json;

  IdpClient(ObjectMapper json) {
    this.json = json;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
  }

  Endpoints discover(String issuer) {
    var where = issuer.replaceAll("/+$", "") + "/.well-known/openid-configuration";
    var response = send(HttpRequest.newBuilder(uri(where)).GET(), issuer);
    if (response.statusCode() != 200) {
      throw CliException.failed(
          "the IdP at " + issuer + " has no OIDC discovery (HTTP " + response.statusCode() + ")");
    }
    var document = parse(response.body(), issuer);
    var token = document.path("token_endpoint").asText(null);
    if (token == null) {
      throw CliException.failed("the IdP at " + issuer + " names no token endpoint");
    }
    return new Endpoints(token, document.path("device_authorization_endpoint").asText(null));
  }

  DeviceCode startDeviceLogin(Endpoints endpoints, String clientId) {
    if (endpoints.deviceEndpoint() == null) {
      throw CliException.failed(
          "the IdP offers no device login; use `trainyard login --password` if the realm allows it");
    }
    // PKCE (RFC 7636) on the device grant too: Keycloak insists on it for a client that requires
    // PKCE, and an IdP that does not know it ignores the parameters.
    var verifier = Pkce.verifier();
    var response =
        post(
            endpoints.deviceEndpoint(),
            Map.of(
                "client_id",
                clientId,
                "code_challenge",
                Pkce.challenge(verifier),
                "code_challenge_method",
                "S256"));
    var body = parse(response.body(), endpoints.deviceEndpoint());
    if (response.statusCode() != 200) {
      throw CliException.failed(
          "the IdP refused a device login for client "
              + clientId
              + ": "
              + describe(body)
              + " (is the device grant enabled for it?)");
    }
    return new DeviceCode(
        body.path("device_code").asText(),
        body.path("user_code").asText(),
        body.path("verification_uri").asText(),
        body.path("verification_uri_complete").asText(null),
        Duration.ofSeconds(body.path("expires_in").asLong(600)),
        Duration.ofSeconds(body.path("interval").asLong(5)),
        verifier);
  }

  /** Posts a grant to the token endpoint. */
  TokenAnswer token(String tokenEndpoint, Map<String, String> form) {
    var response = post(tokenEndpoint, form);
    var body = parse(response.body(), tokenEndpoint);
    if (response.statusCode() == 200 && body.hasNonNull("access_token")) {
      return new TokenAnswer(body, null, null);
    }
    var error = body.path("error").asText("HTTP " + response.statusCode());
    return new TokenAnswer(body, error, body.path("error_description").asText(null));
  }

  /** The login to cache from a successful token answer. */
  static StoredLogin login(
      TokenAnswer answer, String issuer, String clientId, String tokenEndpoint, Instant now) {
    var body = answer.body();
    var refreshIn = body.path("refresh_expires_in").asLong(0);
    var access = body.path("access_token").asText();
    return new StoredLogin(
        issuer,
        clientId,
        tokenEndpoint,
        usernameIn(access),
        access,
        now.plusSeconds(body.path("expires_in").asLong(60)),
        body.path("refresh_token").asText(null),
        // Keycloak says 0 for a refresh token without an end of its own (offline access).
        refreshIn > 0 ? now.plusSeconds(refreshIn) : null);
  }

  /**
   * Who the token is for, only to tell the person who they are logged in as: read without checking
   * the signature, which is the gateway's job.
   */
  static String usernameIn(String accessToken) {
    var parts = accessToken.split("\\.");
    if (parts.length < 2) {
      return null;
    }
    try {
      var claims = new ObjectMapper().readTree(Base64.getUrlDecoder().decode(parts[1]));
      return claims.path("preferred_username").asText(claims.path("sub").asText(null));
    } catch (IOException | IllegalArgumentException e) {
      return null;
    }
  }

  static String describe(JsonNode errorBody) {
    var error = errorBody.path("error").asText("unknown error");
    var description = errorBody.path("error_description").asText(null);
    return description == null ? error : error + " (" + description + ")";
  }

  private HttpResponse<String> post(String endpoint, Map<String, String> form) {
    var body =
        new LinkedHashMap<>(form)
            .entrySet().stream()
                .map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
                .collect(Collectors.joining("&"));
    return send(
        HttpRequest.newBuilder(uri(endpoint))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(body)),
        endpoint);
  }

  private HttpResponse<String> send(HttpRequest.Builder request, String where) {
    try {
      return http.send(
          request.timeout(TIMEOUT).header("Accept", "application/json").build(),
          HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw CliException.of(
          ExitStatus.UNREACHABLE, "cannot reach the IdP at " + where + ": " + e, List.of());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw CliException.failed("interrupted");
    }
  }

  private JsonNode parse(String body, String where) {
    try {
      return json.readTree(body);
    } catch (JsonProcessingException e) {
      throw CliException.failed("the IdP at " + where + " answered something that is not JSON");
    }
  }

  private static URI uri(String value) {
    try {
      return URI.create(value);
    } catch (IllegalArgumentException e) {
      throw CliException.usage("not a URL: " + value);
    }
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
