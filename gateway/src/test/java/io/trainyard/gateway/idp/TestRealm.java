package io.trainyard.gateway.idp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import jakarta.ws.rs.WebApplicationException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPrivateKey;
import java.security.interfaces.RSAPublicKey;
import java.text.ParseException;
import java.util.Base64;
import java.util.Map;
import org.keycloak.admin.client.Keycloak;
import org.keycloak.representations.idm.RealmRepresentation;

/**
 * A realm made from {@code keycloak/trainyard-it-realm.json}: teams nlp, vision and speech
 * (Keycloak-only) as groups, users in one team and in two, an auditor, a platform admin, a user in
 * no team, the service account {@code ci-pipeline}, and an RSA signing key that the test knows — so
 * it can forge tokens that differ from Keycloak's in exactly one claim.
 *
 * <p>Users: alice (nlp, trainer), bob (vision, trainer), carol (nlp + vision, trainer), frank (nlp,
 * team-admin), dave (nlp, auditor), erin (platform-admin, no team), gina (speech, trainer), mallory
 * (marketing, a group that is no team, trainer). All have {@link #PASSWORD}.
 */
public final class TestRealm {
  public static final String PASSWORD = "it-Passw0rd-not-secret";
  public static final String CI_CLIENT = "ci-pipeline";
  public static final String CI_SECRET = "it-ci-secret";
  public static final String GATEWAY_CLIENT = "trainyard";
  public static final String GATEWAY_SECRET = "it-gateway-secret";
  public static final String CLI_CLIENT = "trainyard-cli";

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String name;
  private final RSAPrivateKey privateKey;
  private final RSAPublicKey publicKey;
  private final String json;
  private String serverUrl;
  private volatile RSAKey signingKey;

  private TestRealm(String name) {
    this.name = name;
    try {
      var generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      var pair = generator.generateKeyPair();
      privateKey = (RSAPrivateKey) pair.getPrivate();
      publicKey = (RSAPublicKey) pair.getPublic();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    this.json =
        template()
            .replace("@IT_REALM@", name)
            .replace("@IT_USER_PASSWORD@", PASSWORD)
            .replace("@IT_GATEWAY_SECRET@", GATEWAY_SECRET)
            .replace("@IT_CI_SECRET@", CI_SECRET)
            .replace(
                "@IT_RSA_PRIVATE_KEY@",
                Base64.getEncoder().encodeToString(privateKey.getEncoded()));
  }

  /** A realm to import at Keycloak's start ({@link #json()} into {@code data/import}). */
  public static TestRealm forImport(String name) {
    return new TestRealm(name);
  }

  /** A realm created now, through the admin API, on a running Keycloak. */
  public static TestRealm create(String name, String serverUrl, Keycloak admin) {
    var realm = new TestRealm(name);
    try {
      admin.realms().create(JSON.readValue(realm.json, RealmRepresentation.class));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (WebApplicationException e) {
      throw new AssertionError(
          "Keycloak refused realm " + name + ": " + e.getResponse().readEntity(String.class), e);
    }
    realm.servedBy(serverUrl);
    return realm;
  }

  private static String template() {
    try (InputStream in =
        TestRealm.class.getResourceAsStream("/keycloak/trainyard-it-realm.json")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Called once the Keycloak serving this realm is up. */
  public void servedBy(String serverUrl) {
    this.serverUrl = serverUrl;
  }

  public String name() {
    return name;
  }

  public String json() {
    return json;
  }

  public String issuer() {
    return serverUrl + "/realms/" + name;
  }

  public String tokenEndpoint() {
    return issuer() + "/protocol/openid-connect/token";
  }

  public String jwksUri() {
    return issuer() + "/protocol/openid-connect/certs";
  }

  /** An access token for a user, by the password grant of the CLI client. */
  public String passwordToken(String user) {
    return passwordToken(CLI_CLIENT, user);
  }

  public String passwordToken(String client, String user) {
    return tokens().passwordToken(client, user, PASSWORD);
  }

  /** An access token of the CI pipeline's service account (client credentials). */
  public String serviceAccountToken() {
    return tokenResponse(
            Map.of(
                "grant_type", "client_credentials",
                "client_id", CI_CLIENT,
                "client_secret", CI_SECRET))
        .get("access_token")
        .asText();
  }

  /** The token endpoint's answer to a form; fails the test unless it is 200. */
  public JsonNode tokenResponse(Map<String, String> form) {
    return tokens().tokenResponse(form);
  }

  private RealmTokens tokens() {
    return new RealmTokens(serverUrl, name);
  }

  /**
   * The realm's RSA signing key, private part included, with the {@code kid} Keycloak gave it: what
   * an attacker who stole the key would have, and what lets a test vary one claim at a time.
   */
  public RSAKey signingKey() {
    if (signingKey == null) {
      try {
        var published =
            JWKSet.load(URI.create(jwksUri()).toURL()).getKeys().stream()
                .filter(k -> k instanceof RSAKey rsa && publicKey.getModulus().equals(modulus(rsa)))
                .findFirst()
                .orElseThrow(() -> new AssertionError("Keycloak does not publish the test key"));
        signingKey =
            new RSAKey.Builder(publicKey)
                .privateKey(privateKey)
                .keyID(published.getKeyID())
                .build();
      } catch (IOException | ParseException e) {
        throw new IllegalStateException("cannot read " + jwksUri(), e);
      }
    }
    return signingKey;
  }

  private static java.math.BigInteger modulus(RSAKey key) {
    return key.getModulus().decodeToBigInteger();
  }
}
