package io.trainyard.gateway.idp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.testing.GatewayClient;
import io.trainyard.gateway.testing.KeycloakExtension;
import java.nio.charset.StandardCharsets;
import java.text.ParseException;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Forged and damaged tokens against a real gateway trusting a real Keycloak. Most forgeries start
 * from a real token of alice (nlp, trainer) and try to become a platform admin; the ones signed
 * with the realm's own key differ from a valid token in exactly one claim, so each proves one
 * check. Every one must get the same 401, word for word.
 */
@ExtendWith({KeycloakExtension.class, DropwizardExtensionsSupport.class})
class KeycloakForgedTokenIT {
  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      OidcGateway.create(() -> KeycloakExtension.realm().issuer());

  private static final String GENERIC = "a valid bearer token is required";

  private static GatewayClient client;
  private static TestRealm realm;
  private static String real;
  private static JWTClaimsSet realClaims;

  @BeforeAll
  static void aRealToken(TestRealm testRealm) throws ParseException {
    realm = testRealm;
    client = new GatewayClient(APP.getLocalPort());
    real = realm.passwordToken("alice");
    realClaims = SignedJWT.parse(real).getJWTClaimsSet();
  }

  @Test
  void theRealTokenAndOneReSignedWithTheRealmKeyAreAccepted() {
    assertThat(client.get("/v1/jobs", real).status()).isEqualTo(200);
    assertThat(client.get("/v1/jobs", withRealmKey(c -> c)).status()).isEqualTo(200);
  }

  static Stream<Arguments> forgeries() {
    return Stream.of(
        forged("alg none", () -> new PlainJWT(adminClaims()).serialize()),
        forged("alg none with a signature", () -> unsignedWithHeader("{\"alg\":\"none\"}")),
        forged("HS256 keyed with the public key (DER)", () -> hmacWithPublicKey(false)),
        forged("HS256 keyed with the public key (PEM)", () -> hmacWithPublicKey(true)),
        forged("expired", () -> withRealmKey(c -> c.expirationTime(secondsFromNow(-120)))),
        forged("not yet valid", () -> withRealmKey(c -> c.notBeforeTime(secondsFromNow(300)))),
        forged("wrong iss", () -> withRealmKey(c -> c.issuer(realm.issuer() + "-evil"))),
        forged("missing aud", () -> withRealmKey(c -> c.audience((List<String>) null))),
        forged("aud of another client only", () -> withRealmKey(c -> c.audience("account"))),
        forged("no exp", () -> withRealmKey(c -> c.expirationTime(null))),
        forged("an ID token", () -> withRealmKey(c -> c.claim("typ", "ID"))),
        forged("unknown kid", KeycloakForgedTokenIT::unknownKid),
        forged("known kid, another key", KeycloakForgedTokenIT::impostorWithKnownKid),
        forged("tampered payload", KeycloakForgedTokenIT::tamperedPayload),
        forged("truncated", () -> real.substring(0, real.length() - 12)),
        forged("signature of another token", KeycloakForgedTokenIT::swappedSignature),
        forged("garbage", () -> "not-a-jwt"),
        forged("garbage in three parts", () -> "eyJhbGciOi.eyJzdWIi.c2lnbmF0dXJl"),
        forged("empty", () -> ""),
        forged("a real token of another app", () -> realm.passwordToken("other-app", "alice")),
        forged("a real refresh token", KeycloakForgedTokenIT::refreshToken));
  }

