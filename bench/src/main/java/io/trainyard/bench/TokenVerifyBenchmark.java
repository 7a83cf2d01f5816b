package io.trainyard.bench;

import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.gen.ECKeyGenerator;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jose.jwk.source.ImmutableJWKSet;
import com.nimbusds.jose.proc.SecurityContext;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.trainyard.auth.Principal;
import io.trainyard.auth.TokenVerifier;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What token verification costs each request with the keys already cached: RS256 (Keycloak's
 * default) beside ES256 (the dev issuer's), through the gateway's one {@link TokenVerifier} — each
 * as a first sight (the signature checked: {@code verifiedTokens(0)}) and as a repeat of a token
 * verified before (remembered by hash until it expires; claims, clock and key still checked), side
 * by side in one run.
 *
 * <p>Run: {@code java -jar bench/target/benchmarks.jar TokenVerifyBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class TokenVerifyBenchmark {
  private static final String ISSUER = "https://sso.example.com/realms/training";

  private TokenVerifier verifier;
  private TokenVerifier firstSight;
  private String rs256;
  private String es256;

  @Setup
  public void setUp() throws Exception {
    var rsa = new RSAKeyGenerator(2048).keyID("rsa").generate();
    var ec = new ECKeyGenerator(Curve.P_256).keyID("ec").generate();
    var keys =
        new ImmutableJWKSet<SecurityContext>(
            new JWKSet(List.of(rsa.toPublicJWK(), ec.toPublicJWK())));
    verifier = TokenVerifier.builder(keys, ISSUER, "trainyard", Set.of("nlp")).build();
    firstSight =
        TokenVerifier.builder(keys, ISSUER, "trainyard", Set.of("nlp")).verifiedTokens(0).build();
    var claims =
        new JWTClaimsSet.Builder()
            .issuer(ISSUER)
            .audience("trainyard")
            .subject("alice")
            .claim("preferred_username", "alice")
            .claim("groups", List.of("/nlp"))
            .claim("realm_access", Map.of("roles", List.of("trainer")))
            .expirationTime(new Date(System.currentTimeMillis() + 3_600_000))
            .issueTime(new Date())
            .build();
    var r = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID("rsa").build(), claims);
    r.sign(new RSASSASigner(rsa));
    rs256 = r.serialize();
    var e = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.ES256).keyID("ec").build(), claims);
    e.sign(new ECDSASigner(ec));
    es256 = e.serialize();
    verifier.verify(rs256);
    verifier.verify(es256);
  }

  @Benchmark
  public Principal verifyRs256() {
    return firstSight.verify(rs256);
  }

  @Benchmark
  public Principal verifyEs256() {
    return firstSight.verify(es256);
  }

  @Benchmark
  public Principal repeatRs256() {
    return verifier.verify(rs256);
  }

  @Benchmark
  public Principal repeatEs256() {
    return verifier.verify(es256);
  }
}
