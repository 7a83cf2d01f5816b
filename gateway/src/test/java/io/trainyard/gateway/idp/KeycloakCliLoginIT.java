package io.trainyard.gateway.idp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.testing.KeycloakExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./trainyard login} as a user runs it: the CLI in its own process, against the real
 * Keycloak, then {@code status} against a real gateway with the cached token. The device login is
 * approved the way a person would, on Keycloak's own pages ({@link DeviceApproval}).
 */
@ExtendWith({KeycloakExtension.class, DropwizardExtensionsSupport.class})
class KeycloakCliLoginIT {
  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      OidcGateway.create(() -> KeycloakExtension.realm().issuer());

  private static final String CLI = "io.trainyard.cli.TrainyardCli";
  private static final Pattern COMPLETE_URI = Pattern.compile("(http\\S+user_code=\\S+)");

  @TempDir Path home;
  private final Map<String, String> env = new HashMap<>();
  private Path tokenFile;

  @BeforeEach
  void environment() {
    var config = home.resolve("config");
    env.put("TRAINYARD_CONFIG_DIR", config.toString());
    env.put("TRAINYARD_ISSUER", KeycloakExtension.realm().issuer());
    env.put("TRAINYARD_URL", "http://127.0.0.1:" + APP.getLocalPort());
    tokenFile = config.resolve("token.json");
  }

  private JavaProcess.Result cli(String stdin, String... args) {
    return JavaProcess.run(CLI, List.of(args), env, stdin, home);
  }

  @Test
  void thePasswordGrantCachesAnOwnerOnlyTokenThatOpensTheGateway() throws IOException {
    var login = cli(TestRealm.PASSWORD + "\n", "login", "--password", "--user", "alice");

    assertThat(login.exitCode()).as(login.all()).isZero();
    assertThat(login.stdout()).contains("as alice");
    assertThat(login.all()).doesNotContain(TestRealm.PASSWORD);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile)))
        .isEqualTo("rw-------");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile.getParent())))
        .isEqualTo("rwx------");

    var status = cli(null, "status");
    assertThat(status.exitCode()).as(status.all()).isZero();
  }

  @Test
  void anExpiredTokenIsRefreshedAtKeycloakBeforeTheCall() throws IOException {
    env.put("TRAINYARD_PASSWORD", TestRealm.PASSWORD);
    assertThat(cli(null, "login", "--password", "--user", "bob").exitCode()).isZero();
    var json = new ObjectMapper();
    var cached = (ObjectNode) json.readTree(Files.readString(tokenFile));
    var oldToken = cached.get("accessToken").asText();
    cached.put("accessTokenExpiresAt", Instant.now().minusSeconds(5).toString());
    Files.writeString(tokenFile, json.writeValueAsString(cached));

    var status = cli(null, "status");

    assertThat(status.exitCode()).as(status.all()).isZero();
    var refreshed = json.readTree(Files.readString(tokenFile));
    assertThat(refreshed.get("accessToken").asText()).isNotEqualTo(oldToken);
    assertThat(Instant.parse(refreshed.get("accessTokenExpiresAt").asText()))
        .isAfter(Instant.now().plusSeconds(60));
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile)))
        .isEqualTo("rw-------");
  }

  @Test
  void aTokenInTheEnvironmentWinsOverTheCachedLogin() {
    env.put("TRAINYARD_PASSWORD", TestRealm.PASSWORD);
    assertThat(cli(null, "login", "--password", "--user", "alice").exitCode()).isZero();
    env.put("TRAINYARD_TOKEN", "not-a-valid-token");

    var status = cli(null, "status");

    assertThat(status.exitCode()).as("AUTH: the token was refused").isEqualTo(6);
    assertThat(status.stderr()).contains("a valid bearer token is required");
  }

  @Test
  void theDeviceLoginIsApprovedInTheBrowserAndTheCliPicksItUp() {
    var login = JavaProcess.start(CLI, List.of("login"), env, null, home);
    var link = awaitLink(login);

    var finalPage = new DeviceApproval().approve(link, "carol", TestRealm.PASSWORD);
    var result = login.await(Duration.ofSeconds(60));

    assertThat(finalPage).containsIgnoringCase("success");
    assertThat(result.exitCode()).as(result.all()).isZero();
    assertThat(result.stdout()).contains("enter the code").contains("as carol");
    var status = cli(null, "status");
    assertThat(status.exitCode()).as(status.all()).isZero();
  }

  private static String awaitLink(JavaProcess login) {
    var deadline = Instant.now().plusSeconds(60);
    while (Instant.now().isBefore(deadline)) {
      var matcher = COMPLETE_URI.matcher(login.stdoutSoFar());
      if (matcher.find()) {
        return matcher.group(1);
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    throw new AssertionError("the CLI printed no verification link: " + login.stdoutSoFar());
  }
}
