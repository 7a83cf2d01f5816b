package io.trainyard.auth;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.JWSSigner;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.jwk.source.JWKSource;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway acting as its own token issuer in dev mode. Its tokens look like Keycloak's and are
 * checked by the same {@link TokenVerifier} against {@link #jwkSource()}, so dev mode exercises the
 * production verification path rather than bypassing it.
 *
 * <p>The EC P-256 signing key is kept in {@code dataDir/dev-issuer.jwk.json} (mode 0600), so tokens
 * stay valid across restarts and the {@code dev-token} command, a separate process, signs with the
 * key the running server trusts. Thread-safe.
 */
public final class DevIssuer {
  /** The audience of every dev token; the dev-mode verifier must be built with it. */
  public static final String AUDIENCE = "trainyard";

  static final String KEY_FILE = "dev-issuer.jwk.json";

  private static final Logger LOG = LoggerFactory.getLogger(DevIssuer.class);
  private static final Set<PosixFilePermission> OWNER_ONLY =
      PosixFilePermissions.fromString("rw-------");

  private final String issuer;
  private final ECKey key;
  private final JWSSigner signer;
  private final JWKSource<SecurityContext> jwkSource;
  private final Clock clock;

  private DevIssuer(String issuer, ECKey key, Clock clock) {
    this.issuer = issuer;
    this.key = key;
    this.clock = clock;
    this.jwkSource = new ImmutableJWKSet<>(new JWKSet(key.toPublicJWK()));
    try {
      this.signer = new ECDSASigner(key);
    } catch (JOSEException e) {
      throw new IllegalStateException("the dev issuer key cannot sign: " + e.getMessage(), e);
    }
  }

  /**
   * Loads the key pair from {@code dataDir}, or creates it (and the directory) on first start.
   *
   * @throws UncheckedIOException if the key file cannot be read or written
   * @throws IllegalStateException if the key file holds something other than an EC P-256 private
   *     key
   */
  public static DevIssuer loadOrCreate(Path dataDir, String issuer) {
    return loadOrCreate(dataDir, issuer, Clock.systemUTC());
  }

  static DevIssuer loadOrCreate(Path dataDir, String issuer, Clock clock) {
    if (issuer == null || issuer.isBlank()) {
      throw new IllegalArgumentException("issuer must not be blank");
    }
    Path file = dataDir.resolve(KEY_FILE);
    try {
      Files.createDirectories(dataDir);
      ECKey key = Files.exists(file) ? read(file) : create(file);
      return new DevIssuer(issuer, key, Objects.requireNonNull(clock, "clock"));
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot keep the dev issuer key in " + file + ": " + e.getMessage(), e);
    }
  }

  private static ECKey create(Path file) throws IOException {
    ECKey key;
    try {
      key =
          new ECKeyGenerator(Curve.P_256)
              .keyUse(KeyUse.SIGNATURE)
              .algorithm(JWSAlgorithm.ES256)
              .keyIDFromThumbprint(true)
              .generate();
    } catch (JOSEException e) {
      throw new IllegalStateException("cannot generate the dev issuer key: " + e.getMessage(), e);
    }
    Path dir = file.toAbsolutePath().getParent();
    Path tmp =
        isPosix(dir)
            ? Files.createTempFile(
                dir, ".dev-issuer", ".tmp", PosixFilePermissions.asFileAttribute(OWNER_ONLY))
            : Files.createTempFile(dir, ".dev-issuer", ".tmp");
    try {
      Files.writeString(tmp, key.toJSONString(), StandardCharsets.UTF_8);
      // A hard link publishes the complete file atomically and never replaces one: when two
      // processes start at once, both end up with the key that won.
      Files.createLink(file, tmp);
      LOG.info("Created the dev issuer key {} in {}", key.getKeyID(), file);
      return key;
    } catch (FileAlreadyExistsException e) {
      return read(file);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  private static ECKey read(Path file) throws IOException {
    if (isPosix(file) && !Files.getPosixFilePermissions(file).equals(OWNER_ONLY)) {
      // Anyone who can read this key can mint tokens for any team.
      Files.setPosixFilePermissions(file, OWNER_ONLY);
      LOG.warn("Restricted {} to its owner (mode 0600)", file);
    }
    try {
      JWK jwk = JWK.parse(Files.readString(file, StandardCharsets.UTF_8));
      if (jwk instanceof ECKey ec && ec.isPrivate() && Curve.P_256.equals(ec.getCurve())) {
        return new ECKey.Builder(ec).keyIDFromThumbprint().build();
      }
    } catch (ParseException | JOSEException e) {
      // falls through to the same advice as a key of the wrong kind
    }
    throw new IllegalStateException(
        file + " does not hold an EC P-256 private key; delete it to create a new one");
  }

  private static boolean isPosix(Path path) {
    return path.getFileSystem().supportedFileAttributeViews().contains("posix");
  }

  /**
   * Mints a signed ES256 access token shaped like Keycloak's.
   *
   * @param user becomes {@code preferred_username}, and {@code sub} as {@code dev:user}
   * @param teams the {@code groups} claim
   * @param roles the {@code realm_access.roles} claim; names the gateway does not know are kept, as
   *     an IdP would, and ignored by the verifier
   * @param ttl how long the token is valid; positive
   */
  public String mint(String user, Set<String> teams, Set<String> roles, Duration ttl) {
    if (user == null || user.isBlank()) {
      throw new IllegalArgumentException("user must not be blank");
    }
    if (ttl.isNegative() || ttl.isZero()) {
      throw new IllegalArgumentException("ttl must be positive: " + ttl);
    }
    Instant now = clock.instant().truncatedTo(ChronoUnit.SECONDS);
    var claims =
        new JWTClaimsSet.Builder()
            .issuer(issuer)
            .audience(AUDIENCE)
            .subject("dev:" + user)
            .claim("preferred_username", user)
            .claim("groups", List.copyOf(new TreeSet<>(teams)))
            .claim("realm_access", Map.of("roles", List.copyOf(new TreeSet<>(roles))))
            .issueTime(Date.from(now))
            .notBeforeTime(Date.from(now))
            .expirationTime(Date.from(now.plus(ttl)))
            .jwtID(UUID.randomUUID().toString())
            .build();
    var header =
        new JWSHeader.Builder(JWSAlgorithm.ES256)
            .keyID(key.getKeyID())
            .type(JOSEObjectType.JWT)
            .build();
    var jwt = new SignedJWT(header, claims);
    try {
      jwt.sign(signer);
    } catch (JOSEException e) {
      throw new IllegalStateException("cannot sign a dev token: " + e.getMessage(), e);
    }
    return jwt.serialize();
  }

  /** The public JWKS document, to be served at the dev issuer's JWKS URL like an IdP's. */
  public Map<String, Object> publicJwks() {
    return new JWKSet(key.toPublicJWK()).toJSONObject(true);
  }

  /** The public key as a source for {@link TokenVerifier}. */
  public JWKSource<SecurityContext> jwkSource() {
    return jwkSource;
  }

  public String issuer() {
    return issuer;
  }

  /** The key's id, its RFC 7638 thumbprint. */
  public String keyId() {
    return key.getKeyID();
  }
}
