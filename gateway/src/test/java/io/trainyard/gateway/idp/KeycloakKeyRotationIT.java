package io.trainyard.gateway.idp;

import static org.assertj.core.api.Assertions.assertThat;

import com.nimbusds.jwt.SignedJWT;
import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.testing.GatewayClient;
import io.trainyard.gateway.testing.KeycloakExtension;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.keycloak.admin.client.Keycloak;
import org.keycloak.admin.client.resource.RealmResource;
import org.keycloak.common.util.MultivaluedHashMap;
import org.keycloak.representations.idm.ComponentRepresentation;

/**
 * The realm's signing key changes in Keycloak while the gateway runs: a new RSA key with a higher
 * priority, then the old one disabled. The gateway follows without a restart. And a flood of tokens
 * naming made-up keys costs Keycloak at most one key fetch per refresh interval.
 *
 * <p>Runs on a realm of its own, so that rotating its keys cannot disturb the other ITs.
 */
@ExtendWith({KeycloakExtension.class, DropwizardExtensionsSupport.class})
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KeycloakKeyRotationIT {
  private static volatile TestRealm rotation;

  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      OidcGateway.create(
          () -> rotationRealm().issuer(), "", ConfigOverride.config("auth.keyCacheLifetime", "3s"));

  private static Keycloak admin;
  private static GatewayClient client;

  /** Created when the gateway's config asks for its issuer, which is after Keycloak started. */
  private static synchronized TestRealm rotationRealm() {
    if (rotation == null) {
      var server = KeycloakExtension.server();
      rotation = TestRealm.create("rotation-it", server.url(), server.admin());
    }
    return rotation;
  }

  @BeforeAll
  static void connect(KeycloakExtension.Server server) {
    admin = server.admin();
    client = new GatewayClient(APP.getLocalPort());
  }

  private static RealmResource realmAdmin() {
    return admin.realm(rotation.name());
  }

  @Test
  @Order(1)
  void aNewKeyIsPickedUpAndADisabledOneDropped() throws Exception {
    var before = rotation.passwordToken("alice");
    assertThat(client.get("/v1/jobs", before).status()).isEqualTo(200);

    var realmId = realmAdmin().toRepresentation().getId();
    var newer = new ComponentRepresentation();
    newer.setName("rotated-rsa");
    newer.setProviderId("rsa-generated");
    newer.setProviderType("org.keycloak.keys.KeyProvider");
    newer.setParentId(realmId);
    var config = new MultivaluedHashMap<String, String>();
    config.putSingle("priority", "500");
    config.putSingle("keySize", "2048");
    config.putSingle("algorithm", "RS256");
    newer.setConfig(config);
    RealmBootstrap.created(realmAdmin().components().add(newer), "a key provider");

    var after = rotation.passwordToken("alice");
    assertThat(kid(after)).isNotEqualTo(kid(before));
    var took = awaitStatus(after, s -> s == 200, Duration.ofSeconds(15));
    System.out.printf("rotation: a token with the new key was accepted after %d ms%n", took);

    var old =
        realmAdmin().components().query(realmId, "org.keycloak.keys.KeyProvider").stream()
            .filter(c -> c.getName().equals("it-rsa"))
            .findFirst()
            .orElseThrow();
    old.getConfig().putSingle("enabled", "false");
    realmAdmin().components().component(old.getId()).update(old);

    took = awaitStatus(before, s -> s == 401, Duration.ofSeconds(20));
    System.out.printf("rotation: the disabled key's token was refused after %d ms%n", took);
    assertThat(client.get("/v1/jobs", after).status()).isEqualTo(200);
    assertThat(client.get("/v1/jobs", rotation.passwordToken("bob")).status()).isEqualTo(200);
  }

  @Test
  @Order(2)
  void aFloodOfUnknownKidsCostsKeycloakAtMostOneFetchPerInterval() throws Exception {
    var good = rotation.passwordToken("alice");
    assertThat(client.get("/v1/jobs", good).status()).isEqualTo(200);
    var header = good.substring(0, good.indexOf('.'));
    var rest = good.substring(good.indexOf('.'));
    long fetchesBefore = jwksFetches();
    var answers = new AtomicInteger();
    var wrong = new AtomicInteger();
    var seconds = 6;
    var end = Instant.now().plusSeconds(seconds);
    Callable<Void> attacker =
        () -> {
          while (Instant.now().isBefore(end)) {
            // A real token with only its kid replaced by a new random one.
            var forged = withKid(header, UUID.randomUUID().toString()) + rest;
            if (client.get("/v1/jobs", forged).status() != 401) {
              wrong.incrementAndGet();
            }
            answers.incrementAndGet();
          }
          return null;
        };
    var pool = Executors.newFixedThreadPool(4);
    var started = System.nanoTime();
    try {
      for (var done :
          pool.invokeAll(new ArrayList<>(List.of(attacker, attacker, attacker, attacker)))) {
        done.get();
      }
    } finally {
      pool.shutdownNow();
    }
    double elapsed = (System.nanoTime() - started) / 1e9;
    long fetches = jwksFetches() - fetchesBefore;
    System.out.printf(
        "flood: %d tokens with random kids in %.1f s (%.0f/s) caused %d JWKS fetches%n",
        answers.get(), elapsed, answers.get() / elapsed, fetches);

    assertThat(wrong.get()).isZero();
    // One per 1 s interval, plus one for the cache lifetime and one for rounding.
    assertThat(fetches).isLessThanOrEqualTo((long) Math.ceil(elapsed) + 2);
    assertThat(client.get("/v1/jobs", good).status()).isEqualTo(200);
  }

  private static String withKid(String encodedHeader, String kid) {
    var json =
        new String(java.util.Base64.getUrlDecoder().decode(encodedHeader))
            .replaceAll("\"kid\"\\s*:\\s*\"[^\"]*\"", "\"kid\":\"" + kid + "\"");
    return java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(json.getBytes());
  }

  private static long jwksFetches() {
    var admin = new GatewayClient(APP.getAdminPort());
    var metrics = admin.get("/metrics", null).json();
    return metrics.path("gauges").path("auth.jwks.fetches").path("value").asLong(-1);
  }

  /** Polls until the gateway's answer to the token satisfies {@code wanted}; returns the wait. */
  private static long awaitStatus(String token, IntPredicate wanted, Duration timeout)
      throws InterruptedException {
    var start = System.nanoTime();
    var deadline = Instant.now().plus(timeout);
    int status;
    do {
      status = client.get("/v1/jobs", token).status();
      if (wanted.test(status)) {
        return (System.nanoTime() - start) / 1_000_000;
      }
      Thread.sleep(200);
    } while (Instant.now().isBefore(deadline));
    throw new AssertionError("still HTTP " + status + " after " + timeout);
  }

  private static String kid(String token) throws ParseException {
    return SignedJWT.parse(token).getHeader().getKeyID();
  }
}