  private static Arguments forged(String name, java.util.function.Supplier<String> token) {
    return Arguments.of(name, token);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("forgeries")
  void isRefusedWithTheSameGeneric401(String name, java.util.function.Supplier<String> token) {
    var answer = client.get("/v1/jobs", token.get());

    assertThat(answer.status()).as(answer.body()).isEqualTo(401);
    assertThat(answer.json().get("code").asText()).isEqualTo("UNAUTHENTICATED");
    assertThat(answer.json().get("message").asText()).isEqualTo(GENERIC);
    assertThat(withoutRequestId(answer)).isEqualTo(withoutRequestId(client.get("/v1/jobs", null)));
  }

  @Test
  void noTokenOrAnotherSchemeGetsTheSame401() {
    var none = client.get("/v1/jobs", null);
    var basic =
        client.post(
            "/v1/quotes",
            null,
            "application/yaml",
            "x",
            "Authorization",
            "Basic " + Base64.getEncoder().encodeToString("alice:pw".getBytes()));
    for (var answer : List.of(none, basic)) {
      assertThat(answer.status()).isEqualTo(401);
      assertThat(answer.json().get("message").asText()).isEqualTo(GENERIC);
    }
  }

  private static String withoutRequestId(GatewayClient.Answer answer) {
    var json = (ObjectNode) answer.json();
    json.remove("requestId");
    return json.toString();
  }

  private static Date secondsFromNow(long seconds) {
    return Date.from(Instant.now().plusSeconds(seconds));
  }

  /** Alice's real claims, promoted to platform admin. */
  private static JWTClaimsSet adminClaims() {
    return new JWTClaimsSet.Builder(realClaims)
        .claim("realm_access", Map.of("roles", List.of("trainer", "platform-admin")))
        .build();
  }

  /** A validly signed token: alice's real claims, changed by {@code change}. */
  private static String withRealmKey(UnaryOperator<JWTClaimsSet.Builder> change) {
    var key = realm.signingKey();
    var claims = change.apply(new JWTClaimsSet.Builder(realClaims)).build();
    return sign(rs256(key.getKeyID()), claims, rsaSigner(key));
  }

  private static String unknownKid() {
    return sign(rs256(UUID.randomUUID().toString()), adminClaims(), rsaSigner(attackerKey()));
  }

  private static String impostorWithKnownKid() {
    return sign(rs256(realm.signingKey().getKeyID()), adminClaims(), rsaSigner(attackerKey()));
  }

  private static String hmacWithPublicKey(boolean pem) {
    try {
      byte[] der = realm.signingKey().toRSAPublicKey().getEncoded();
      byte[] secret =
          pem
              ? ("-----BEGIN PUBLIC KEY-----\n"
                      + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
                      + "\n-----END PUBLIC KEY-----\n")
                  .getBytes(StandardCharsets.US_ASCII)
              : der;
      var header =
          new JWSHeader.Builder(JWSAlgorithm.HS256)
              .keyID(realm.signingKey().getKeyID())
              .type(JOSEObjectType.JWT)
              .build();
      return sign(header, adminClaims(), new MACSigner(secret));
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String unsignedWithHeader(String header) {
    return Base64URL.encode(header.getBytes(StandardCharsets.UTF_8))
        + "."
        + Base64URL.encode(adminClaims().toString())
        + "."
        + real.substring(real.lastIndexOf('.') + 1);
  }

  private static String tamperedPayload() {
    var parts = real.split("\\.");
    return parts[0] + "." + Base64URL.encode(adminClaims().toString()) + "." + parts[2];
  }

  private static String swappedSignature() {
    var other = realm.passwordToken("bob");
    return real.substring(0, real.lastIndexOf('.')) + other.substring(other.lastIndexOf('.'));
  }

  private static String refreshToken() {
    return realm
        .tokenResponse(
            Map.of(
                "grant_type",
                "password",
                "client_id",
                TestRealm.CLI_CLIENT,
                "username",
                "alice",
                "password",
                TestRealm.PASSWORD))
        .get("refresh_token")
        .asText();
  }

  private static JWSHeader rs256(String kid) {
    return new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(kid).type(JOSEObjectType.JWT).build();
  }

  private static RSAKey attackerKey() {
    try {
      return new RSAKeyGenerator(2048).generate();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  private static JWSSigner rsaSigner(RSAKey key) {
    try {
      return new RSASSASigner(key);
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String sign(JWSHeader header, JWTClaimsSet claims, JWSSigner signer) {
    var jwt = new SignedJWT(header, claims);
    try {
      jwt.sign(signer);
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
    return jwt.serialize();
  }
}
