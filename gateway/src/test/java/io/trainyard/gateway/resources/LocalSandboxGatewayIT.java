package io.trainyard.gateway.resources;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.ConfigOverride;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.auth.DevIssuer;
import io.trainyard.gateway.TrainyardApplication;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.testing.GatewayClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A trainer's hostile job on the real gateway's local backend (sandboxed as this machine allows;
 * users as root): it must find nothing of the gateway, neither its processes' environments, its
 * data directory (dev issuer key, audit keys, H2 files, another team's secrets), nor its ports.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class LocalSandboxGatewayIT {
  private static final Path DIR = GatewayClient.tempDir("trainyard-sandbox");
  private static final Path WORK =
      Path.of(System.getProperty("java.io.tmpdir"), DIR.getFileName() + "-work");
  private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
  private static final String SECRET_MARKER = "vision-team-secret-marker";

  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      new DropwizardAppExtension<>(
          TrainyardApplication.class,
          writeConfig(),
          ConfigOverride.config("server.applicationConnectors[0].port", "0"),
          ConfigOverride.config("server.adminConnectors[0].port", "0"));

  private static GatewayClient client;
  private static String alice;

  @BeforeAll
  static void tokens() {
    client = new GatewayClient(APP.getLocalPort());
    var issuer = DevIssuer.loadOrCreate(DIR, AuthConfig.DEV_ISSUER);
    alice = issuer.mint("alice", Set.of("nlp"), Set.of("trainer"), Duration.ofHours(1));
  }

  @Test
  void aHostileJobFindsNothingOfTheGateway() {
    var probe =
        """
        echo "probe-ran uid=$(id -u)"
        touch "$TRAINYARD_ATTEMPT_DIR/own" && echo own-dir-writable
        for f in /proc/[0-9]*/environ; do
          env=$(tr '\\0' '\\n' < "$f" 2>/dev/null) || continue
          # the replica's wrapper started with the sandbox tools' environment: a fixed PATH only
          tools=$(printf '%%s\\n' "$env" | grep -v '^PWD=' | grep -vxF 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin')
          [ -z "$tools" ] && continue
          case $env in *TRAINYARD_JOB_ID=*) ;; *) echo "FOUND foreign environ $f";; esac
        done
        ls -a "$DATA" 2>/dev/null | sed 's/^/FOUND listed /'
        grep -rl -e 'PRIVATE KEY' -e '"d"' -e %s "$DATA" 2>/dev/null | sed 's/^/FOUND read /'
        for p in $PORTS; do
          if timeout 2 bash -c "exec 3<>/dev/tcp/127.0.0.1/$p" 2>/dev/null; then
            echo "FOUND port $p"
          fi
        done
        echo probe-done
        """
            .formatted(SECRET_MARKER);
    var yaml =
        """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: hostile}
        spec:
          framework: pytorch
          image: python:3.11-slim
          command: [bash, -c, %s]
          env: {DATA: "%s", PORTS: "%d %d"}
          replicas: {master: 1}
        """
            .formatted(json(probe), DIR, APP.getLocalPort(), APP.getAdminPort());

    var submitted = client.post("/v1/jobs", alice, "application/yaml", yaml);
    assertThat(submitted.status()).as(submitted.body()).isEqualTo(201);
    var id = submitted.json().get("id").asText();
    var job = awaitEnd(id);
    var logs = client.get("/v1/jobs/" + id + "/logs", alice).body();

    assertThat(job.get("state").asText()).as(logs).isEqualTo("SUCCEEDED");
    assertThat(logs).contains("own-dir-writable", "probe-done").doesNotContain("FOUND");
    assertThat(logs).doesNotContain("probe-ran uid=0");
  }

  @Test
  void theAdminTasksAreOff() {
    var admin = new GatewayClient(APP.getAdminPort());
    var logLevel =
        admin.post(
            "/tasks/log-level",
            null,
            "application/x-www-form-urlencoded",
            "logger=org.eclipse.jetty&level=DEBUG");

    assertThat(logLevel.status()).isEqualTo(404);
    assertThat(logLevel.json().get("code").asText()).isEqualTo("NOT_FOUND");
    assertThat(logLevel.json().get("errors").get(0).get("field").asText()).isEqualTo("path");
    assertThat(admin.post("/tasks/gc", null, "text/plain", "").status()).isEqualTo(404);
    assertThat(admin.get("/healthcheck", null).status()).isIn(200, 500);
  }

  @Test
  void theDataDirectoryAndEverythingInItAreOwnerOnlyWhateverTheUmask() throws IOException {
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(DIR)))
        .isEqualTo("rwx------");
    try (var files = Files.list(DIR)) {
      var entries = files.toList();
      assertThat(entries).anyMatch(f -> f.getFileName().toString().endsWith(".mv.db"));
      assertThat(entries).anyMatch(f -> f.getFileName().toString().equals("backends"));
      // The stores that open after the start: their directories are there, and sealed, already.
      assertThat(entries)
          .anyMatch(f -> f.getFileName().toString().equals("log-archive"))
          .anyMatch(f -> f.getFileName().toString().equals("audit-exports"));
      for (var entry : entries) {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(entry)))
            .as(entry.toString())
            .isEqualTo(Files.isDirectory(entry) ? "rwx------" : "rw-------");
      }
    }
  }

  private static String json(String text) {
    try {
      return new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static com.fasterxml.jackson.databind.JsonNode awaitEnd(String id) {
    return client.awaitEnd(id, alice);
  }

  private static String writeConfig() {
    var yaml =
        """
        dataDir: %s
        database:
          url: "jdbc:h2:file:%s/db;DB_CLOSE_ON_EXIT=FALSE"
        auth:
          mode: dev
        reconciler:
          resyncInterval: 200ms
        server:
          applicationConnectors: [{type: http, port: 0, bindHost: 127.0.0.1}]
          adminConnectors: [{type: http, port: 0}]
        backends:
          - type: local
            codeDir: %s
            secretsDir: %s/secrets
            workDir: %s
        """
            .formatted(DIR, DIR, REPO, DIR, WORK);
    try {
      // As a umask of 022 would leave them: the gateway must close them itself.
      Files.setPosixFilePermissions(DIR, PosixFilePermissions.fromString("rwxr-xr-x"));
      Files.createDirectories(DIR.resolve("secrets/vision/db"));
      Files.writeString(DIR.resolve("secrets/vision/db/password"), SECRET_MARKER);
      var file = DIR.resolve("trainyard.yml");
      Files.writeString(file, yaml);
      return file.toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
