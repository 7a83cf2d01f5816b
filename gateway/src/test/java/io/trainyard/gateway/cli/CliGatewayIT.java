package io.trainyard.gateway.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.ECDSASigner;
import com.nimbusds.jose.jwk.ECKey;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.dropwizard.testing.junit5.DropwizardAppExtension;
import io.dropwizard.testing.junit5.DropwizardExtensionsSupport;
import io.trainyard.auth.DevIssuer;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.idp.JavaProcess;
import io.trainyard.gateway.testing.DevApp;
import io.trainyard.gateway.testing.GatewayClient;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real CLI, each command in its own JVM as a user runs it, against the real gateway on its
 * embedded defaults (dev auth, H2, the local backend with one job slot): {@code submit --wait} to
 * SUCCEEDED, {@code status --watch}, {@code queue} with a queued job, Ctrl-C leaving a job running,
 * the gateway down, an expired token, and bash completing real job ids. Every test leaves no live
 * job behind, so the one slot is free for the next.
 */
@ExtendWith(DropwizardExtensionsSupport.class)
class CliGatewayIT {
  private static final Path DIR = GatewayClient.tempDir("trainyard-cli-it");
  private static final Path REPO = Path.of("..").toAbsolutePath().normalize();
  private static final String CLI = "io.trainyard.cli.TrainyardCli";

  static final DropwizardAppExtension<TrainyardConfiguration> APP =
      DevApp.onFreePorts(DIR, config());

  private static GatewayClient client;
  private static String alice;

  @TempDir Path work;
  private final Map<String, String> env = new HashMap<>();

  @BeforeAll
  static void tokens() {
    client = new GatewayClient(APP.getLocalPort());
    alice =
        DevIssuer.loadOrCreate(DIR, AuthConfig.DEV_ISSUER)
            .mint("alice", Set.of("nlp"), Set.of("trainer"), Duration.ofHours(1));
  }

  @BeforeEach
  void environment() {
    env.put("TRAINYARD_URL", "http://127.0.0.1:" + APP.getLocalPort());
    env.put("TRAINYARD_TOKEN", alice);
  }

  @AfterEach
  void nothingLeftRunning() {
    for (JsonNode job : client.get("/v1/jobs", alice).json().path("jobs")) {
      var state = job.path("state").asText();
      if (!Set.of("SUCCEEDED", "FAILED", "CANCELLED").contains(state)) {
        client.delete("/v1/jobs/" + job.path("id").asText(), alice);
        client.awaitEnd(job.path("id").asText(), alice);
      }
    }
  }

  private JavaProcess.Result cli(String... args) {
    return JavaProcess.run(CLI, List.of(args), env, null, work);
  }

  private JavaProcess startCli(String... args) {
    return JavaProcess.start(CLI, List.of(args), env, null, work);
  }

  private Path spec(String name, String command) throws Exception {
    var file = work.resolve(name + ".yaml");
    Files.writeString(
        file,
        """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: %s}
        spec:
          framework: pytorch
          image: python:3.11-slim
          command: %s
          replicas: {master: 1}
        """
            .formatted(name, command));
    return file;
  }

  private String submitOverHttp(String name, String command) throws Exception {
    var answer =
        client.post("/v1/jobs", alice, "application/yaml", Files.readString(spec(name, command)));
    assertThat(answer.status()).as(answer.body()).isEqualTo(201);
    return answer.json().get("id").asText();
  }

  private static void assertNoStackTrace(JavaProcess.Result result) {
    assertThat(result.all()).doesNotContain("Exception").doesNotContainPattern("\\n\\s+at ");
  }

  @Test
  void submitWaitShowsTheDecisionAndFollowsTheJobToSucceeded() throws Exception {
    spec("quick", "[sleep, \"1\"]");

    var result = cli("submit", "quick.yaml", "--wait");

    assertThat(result.exitCode()).as(result.all()).isZero();
    var lines = result.stdout().lines().toList();
    assertThat(lines.get(0)).startsWith("BACKEND").contains("DECISION");
    assertThat(result.stdout())
        .containsPattern("(?m)^local +local .* chosen$")
        .contains("policy cheapest: runs on local")
        .containsPattern("(?m)^submitted job [0-9a-z]{26} \\(quick, team nlp\\)$")
        .containsPattern("(?m)^\\[\\d+s\\] job [0-9a-z]{26}: SUCCEEDED on local$");
    assertThat(lines.get(lines.size() - 1)).matches("job [0-9a-z]{26} SUCCEEDED in .+");
    assertThat(result.stderr()).isEmpty();
  }

