package io.trainyard.gateway.idp;

import static org.assertj.core.api.Assertions.assertThat;

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
import com.sun.net.httpserver.HttpServer;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.testing.GatewayClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The gateway starts while its IdP is down, answers 503 (not 401: the caller did nothing wrong)
 * while it cannot get the keys, and works as soon as the IdP is back, without a restart. The IdP is
 * a small server speaking OIDC discovery and JWKS on the port the gateway was pointed at.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class IdpOutageIT {
  private static final int PORT = freePort();
  private static final String ISSUER = "http://127.0.0.1:" + PORT + "/realms/outage";

  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      OidcGateway.create(() -> ISSUER);

  @Test
  void aDownIdpIs503UntilItComesBack() throws Exception {
    var key = new RSAKeyGenerator(2048).keyID("outage-1").generate();
    var client = new GatewayClient(APP.getLocalPort());
    var token = token(key);

    var down = client.get("/v1/jobs", token);
    assertThat(down.status()).as(down.body()).isEqualTo(503);
    assertThat(down.json().get("message").asText()).contains("identity provider");
    // A token that is no JWT at all needs no keys: still the caller's fault.
    assertThat(client.get("/v1/jobs", "garbage").status()).isEqualTo(401);

    var idp = serve(key);
    try {
      var deadline = Instant.now().plusSeconds(10);
      int status;
      do {
        Thread.sleep(200);
        status = client.get("/v1/jobs", token).status();
      } while (status == 503 && Instant.now().isBefore(deadline));
      assertThat(status).isEqualTo(200);
    } finally {
      idp.stop(0);
    }
  }

  private static String token(RSAKey key) throws JOSEException {
    var now = Instant.now();
    var claims =
        new JWTClaimsSet.Builder()
            .issuer(ISSUER)
            .audience("trainyard")
            .subject("u-1")
            .claim("typ", "Bearer")
            .claim("preferred_username", "ola")
            .claim("groups", List.of("nlp"))
            .claim("realm_access", Map.of("roles", List.of("trainer")))
            .issueTime(Date.from(now))
            .expirationTime(Date.from(now.plusSeconds(600)))
            .build();
    var jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.RS256)
                .keyID(key.getKeyID())
                .type(JOSEObjectType.JWT)
                .build(),
            claims);
    jwt.sign(new RSASSASigner(key));
    return jwt.serialize();
  }

  private static HttpServer serve(RSAKey key) throws IOException {
    var server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), PORT), 0);
    var discovery = "{\"issuer\":\"" + ISSUER + "\",\"jwks_uri\":\"" + ISSUER + "/certs\"}";
    var jwks = new JWKSet(key.toPublicJWK()).toString();
    server.createContext(
        "/realms/outage/.well-known/openid-configuration", e -> answer(e, discovery));
    server.createContext("/realms/outage/certs", e -> answer(e, jwks));
    server.start();
    return server;
  }

  private static void answer(com.sun.net.httpserver.HttpExchange exchange, String body)
      throws IOException {
    var bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, bytes.length);
    try (var out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static int freePort() {
    try (var socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
