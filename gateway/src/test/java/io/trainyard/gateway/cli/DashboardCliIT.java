package io.trainyard.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.auth.DevIssuer;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.testing.DevApp;
import io.trainyard.gateway.testing.GatewayClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@code trainyard backends}, {@code spend} and {@code audit export --wait} as a person runs them:
 * the real CLI in its own JVM against the real gateway.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class DashboardCliIT {
  private static final Path DIR = GatewayClient.tempDir("trainyard-dashboard-cli");
  private static final String CLI = "io.trainyard.cli.TrainyardCli";

  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      DevApp.onFreePorts(DIR, config());

  private static String alice;
  private static String admin;
  private static String auditor;

  @BeforeAll
  static void aJobRan() {
    var issuer = DevIssuer.loadOrCreate(DIR, AuthConfig.DEV_ISSUER);
    alice = issuer.mint("alice", Set.of("nlp"), Set.of("trainer"), Duration.ofHours(1));
    admin = issuer.mint("dave", Set.of("nlp"), Set.of("team-admin"), Duration.ofHours(1));
    auditor = issuer.mint("carol", Set.of(), Set.of("auditor"), Duration.ofHours(1));
    var client = new GatewayClient(APP.getLocalPort());
    var spec =
        """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: cli-spend}
        spec:
          framework: pytorch
          image: python:3.11-slim
          command: [sleep, "0"]
          replicas: {master: 1}
        """;
    var answer = client.post("/v1/jobs", alice, "application/yaml", spec);
    assertThat(answer.status()).as(answer.body()).isEqualTo(201);
    client.awaitEnd(answer.json().get("id").asText(), alice);
  }

  @Test
  void backendsAndSpendPrintTables() {
    var backends = cli(alice, "backends");
    assertThat(backends.exit()).as(backends.all()).isZero();
    assertThat(backends.out())
        .contains("BACKEND  KIND   HEALTH  RUNNING  QUEUED  GPUS  CPUS  PRICES")
        .containsPattern("local +local +ok +0 +0 +0 +0 +\\d+d old");

    var spend = cli(admin, "spend", "nlp");
    assertThat(spend.exit()).as(spend.all()).isZero();
    assertThat(spend.out())
        .contains("team nlp")
        .containsPattern("local +\\d+\\.\\d+")
        .contains("1 job(s) cost $");

    // A trainer may not read spend: the gateway's refusal, one line, exit 4 (refused).
    var refused = cli(alice, "spend");
    assertThat(refused.exit()).isEqualTo(4);
    assertThat(refused.err()).startsWith("error: ").doesNotContain("Exception");
  }

  @Test
  void auditExportWaitDownloadsTheExportAsStoredAndVerifiesIt() throws IOException {
    var export = cli(auditor, "audit", "export", "--name", "cli-export", "--wait", "--dir", "got");
    assertThat(export.exit()).as(export.all()).isZero();
    assertThat(export.out())
        .contains("export cli-export:")
        .contains("downloaded into")
        .contains("OK");
    var sink = DIR.resolve("audit-exports").resolve("cli-export");
    var files = new ArrayList<String>();
    try (var stored = Files.list(sink)) {
      stored.forEach(f -> files.add(f.getFileName().toString()));
    }
    assertThat(files).contains("manifest.json", "events.jsonl");
    for (var file : files) {
      assertThat(DIR.resolve("got").resolve(file))
          .hasBinaryContent(Files.readAllBytes(sink.resolve(file)));
    }

    var trainer = cli(alice, "audit", "export");
    assertThat(trainer.exit()).isEqualTo(4);
    assertThat(trainer.err()).startsWith("error: ");
  }

  private record Run(int exit, String out, String err) {
    String all() {
      return out + err;
    }
  }

  /** The CLI in its own JVM, in DIR, with only the URL and the token in its environment. */
  private static Run cli(String token, String... args) {
    var command = new ArrayList<String>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-cp");
    command.add(
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
    command.add(CLI);
    command.addAll(List.of(args));
    var builder = new ProcessBuilder(command).directory(DIR.toFile());
    var env = builder.environment();
    var path = env.get("PATH");
    env.clear();
    env.put("PATH", path == null ? "/usr/bin:/bin" : path);
    env.put("HOME", DIR.toString());
    env.put("TRAINYARD_URL", "http://127.0.0.1:" + APP.getLocalPort());
    env.put("TRAINYARD_TOKEN", token);
    try {
      var outFile = Files.createTempFile(DIR, "cli", ".out");
      var errFile = Files.createTempFile(DIR, "cli", ".err");
      var process =
          builder.redirectOutput(outFile.toFile()).redirectError(errFile.toFile()).start();
      process.getOutputStream().close();
      if (!process.waitFor(120, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("the CLI did not end: " + Files.readString(outFile));
      }
      return new Run(
          process.exitValue(),
          Files.readString(outFile, StandardCharsets.UTF_8),
          Files.readString(errFile, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static String config() {
    return """
        dataDir: %s
        database:
          url: "jdbc:h2:file:%s/db;DB_CLOSE_ON_EXIT=FALSE"
        auth:
          mode: dev
        audit:
          digestEveryEvents: 5
        reconciler:
          resyncInterval: 200ms
        server:
          applicationConnectors: [{type: http, port: 0, bindHost: 127.0.0.1}]
          adminConnectors: [{type: http, port: 0}]
        teams:
          nlp: {backends: [local], monthlyBudgetUsd: 100}
        backends:
          - type: local
            usdPerHour: 0.5
        """
        .formatted(DIR, DIR);
  }
}