  @Test
  void statusWatchFollowsARunningJobAndExitsFromItsFinalState() throws Exception {
    var running = submitOverHttp("watched", "[sleep, \"120\"]");

    var watch = startCli("status", running, "--watch");
    awaitPrinted(watch, ": RUNNING on local");
    var cancel = cli("cancel", running);
    var watched = watch.await(Duration.ofSeconds(60));

    assertThat(cancel.exitCode()).as(cancel.all()).isZero();
    assertThat(watched.exitCode()).as(watched.all()).isEqualTo(1);
    assertThat(watched.stdout())
        .containsPattern("(?m)^\\[\\d+s\\] job " + running + ": RUNNING on local$")
        .containsPattern("(?m)^\\[\\d+s\\] job " + running + ": CANCELLED on local.*$");
    assertThat(watched.stderr()).startsWith("error: job " + running + " CANCELLED");

    var done = submitOverHttp("done", "[sleep, \"0\"]");
    client.awaitEnd(done, alice);
    var succeeded = cli("status", done, "--watch");

    assertThat(succeeded.exitCode()).as(succeeded.all()).isZero();
    assertThat(succeeded.stdout())
        .containsPattern("(?m)^\\[\\d+s\\] job " + done + ": SUCCEEDED on local$")
        .containsPattern("(?m)^job " + done + " SUCCEEDED in .+$");
    assertNoStackTrace(watched);
  }

  private static void awaitPrinted(JavaProcess process, String text) throws InterruptedException {
    var deadline = Instant.now().plusSeconds(60);
    while (!process.stdoutSoFar().contains(text) && Instant.now().isBefore(deadline)) {
      TimeUnit.MILLISECONDS.sleep(100);
    }
    assertThat(process.stdoutSoFar()).contains(text);
  }

  @Test
  void queueShowsTheQueuedJobAndCtrlCLeavesAWaitedJobRunning() throws Exception {
    var blocker = submitOverHttp("blocker", "[sleep, \"120\"]");
    client.awaitState(blocker, "RUNNING", alice);
    spec("waiting", "[sleep, \"0\"]");

    var waiting = startCli("submit", "waiting.yaml", "--wait");
    awaitPrinted(waiting, ": QUEUED (no backend can take it now: local: no free job slot");
    assertThat(waiting.stdoutSoFar()).contains("submitted job");

    var queue = cli("queue");
    assertThat(queue.exitCode()).as(queue.all()).isZero();
    var rows = queue.stdout().lines().toList();
    assertThat(rows.get(0)).matches("POS +ID +NAME +TEAM +PRIORITY +WAITING +WHY");
    assertThat(rows.get(1))
        .matches("1 +[0-9a-z]{26} +waiting +nlp +500 +\\d+s +local: no free job slot.*");

    waiting.signal("INT");
    var stopped = waiting.await(Duration.ofSeconds(30));
    var id = rows.get(1).split(" +")[1];
    assertThat(stopped.exitCode()).as(stopped.all()).isEqualTo(130);
    assertThat(stopped.stderr())
        .contains("stopped following job " + id + " (QUEUED); it keeps running.")
        .contains("Cancel it with: trainyard cancel " + id);
    assertThat(client.get("/v1/jobs/" + id, alice).json().get("state").asText())
        .isEqualTo("QUEUED");

    var cancel = cli("cancel", blocker);
    assertThat(cancel.exitCode()).as(cancel.all()).isZero();
    assertThat(client.awaitEnd(id, alice).get("state").asText()).isEqualTo("SUCCEEDED");
    var empty = cli("queue");
    assertThat(empty.stdout()).isEqualTo("no queued jobs\n");
  }

