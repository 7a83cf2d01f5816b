package io.trainyard.auth;

import com.nimbusds.jose.jwk.JWKSet;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An IdP that speaks OIDC discovery and JWKS over real HTTP on loopback, counting what it is asked
 * and able to go down on request.
 */
final class FakeIssuer implements AutoCloseable {
  private final HttpServer server;
  private final AtomicInteger discoveryHits = new AtomicInteger();
  private final AtomicInteger jwksHits = new AtomicInteger();
  private volatile JWKSet keys;
  private volatile boolean down;
  private volatile String namedIssuer;

  FakeIssuer(JWKSet keys) {
    this.keys = keys;
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext("/realms/test/.well-known/openid-configuration", this::discovery);
    server.createContext("/realms/test/certs", this::jwks);
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.start();
    namedIssuer = issuer();
  }

  String issuer() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/realms/test";
  }

  String jwksUri() {
    return issuer() + "/certs";
  }

  void publish(JWKSet keys) {
    this.keys = keys;
  }

  /** While down, every request is answered 503, as by a proxy in front of a dead IdP. */
  void down(boolean down) {
    this.down = down;
  }

  /** Makes discovery name another issuer than the one it is served under. */
  void nameIssuer(String issuer) {
    this.namedIssuer = issuer;
  }

  int discoveryHits() {
    return discoveryHits.get();
  }

  int jwksHits() {
    return jwksHits.get();
  }

  private void discovery(HttpExchange exchange) throws IOException {
    discoveryHits.incrementAndGet();
    answer(exchange, "{\"issuer\":\"" + namedIssuer + "\",\"jwks_uri\":\"" + jwksUri() + "\"}");
  }

  private void jwks(HttpExchange exchange) throws IOException {
    jwksHits.incrementAndGet();
    // The public set, as an IdP publishes it; toString(true) would leak nothing either way.
    answer(exchange, keys.toString(true));
  }

  private void answer(HttpExchange exchange, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    if (down) {
      exchange.sendResponseHeaders(503, -1);
    } else {
      exchange.sendResponseHeaders(200, bytes.length);
      exchange.getResponseBody().write(bytes);
    }
    exchange.close();
  }

  @Override
  public void close() {
    server.stop(0);
    ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
  }
}
