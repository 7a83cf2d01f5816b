package io.trainyard.gateway.idp;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.trainyard.audit.DigestSigner;
import io.trainyard.gateway.TrainyardApplication;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.testing.GatewayClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.Supplier;

/**
 * A real gateway in OIDC mode for the Keycloak ITs: H2 in a temp directory, the local backend, the
 * teams nlp and vision (both allowed {@code local}), and a one-second key refresh interval so that
 * rotation tests need not wait half a minute.
 */
final class OidcGateway {
  private static final Path REPO = Path.of("..").toAbsolutePath().normalize();

  private OidcGateway() {}

  /**
   * @param issuer evaluated when the gateway starts, after Keycloak has
   * @param extraAuthYaml more keys of the {@code auth:} block, each line indented by two spaces
   */
  static DropwizardAppExtension<TrainyardConfiguration> create(
      Supplier<String> issuer, String extraAuthYaml, ConfigOverride... overrides) {
    var dir = GatewayClient.tempDir("trainyard-oidc");
    // Outside dev mode the audit keys must be configured: made here as an operator would.
    DigestSigner.loadOrGenerate(dir);
    var hmacKey = new byte[32];
    new SecureRandom().nextBytes(hmacKey);
    var yaml =
        """
        dataDir: %s
        database:
          url: "jdbc:h2:file:%s/db;DB_CLOSE_ON_EXIT=FALSE"
        audit:
          signingKeyFile: %s/%s
          hmacKey: %s
        auth:
          mode: oidc
          issuer: http://replaced-at-start/realms/none
          audience: trainyard
          keyRefreshMinInterval: 1s
        %s
        reconciler:
          resyncInterval: 200ms
        server:
          applicationConnectors: [{type: http, port: 0, bindHost: 127.0.0.1}]
          adminConnectors: [{type: http, port: 0}]
        teams:
          nlp: {backends: [local]}
          vision: {backends: [local]}
        backends:
          - type: local
            codeDir: %s
        """
            .formatted(
                dir,
                dir,
                dir,
                DigestSigner.PRIVATE_KEY_FILE,
                Base64.getEncoder().encodeToString(hmacKey),
                extraAuthYaml,
                REPO);
    try {
      var file = dir.resolve("trainyard.yml");
      Files.writeString(file, yaml);
      var all = new ArrayList<>(List.of(overrides));
      all.add(ConfigOverride.config("auth.issuer", issuer));
      return new DropwizardAppExtension<>(
          TrainyardApplication.class, file.toString(), all.toArray(ConfigOverride[]::new));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static DropwizardAppExtension<TrainyardConfiguration> create(Supplier<String> issuer) {
    return create(issuer, "");
  }

  static String sleeper(String name, String team, int seconds) {
    return """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: %s%s}
        spec:
          framework: pytorch
          image: python:3.11-slim
          command: [sleep, "%d"]
          replicas: {master: 1}
        """
        .formatted(name, team == null ? "" : ", team: " + team, seconds);
  }
}