  @Test
  void aGatewayThatIsDownIsNamedWithoutAStackTrace() throws Exception {
    int port;
    try (var socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    env.put("TRAINYARD_URL", "http://127.0.0.1:" + port);

    var refused = cli("status");
    env.put("TRAINYARD_URL", "http://trainyard-gateway.invalid:8080");
    var unknownHost = cli("queue");

    assertThat(refused.exitCode()).isEqualTo(3);
    assertThat(refused.stderr())
        .startsWith(
            "error: cannot reach the Trainyard gateway at http://127.0.0.1:"
                + port
                + ": connection refused\n  is it running?");
    assertThat(unknownHost.exitCode()).isEqualTo(3);
    assertThat(unknownHost.stderr()).contains("unknown host trainyard-gateway.invalid");
    assertNoStackTrace(refused);
    assertNoStackTrace(unknownHost);
  }

  @Test
  void anExpiredTokenSaysWhenItExpiredAndToLogIn() throws Exception {
    env.put("TRAINYARD_TOKEN", expiredToken());

    var result = cli("status");

    assertThat(result.exitCode()).as(result.all()).isEqualTo(6);
    var lines = result.stderr().lines().toList();
    assertThat(lines.get(0)).isEqualTo("error: a valid bearer token is required");
    assertThat(lines)
        .anySatisfy(l -> assertThat(l).matches("  the token expired 1h0\\dm ago \\(at .+Z\\)"))
        .endsWith("  run `trainyard login` (or set a fresh TRAINYARD_TOKEN, or pass --token)");
    assertThat(result.all()).doesNotContain(env.get("TRAINYARD_TOKEN"));
    assertNoStackTrace(result);
  }

  @Test
  void bashCompletesTheJobIdsTheGatewayKnows() throws Exception {
    var id = submitOverHttp("completed", "[sleep, \"0\"]");
    client.awaitEnd(id, alice);
    var bin = Files.createDirectories(work.resolve("bin"));
    var wrapper = bin.resolve("trainyard");
    Files.writeString(
        wrapper,
        "#!/bin/sh\nexec '%s' -cp '%s' %s \"$@\"\n"
            .formatted(
                Path.of(System.getProperty("java.home"), "bin", "java"),
                System.getProperty(
                    "surefire.test.class.path", System.getProperty("java.class.path")),
                CLI));
    Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
    var script = cli("completion", "bash");
    Files.writeString(work.resolve("trainyard.bash"), script.stdout());

    var bash =
        new ProcessBuilder(
                "bash",
                "-c",
                "export PATH=\"$PWD/bin:$PATH\"; source ./trainyard.bash;"
                    + " COMP_WORDS=(trainyard logs "
                    + id.substring(0, 6)
                    + "); COMP_CWORD=2;"
                    + " _trainyard; printf '%s\\n' \"${COMPREPLY[@]}\"")
            .directory(work.toFile())
            .redirectErrorStream(true);
    bash.environment().putAll(env);
    var process = bash.start();
    var output = new String(process.getInputStream().readAllBytes());
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();

    assertThat(output.lines()).contains(id);
  }

  /** A token of the gateway's own dev issuer, signed with its key, that expired an hour ago. */
  private static String expiredToken() throws Exception {
    var key = ECKey.parse(Files.readString(DIR.resolve("dev-issuer.jwk.json")));
    var issuer = DevIssuer.loadOrCreate(DIR, AuthConfig.DEV_ISSUER);
    var now = Instant.now();
    var claims =
        new JWTClaimsSet.Builder()
            .issuer(issuer.issuer())
            .audience(DevIssuer.AUDIENCE)
            .subject("dev:alice")
            .claim("preferred_username", "alice")
            .claim("groups", List.of("nlp"))
            .claim("realm_access", Map.of("roles", List.of("trainer")))
            .issueTime(Date.from(now.minusSeconds(7200)))
            .notBeforeTime(Date.from(now.minusSeconds(7200)))
            .expirationTime(Date.from(now.minusSeconds(3600)))
            .build();
    var jwt =
        new SignedJWT(
            new JWSHeader.Builder(JWSAlgorithm.ES256)
                .keyID(issuer.keyId())
                .type(JOSEObjectType.JWT)
                .build(),
            claims);
    jwt.sign(new ECDSASigner(key));
    return jwt.serialize();
  }

  private static String config() {
    return """
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
        teams:
          nlp: {}
        backends:
          - type: local
            codeDir: %s
            maxConcurrentJobs: 1
            # Not the default range: another gateway on this host (a colleague's test run) that
            # frees a uid kills whatever runs as it, replicas of ours included.
            uidRange: 231000-231099
        """
        .formatted(DIR, DIR, REPO);
  }
}
