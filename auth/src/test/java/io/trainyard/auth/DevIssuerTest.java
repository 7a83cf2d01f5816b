package io.trainyard.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jwt.SignedJWT;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DevIssuerTest {
  private static final String ISSUER = "http://127.0.0.1:8080/dev-issuer";
  private static final Instant NOW = Instant.parse("2026-01-15T12:00:00Z");

  @TempDir Path dataDir;

  private static TokenVerifier verifierFor(DevIssuer issuer, Instant now) {
    return TokenVerifier.builder(
            issuer.jwkSource(), issuer.issuer(), DevIssuer.AUDIENCE, Set.of("demo", "nlp"))
        .clock(Clock.fixed(now, ZoneOffset.UTC))
        .build();
  }

  private DevIssuer issuerAt(Instant now) {
    return DevIssuer.loadOrCreate(dataDir, ISSUER, Clock.fixed(now, ZoneOffset.UTC));
  }

  @Test
  void createsTheKeyFileOwnerOnly() throws Exception {
    DevIssuer.loadOrCreate(dataDir, ISSUER);

    Path file = dataDir.resolve("dev-issuer.jwk.json");
    assertThat(file).exists();
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
    try (var entries = Files.list(dataDir)) {
      assertThat(entries).containsExactly(file);
    }
  }

  @Test
  void createsTheDataDirectory() {
    var issuer = DevIssuer.loadOrCreate(dataDir.resolve("nested/data"), ISSUER);

    assertThat(dataDir.resolve("nested/data/dev-issuer.jwk.json")).exists();
    assertThat(issuer.keyId()).isNotBlank();
  }

  @Test
  void reusesTheKeyOnTheNextStart() {
    var first = issuerAt(NOW);
    String token = first.mint("demo", Set.of("demo"), Set.of("trainer"), Duration.ofHours(1));

    var second = issuerAt(NOW);

    assertThat(second.keyId()).isEqualTo(first.keyId());
    // The dev-token command and the server are separate processes: the server must trust the
    // token the command minted.
    assertThat(verifierFor(second, NOW).verify(token).username()).isEqualTo("demo");
  }

  @Test
  void mintsATokenTheVerifierAccepts() {
    var issuer = issuerAt(NOW);
    String token =
        issuer.mint(
            "demo",
            Set.of("demo", "unknown"),
            Set.of("trainer", "offline_access"),
            Duration.ofHours(1));

    var principal = verifierFor(issuer, NOW.plusSeconds(60)).verify(token);

    assertThat(principal)
        .isEqualTo(
            new Principal("dev:demo", "demo", null, Set.of("demo"), Set.of(Role.TRAINER), null));
  }

  @Test
  void tokenCarriesKeycloakShapedClaims() throws Exception {
    var issuer = issuerAt(NOW);
    var jwt =
        SignedJWT.parse(
            issuer.mint("demo", Set.of("demo"), Set.of("trainer"), Duration.ofMinutes(10)));
    var claims = jwt.getJWTClaimsSet();

    assertThat(jwt.getHeader().getAlgorithm().getName()).isEqualTo("ES256");
    assertThat(jwt.getHeader().getKeyID()).isEqualTo(issuer.keyId());
    assertThat(claims.getIssuer()).isEqualTo(ISSUER);
    assertThat(claims.getAudience()).containsExactly("trainyard");
    assertThat(claims.getSubject()).isEqualTo("dev:demo");
    assertThat(claims.getStringClaim("preferred_username")).isEqualTo("demo");
    assertThat(claims.getStringListClaim("groups")).containsExactly("demo");
    assertThat(claims.getJSONObjectClaim("realm_access"))
        .isEqualTo(Map.of("roles", List.of("trainer")));
    assertThat(claims.getIssueTime().toInstant()).isEqualTo(NOW);
    assertThat(claims.getNotBeforeTime().toInstant()).isEqualTo(NOW);
    assertThat(claims.getExpirationTime().toInstant()).isEqualTo(NOW.plusSeconds(600));
    assertThat(claims.getJWTID()).isNotBlank();
  }

  @Test
  void tokenExpiresAfterItsTtl() {
    var issuer = issuerAt(NOW);
    String token = issuer.mint("demo", Set.of("demo"), Set.of("trainer"), Duration.ofMinutes(10));

    assertThatThrownBy(() -> verifierFor(issuer, NOW.plus(Duration.ofMinutes(11))).verify(token))
        .isInstanceOfSatisfying(
            TokenRejectedException.class,
            e -> assertThat(e.code()).isEqualTo(AuthErrorCode.TOKEN_EXPIRED));
  }

  @Test
  void anotherIssuersKeyIsNotTrusted() throws Exception {
    Path otherDir = Files.createDirectory(dataDir.resolve("other"));
    var other = DevIssuer.loadOrCreate(otherDir, ISSUER);
    String forged =
        other.mint("mallory", Set.of("demo"), Set.of("platform-admin"), Duration.ofHours(1));

    assertThatThrownBy(() -> verifierFor(issuerAt(Instant.now()), Instant.now()).verify(forged))
        .isInstanceOf(TokenRejectedException.class);
  }

  @Test
  void publishesOnlyThePublicKeyUnderItsThumbprint() throws Exception {
    var issuer = DevIssuer.loadOrCreate(dataDir, ISSUER);

    var jwks = issuer.publicJwks();
    var key = JWKSet.parse(jwks).getKeys().get(0);

    @SuppressWarnings("unchecked")
    var published = (Map<String, Object>) ((List<?>) jwks.get("keys")).get(0);
    assertThat(published).doesNotContainKey("d");
    assertThat(key.isPrivate()).isFalse();
    assertThat(key.getKeyID())
        .isEqualTo(issuer.keyId())
        .isEqualTo(key.computeThumbprint().toString());
  }

  @Test
  void tightensAKeyFileOthersCanRead() throws Exception {
    var first = DevIssuer.loadOrCreate(dataDir, ISSUER);
    Path file = dataDir.resolve("dev-issuer.jwk.json");
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

    var second = DevIssuer.loadOrCreate(dataDir, ISSUER);

    assertThat(second.keyId()).isEqualTo(first.keyId());
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
        .isEqualTo("rw-------");
  }

  @Test
  void refusesAKeyFileThatIsNotAnEcPrivateKey() throws Exception {
    var issuer = DevIssuer.loadOrCreate(dataDir, ISSUER);
    Path file = dataDir.resolve("dev-issuer.jwk.json");
    Files.writeString(file, JWKSet.parse(issuer.publicJwks()).getKeys().get(0).toJSONString());

    assertThatThrownBy(() -> DevIssuer.loadOrCreate(dataDir, ISSUER))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("delete it");

    Files.writeString(file, "{not json");
    assertThatThrownBy(() -> DevIssuer.loadOrCreate(dataDir, ISSUER))
        .hasMessageContaining("does not hold an EC P-256 private key");
  }

  @Test
  void refusesABlankIssuer() {
    assertThatThrownBy(() -> DevIssuer.loadOrCreate(dataDir, " "))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
