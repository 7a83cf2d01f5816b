package io.trainyard.bench.submit;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * (A copy of the gateway tests' TestIssuer, which bench cannot depend on.) A minimal OIDC issuer on
 * 127.0.0.1: discovery and JWKS over HTTP, tokens minted in-process with the same claims Keycloak
 * puts in them ({@code groups}, {@code realm_access.roles}). Gateways in {@code auth.mode: oidc}
 * verify these tokens through their real path. Needed because dev auth refuses PostgreSQL, and
 * Keycloak's 25 s start and 500 MB are too dear for load and crash tests. Thread-safe.
 */
final class BenchIssuer implements AutoCloseable {
  private final HttpServer server;
  private final RSAKey key;
  private final String issuer;

  private BenchIssuer(HttpServer server, RSAKey key, String issuer) {
    this.server = server;
    this.key = key;
    this.issuer = issuer;
  }

  /** Starts serving on a free loopback port. */
  public static BenchIssuer start() {
    try {
      var key = new RSAKeyGenerator(2048).keyID("test-" + UUID.randomUUID()).generate();
      var server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
      var issuer = "http://127.0.0.1:" + server.getAddress().getPort() + "/realms/test";
      var discovery = "{\"issuer\":\"" + issuer + "\",\"jwks_uri\":\"" + issuer + "/certs\"}";
      var jwks = new JWKSet(key.toPublicJWK()).toString();
      server.createContext(
          "/realms/test/.well-known/openid-configuration", e -> answer(e, discovery));
      server.createContext("/realms/test/certs", e -> answer(e, jwks));
      server.start();
      return new BenchIssuer(server, key, issuer);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The {@code auth.issuer} gateways are configured with. */
  public String issuer() {
    return issuer;
  }

  /** A token for audience {@code trainyard}, valid for an hour. */
  public String mint(String user, List<String> teams, List<String> roles) {
    var now = Instant.now();
    var claims =
        new JWTClaimsSet.Builder()
            .issuer(issuer)
            .audience("trainyard")
            .subject("sub-" + user)
            .claim("typ", "Bearer")
            .claim("preferred_username", user)
            .claim("groups", teams)
            .claim("realm_access", Map.of("roles", roles))
            .issueTime(Date.from(now))
            .expirationTime(Date.from(now.plus(Duration.ofHours(1))))
            .build();
    var jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.RS256)
                .keyID(key.getKeyID())
                .type(JOSEObjectType.JWT)
                .build(),
            claims);
    try {
      jwt.sign(new RSASSASigner(key));
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
    return jwt.serialize();
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private static void answer(HttpExchange exchange, String body) throws IOException {
    var bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, bytes.length);
    try (var out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
