package io.trainyard.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.MACSigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.util.Base64URL;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.PlainJWT;
import com.nimbusds.jwt.SignedJWT;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;

/** An issuer's keys, an impostor's key with the same kid, and tokens built from them. */
final class TestTokens {
  static final Instant NOW = Instant.parse("2026-01-15T12:00:00Z");
  static final String ISSUER = "https://sso.example.com/realms/training";
  static final String AUDIENCE = "trainyard";

  final RSAKey rsa;
  final ECKey ec;
  final RSAKey impostor;

  TestTokens() {
    try {
      rsa = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
      ec = new ECKeyGenerator(Curve.P_256).keyID("ec-1").generate();
      impostor = new RSAKeyGenerator(2048).keyID("rsa-1").generate();
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  /** What the issuer publishes: public keys only. */
  JWKSet publicKeys() {
    return new JWKSet(List.of(rsa.toPublicJWK(), ec.toPublicJWK()));
  }

  /** A Keycloak-like access token's claims that every check accepts. */
  static JWTClaimsSet.Builder goodClaims() {
    return new JWTClaimsSet.Builder()
        .issuer(ISSUER)
        .audience(List.of(AUDIENCE, "account"))
        .subject("6f1c2a4e-0000-4000-8000-000000000001")
        .claim("typ", "Bearer")
        .claim("azp", "trainyard-cli")
        .claim("preferred_username", "ada")
        .claim("email", "ada@example.com")
        .claim("groups", List.of("/demo"))
        .claim("realm_access", Map.of("roles", List.of("trainer")))
        .issueTime(Date.from(NOW.minusSeconds(60)))
        .notBeforeTime(Date.from(NOW.minusSeconds(60)))
        .expirationTime(Date.from(NOW.plusSeconds(300)));
  }

  String rs256(JWTClaimsSet.Builder claims) {
    return sign(header(JWSAlgorithm.RS256, rsa.getKeyID()), rsaSigner(rsa), claims);
  }

  String es256(JWTClaimsSet.Builder claims) {
    try {
      return sign(header(JWSAlgorithm.ES256, ec.getKeyID()), new ECDSASigner(ec), claims);
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  String signedBy(RSAKey key, JWSHeader header, JWTClaimsSet.Builder claims) {
    return sign(header, rsaSigner(key), claims);
  }

  /** The classic key-confusion attack: HMAC with the RSA public key as the shared secret. */
  String hs256WithPublicKeyBytes(JWTClaimsSet.Builder claims) {
    try {
      var secret = rsa.toRSAPublicKey().getEncoded();
      return sign(header(JWSAlgorithm.HS256, rsa.getKeyID()), new MACSigner(secret), claims);
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  static String unsecured(JWTClaimsSet.Builder claims) {
    return new PlainJWT(claims.build()).serialize();
  }

  /** A hand-written header over good claims, with a made-up signature. */
  static String rawHeader(String headerJson) {
    return Base64URL.encode(headerJson.getBytes(StandardCharsets.UTF_8))
        + "."
        + Base64URL.encode(goodClaims().build().toString())
        + "."
        + Base64URL.encode("not a signature");
  }

  static JWSHeader header(JWSAlgorithm alg, String kid) {
    return new JWSHeader.Builder(alg).keyID(kid).type(JOSEObjectType.JWT).build();
  }

  private static JWSSigner rsaSigner(RSAKey key) {
    try {
      return new RSASSASigner(key);
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String sign(JWSHeader header, JWSSigner signer, JWTClaimsSet.Builder claims) {
    var jwt = new SignedJWT(header, claims.build());
    try {
      jwt.sign(signer);
    } catch (JOSEException e) {
      throw new IllegalStateException(e);
    }
    return jwt.serialize();
  }
}
