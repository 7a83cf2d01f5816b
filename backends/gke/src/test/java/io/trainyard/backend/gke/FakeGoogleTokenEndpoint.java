package io.trainyard.backend.gke;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Google's OAuth 2.0 token endpoint for service accounts, on 127.0.0.1: it holds the public half of
 * an RSA key pair made for the test and answers the JWT-bearer grant (RFC 7523) the way {@code
 * oauth2.googleapis.com/token} does — the assertion must be RS256-signed by that key, with {@code
 * kid} the key's id, {@code iss} the service account, {@code aud} Google's token audience and
 * {@code scope} cloud-platform — with {@code {access_token, expires_in, token_type}}, or 400 {@code
 * invalid_grant} naming what was wrong. Tokens are {@code ya29.fake-<n>}, n counting from 1.
 */
final class FakeGoogleTokenEndpoint implements AutoCloseable {
  static final String CLIENT_EMAIL = "trainyard-gke@ml-prod.iam.gserviceaccount.com";
  static final String JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

  /**
   * The assertion's {@code aud}: Google documents it as "always
   * https://oauth2.googleapis.com/token" for an access-token request, and google-auth-library sends
   * that whatever the key's {@code token_uri} says (the URI only decides where the grant is
   * posted).
   */
  static final String AUDIENCE = "https://oauth2.googleapis.com/token";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final KeyPair keys;
  private final String keyId = "4f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c";
  private final AtomicInteger calls = new AtomicInteger();
  private final AtomicInteger issued = new AtomicInteger();
  private final List<String> refusals = Collections.synchronizedList(new ArrayList<>());
  private volatile Duration expiresIn = Duration.ofHours(1);
  private volatile boolean revoked;

  FakeGoogleTokenEndpoint() {
    try {
      var generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      keys = generator.generateKeyPair();
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
    server.createContext("/token", this::token);
    server.start();
  }

  String tokenUri() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/token";
  }

  /** Writes a service-account key JSON, as the Cloud console downloads it, naming this endpoint. */
  Path writeKey(Path file) {
    var pem =
        "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(keys.getPrivate().getEncoded())
            + "\n-----END PRIVATE KEY-----\n";
    var key = new LinkedHashMap<String, Object>();
    key.put("type", "service_account");
    key.put("project_id", "ml-prod");
    key.put("private_key_id", keyId);
    key.put("private_key", pem);
    key.put("client_email", CLIENT_EMAIL);
    key.put("client_id", "104729374628163547283");
    key.put("auth_uri", "https://accounts.google.com/o/oauth2/auth");
    key.put("token_uri", tokenUri());
    try {
      Files.writeString(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(key));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }

  /** The {@code expires_in} of tokens issued from now on. */
  void expiresIn(Duration lifetime) {
    expiresIn = lifetime;
  }

  /** From now on, answer as Google does for a deleted key: 400 invalid_grant. */
  void revokeKey() {
    revoked = true;
  }

  /** Requests received, granted or not. */
  int calls() {
    return calls.get();
  }

  /** Tokens granted. */
  int issued() {
    return issued.get();
  }

  /** Why requests were refused, other than a revoked key; empty when every grant was valid. */
  List<String> refusals() {
    return List.copyOf(refusals);
  }

  /** Whether this endpoint granted {@code token}. */
  boolean hasIssued(String token) {
    for (var n = 1; n <= issued.get(); n++) {
      if (token(n).equals(token)) {
        return true;
      }
    }
    return false;
  }

  static String token(int n) {
    return "ya29.fake-" + n;
  }

  private void token(HttpExchange exchange) throws IOException {
    calls.incrementAndGet();
    try (exchange) {
      if (!exchange.getRequestMethod().equals("POST")) {
        answer(exchange, 405, Map.of("error", "invalid_request"));
        return;
      }
      var form = form(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      var problem = check(form);
      if (problem != null) {
        refusals.add(problem);
        answer(exchange, 400, Map.of("error", "invalid_grant", "error_description", problem));
      } else if (revoked) {
        answer(
            exchange,
            400,
            Map.of("error", "invalid_grant", "error_description", "Invalid JWT Signature."));
      } else {
        var n = issued.incrementAndGet();
        answer(
            exchange,
            200,
            Map.of(
                "access_token", token(n),
                "expires_in", expiresIn.toSeconds(),
                "token_type", "Bearer"));
      }
    }
  }

  /** What is wrong with the grant, or null. */
  private String check(Map<String, String> form) {
    if (!JWT_BEARER.equals(form.get("grant_type"))) {
      return "grant_type is " + form.get("grant_type");
    }
    var assertion = form.getOrDefault("assertion", "");
    var parts = assertion.split("\\.", -1);
    if (parts.length != 3) {
      return "assertion is not a compact JWS";
    }
    try {
      var header = json(parts[0]);
      if (!header.path("alg").asText().equals("RS256")) {
        return "alg is " + header.path("alg").asText();
      }
      if (!header.path("kid").asText().equals(keyId)) {
        return "kid is " + header.path("kid").asText();
      }
      var verifier = Signature.getInstance("SHA256withRSA");
      verifier.initVerify(keys.getPublic());
      verifier.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
      if (!verifier.verify(Base64.getUrlDecoder().decode(parts[2]))) {
        return "signature does not verify";
      }
      var claims = json(parts[1]);
      if (!claims.path("iss").asText().equals(CLIENT_EMAIL)) {
        return "iss is " + claims.path("iss").asText();
      }
      if (!claims.path("aud").asText().equals(AUDIENCE)) {
        return "aud is " + claims.path("aud").asText();
      }
      if (!claims.path("scope").asText().equals(GkeCredentials.CLOUD_PLATFORM)) {
        return "scope is " + claims.path("scope").asText();
      }
      var iat = claims.path("iat").asLong();
      var exp = claims.path("exp").asLong();
      if (iat <= 0 || exp <= iat || exp - iat > 3600) {
        return "iat/exp are " + iat + "/" + exp;
      }
      return null;
    } catch (GeneralSecurityException | IOException | IllegalArgumentException e) {
      return "assertion unreadable: " + e;
    }
  }

  private static JsonNode json(String base64Url) throws IOException {
    return JSON.readTree(Base64.getUrlDecoder().decode(base64Url));
  }

  private static Map<String, String> form(String body) {
    var form = new HashMap<String, String>();
    for (var pair : body.split("&")) {
      var eq = pair.indexOf('=');
      if (eq > 0) {
        form.put(
            URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return form;
  }

  private static void answer(HttpExchange exchange, int status, Map<String, ?> body)
      throws IOException {
    var bytes = JSON.writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
