package io.trainyard.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.audit.DigestSigner;
import io.trainyard.gateway.idp.TestRealm;
import io.trainyard.gateway.testing.KeycloakExtension;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link AuthReadScenario} with RS256 tokens from a real Keycloak: the gateway in {@code oidc} mode
 * against the realm the gateway's own ITs use (alice, a trainer of team nlp, by the password grant
 * of the CLI client). Keycloak's start costs 30-60 s, so this runs only when asked:
 *
 * <pre>
 * mvn -B -o verify -pl bench -am -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
 *   -Dit.test=AuthReadKeycloakIT -Dfailsafe.failIfNoSpecifiedTests=false -Dbench.keycloak=true \
 *   -Dbench.keycloak.rounds=3 -Dbench.keycloak.seconds=5 \
 *   -Dtrainyard.keycloak.home=$PWD/gateway/target/keycloak/keycloak-26.4.7
 * </pre>
 *
 * It prints the same table as {@code AuthReadScenario}; the distribution is the one the gateway
 * build unpacks for its ITs.
 */
@EnabledIfSystemProperty(named = "bench.keycloak", matches = "true")
@ExtendWith(KeycloakExtension.class)
class AuthReadKeycloakIT {
  @Test
  void readsWithKeycloakTokens(TestRealm realm, @TempDir Path keys) {
    // Outside dev mode the audit keys must be configured: made here as an operator would.
    DigestSigner.loadOrGenerate(keys);
    var hmacKey = new byte[32];
    new SecureRandom().nextBytes(hmacKey);
    var config =
        """
        dataDir: ./data
        audit:
          signingKeyFile: %s
          hmacKey: %s
        auth: {mode: oidc, issuer: "%s", audience: %s}
        logging: {level: WARN}
        teams:
          nlp: {backends: [local]}
        backends:
          - type: local
            codeDir: ./code
        server:
          applicationConnectors: [{type: http, port: ${APP_PORT}, bindHost: 127.0.0.1}]
          adminConnectors: [{type: http, port: ${ADMIN_PORT}, bindHost: 127.0.0.1}]
        """
            .formatted(
                keys.resolve(DigestSigner.PRIVATE_KEY_FILE),
                Base64.getEncoder().encodeToString(hmacKey),
                realm.issuer(),
                TestRealm.GATEWAY_CLIENT);
    var rounds =
        AuthReadScenario.run(
            config,
            gateway -> realm.passwordToken("alice"),
            Integer.getInteger("bench.keycloak.clients", 8),
            Duration.ofSeconds(2),
            Duration.ofSeconds(Long.getLong("bench.keycloak.seconds", 1)),
            Integer.getInteger("bench.keycloak.rounds", 1));
    AuthReadScenario.print(rounds);

    for (var round : rounds) {
      assertThat(round.job().errors()).as(round.job().firstError()).isZero();
      assertThat(round.job().answered()).isPositive();
    }
  }
}
