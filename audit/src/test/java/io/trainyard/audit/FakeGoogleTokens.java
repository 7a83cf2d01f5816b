package io.trainyard.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Google's OAuth 2.0 token endpoint for one service account, as {@link FakeGcsServer} serves it at
 * {@code POST /token}: the JWT-bearer grant (RFC 7523) the way Google takes it — the assertion
 * RS256-signed by the account's key (the one in {@link #keyJson}), {@code iss} the account, {@code
 * aud} https://oauth2.googleapis.com/token, {@code scope} a devstorage scope, at most an hour
 * between {@code iat} and {@code exp} — answered with {@code {access_token, expires_in,
 * token_type}}, or 400 {@code invalid_grant} saying what was wrong ("Invalid JWT Signature." for a
 * key it does not know, as Google says). It remembers each token's scope for the storage API.
 */
final class FakeGoogleTokens {
  static final String CLIENT_EMAIL = "trainyard-audit@ml-prod.iam.gserviceaccount.com";
  static final String PROJECT = "ml-prod";
  static final String AUDIENCE = "https://oauth2.googleapis.com/token";

  private static final String SCOPES = "https://www.googleapis.com/auth/devstorage.";
  private static final Set<String> READ_SCOPES =
      Set.of(SCOPES + "read_only", SCOPES + "read_write", SCOPES + "full_control");
  private static final Set<String> WRITE_SCOPES =
      Set.of(SCOPES + "read_write", SCOPES + "full_control");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final KeyPair keys = newKeyPair();
  private final Map<String, String> scopeOfToken = new ConcurrentHashMap<>();
  private final AtomicInteger tokens = new AtomicInteger();
  private final List<String> refusals = Collections.synchronizedList(new ArrayList<>());

  /** The account's key file, as the Cloud console downloads it, with {@code tokenUri}. */
  String keyJson(String tokenUri) {
    return keyJson(keys, tokenUri);
  }

  /** A key file for the same account with another key, which this endpoint does not know. */
  String otherKeyJson(String tokenUri) {
    return keyJson(newKeyPair(), tokenUri);
  }

  /** Whether {@code bearer} was granted here with a scope for reading, or for writing. */
  boolean allows(String bearer, boolean read) {
    var scope = bearer == null ? null : scopeOfToken.get(bearer);
    return scope != null && (read ? READ_SCOPES : WRITE_SCOPES).contains(scope);
  }

  /** Why grants were refused, since the last call; clears them. */
  List<String> takeRefusals() {
    synchronized (refusals) {
      var taken = List.copyOf(refusals);
      refusals.clear();
      return taken;
    }
  }

  /** Answers one grant request. */
  void grant(HttpExchange exchange) throws IOException {
    var form = new HashMap<String, String>();
    var body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    for (var pair : body.split("&")) {
      var eq = pair.indexOf('=');
      if (eq > 0) { // application/x-www-form-urlencoded: here a + is a space
        form.put(
            URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    var problem = checkGrant(form);
    if (problem != null) {
      refusals.add(problem);
      json(exchange, 400, Map.of("error", "invalid_grant", "error_description", problem));
      return;
    }
    var token = "ya29.fake-" + tokens.incrementAndGet();
    scopeOfToken.put(token, claims(form.get("assertion")).path("scope").asText());
    json(exchange, 200, Map.of("access_token", token, "expires_in", 3599, "token_type", "Bearer"));
  }

  /** What is wrong with the grant, or null. */
  private String checkGrant(Map<String, String> form) {
    if (!"urn:ietf:params:oauth:grant-type:jwt-bearer".equals(form.get("grant_type"))) {
      return "grant_type is " + form.get("grant_type");
    }
    var parts = form.getOrDefault("assertion", "").split("\\.", -1);
    if (parts.length != 3) {
      return "assertion is not a compact JWS";
    }
    try {
      var header = JSON.readTree(Base64.getUrlDecoder().decode(parts[0]));
      if (!header.path("alg").asText().equals("RS256")) {
        return "alg is " + header.path("alg").asText();
      }
      var verifier = Signature.getInstance("SHA256withRSA");
      verifier.initVerify(keys.getPublic());
      verifier.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
      if (!verifier.verify(Base64.getUrlDecoder().decode(parts[2]))) {
        return "Invalid JWT Signature.";
      }
      var claims = claims(form.get("assertion"));
      if (!claims.path("iss").asText().equals(CLIENT_EMAIL)) {
        return "iss is " + claims.path("iss").asText();
      }
      if (!claims.path("aud").asText().equals(AUDIENCE)) {
        return "aud is " + claims.path("aud").asText();
      }
      if (!READ_SCOPES.contains(claims.path("scope").asText())) {
        return "scope is " + claims.path("scope").asText();
      }
      long iat = claims.path("iat").asLong();
      long exp = claims.path("exp").asLong();
      if (iat <= 0 || exp <= iat || exp - iat > 3600) {
        return "iat/exp are " + iat + "/" + exp;
      }
      return null;
    } catch (GeneralSecurityException | IOException | IllegalArgumentException e) {
      return "assertion unreadable: " + e;
    }
  }

  private static JsonNode claims(String assertion) throws IOException {
    return JSON.readTree(Base64.getUrlDecoder().decode(assertion.split("\\.")[1]));
  }

  private static String keyJson(KeyPair pair, String tokenUri) {
    var pem =
        "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(pair.getPrivate().getEncoded())
            + "\n-----END PRIVATE KEY-----\n";
    var key = new LinkedHashMap<String, Object>();
    key.put("type", "service_account");
    key.put("project_id", PROJECT);
    key.put("private_key_id", "5b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e");
    key.put("private_key", pem);
    key.put("client_email", CLIENT_EMAIL);
    key.put("client_id", "104729374628163547284");
    key.put("auth_uri", "https://accounts.google.com/o/oauth2/auth");
    key.put("token_uri", tokenUri);
    try {
      return JSON.writerWithDefaultPrettyPrinter().writeValueAsString(key);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static KeyPair newKeyPair() {
    try {
      var generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void json(HttpExchange exchange, int status, Object body) throws IOException {
    var bytes = JSON.writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/json; charset=UTF-8");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }
}
