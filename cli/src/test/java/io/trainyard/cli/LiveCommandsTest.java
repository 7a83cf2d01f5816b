package io.trainyard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code queue}, {@code status --watch}, {@code submit --wait} and {@code status --quiet}, run
 * in-process against a real HTTP server answering like the gateway, as a pipe and as a TTY.
 */
class LiveCommandsTest {
  private static final String ID = "01jh5n8k2q7x3v4w5y6z7a8b9c";
  private static final String SPEC = "apiVersion: trainyard.io/v1\nkind: TrainingJob\n";

  @TempDir Path workDir;

  private FakeGateway gateway;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final Map<String, String> env = new HashMap<>();

  @BeforeEach
  void startGateway() throws IOException {
    gateway = new FakeGateway();
    env.put("TRAINYARD_URL", gateway.url());
    env.put("TRAINYARD_TOKEN", "t");
    Files.writeString(workDir.resolve("job.yaml"), SPEC);
  }

  @AfterEach
  void stopGateway() {
    gateway.close();
  }

  private int run(boolean tty, String... args) {
    var terminal =
        new Terminal(
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            env,
            workDir,
            new java.io.ByteArrayInputStream(new byte[0]),
            tty);
    return TrainyardCli.run(args, terminal);
  }

  private String stdout() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String stderr() {
    return err.toString(StandardCharsets.UTF_8);
  }

  private static String job(String state, String extra) {
    return "{\"id\":\"%s\",\"name\":\"lr\",\"team\":\"nlp\",\"state\":\"%s\",\"attempt\":1%s}"
        .formatted(ID, state, extra);
  }

  /** The job answers these in turn, the last one for good. */
  private void jobGoes(String... answers) {
    for (var answer : answers) {
      gateway.answer("GET", "/v1/jobs/" + ID, 200, answer);
    }
  }

  @Test
  void queueShowsPositionTeamPriorityWaitingAndWhy() {
    gateway.answer(
        "GET",
        "/v1/queue",
        200,
        """
        {"jobs":[
          {"position":1,"id":"01a","name":"high","team":"nlp","priority":900,
           "queuedAt":"2030-01-01T10:00:00Z","ageSeconds":95,
           "reason":"no backend can take it now: local: no free job slot; eks-a: unhealthy",
           "reasons":["local: no free job slot","eks-a: unhealthy"]},
          {"position":3,"id":"01b","name":"low","team":"nlp","priority":100,
           "queuedAt":"2030-01-01T10:00:00Z","ageSeconds":4000,
           "reason":"team nlp is at its quota","reasons":["team nlp is at its quota"]}]}
        """);

    assertThat(run(false, "queue")).isZero();

    assertThat(stdout().lines())
        .containsExactly(
            "POS  ID   NAME  TEAM  PRIORITY  WAITING  WHY",
            "1    01a  high  nlp   900       1m35s    local: no free job slot",
            "    also: eks-a: unhealthy",
            "3    01b  low   nlp   100       1h06m    team nlp is at its quota");
    assertThat(gateway.lastRequest().header("Authorization")).isEqualTo("Bearer t");
  }

  @Test
  void anEmptyQueueSaysSo() {
    gateway.answer("GET", "/v1/queue", 200, "{\"jobs\":[]}");

    assertThat(run(false, "queue")).isZero();

    assertThat(stdout()).isEqualTo("no queued jobs\n");
  }

  @Test
  void watchPrintsOneLinePerChangeOnAPipeAndExitsFromTheFinalState() {
    jobGoes(
        job("PENDING", ""),
        job("RUNNING", ",\"backend\":\"local\""),
        job("RUNNING", ",\"backend\":\"local\""),
        job("RUNNING", ",\"backend\":\"local\",\"restarts\":1"),
        job("SUCCEEDED", ",\"backend\":\"local\",\"durationSeconds\":62"));

    assertThat(run(false, "status", ID, "--watch")).isZero();

    assertThat(stdout().lines())
        .hasSize(5)
        .satisfiesExactly(
            l -> assertThat(l).matches("\\[\\d+s\\] job " + ID + ": PENDING"),
            l -> assertThat(l).matches("\\[\\d+s\\] job " + ID + ": RUNNING on local"),
            l -> assertThat(l).endsWith(": RUNNING on local, 1 restart"),
            l -> assertThat(l).endsWith(": SUCCEEDED on local"),
            l -> assertThat(l).isEqualTo("job " + ID + " SUCCEEDED in 1m02s"));
    assertThat(stdout()).doesNotContain("\033[");
  }

  @Test
  void watchingAJobThatFailsExitsOneWithItsReason() {
    jobGoes(job("RUNNING", ""), job("FAILED", ",\"reason\":\"OOMKilled\""));

    assertThat(run(false, "status", ID, "--watch")).isEqualTo(1);

    assertThat(stderr()).isEqualTo("error: job " + ID + " FAILED: OOMKilled\n");
  }

  @Test
  void watchRedrawsTheDetailsInPlaceOnATty() {
    jobGoes(job("RUNNING", ",\"backend\":\"local\""), job("SUCCEEDED", ",\"backend\":\"local\""));

    assertThat(run(true, "status", ID, "--watch")).isZero();

    String screen = stdout();
    assertThat(screen)
        .startsWith("id:        " + ID)
        .contains("watching for 0s — Ctrl-C stops watching; the job keeps running")
        // the block was drawn again over itself: cursor up, clear to the end of the screen
        .containsPattern("\r\033\\[\\d+A\033\\[J")
        .contains("state:     SUCCEEDED")
        .contains("(ended)");
  }

  @Test
  void watchWithJsonOutputPrintsTheJobOnceAChange() {
    jobGoes(job("RUNNING", ""), job("CANCELLED", ""));

    assertThat(run(false, "status", ID, "--watch", "--output", "json")).isEqualTo(1);

    assertThat(stdout().lines()).containsExactly(job("RUNNING", ""), job("CANCELLED", ""));
    assertThat(stderr()).contains("\"code\":\"FAILED\"").contains("\"exitStatus\":1");
  }

  @Test
  void submitWaitShowsTheQuoteTableThenProgressUntilItSucceeds() {
    gateway.answer(
        "POST",
        "/v1/jobs",
        201,
        """
        {"id":"%s","name":"lr","team":"nlp","state":"PENDING","backend":"local","attempt":1,
         "hourlyUsd":0,"estimatedUsd":0,"warnings":["spec.maxRuntime defaulted to 6h"],
         "decision":{"policy":"cheapest","chosen":"local","candidates":[
           {"backendId":"local","kind":"local","region":"local","spot":false,"hourlyUsd":0,
            "estimatedUsd":0,"chosen":true},
           {"backendId":"eks-a","kind":"eks","region":"us-east-1","spot":false,
            "rejected":"no nvidia-a100-40gb GPU"}]}}
        """
            .formatted(ID));
    jobGoes(job("SUBMITTED", ",\"backend\":\"local\""), job("SUCCEEDED", ",\"backend\":\"local\""));

    assertThat(run(false, "submit", "job.yaml", "--wait")).isZero();

    assertThat(stdout().lines())
        .startsWith(
            "BACKEND  KIND   REGION     SPOT  $/H   EST.$  DECISION",
            "local    local  local      no    0.00  0.00   chosen",
            "eks-a    eks    us-east-1  no    -     -      rejected: no nvidia-a100-40gb GPU",
            "policy cheapest: runs on local",
            "",
            "submitted job " + ID + " (lr, team nlp)")
        .contains("warning: spec.maxRuntime defaulted to 6h")
        .anySatisfy(l -> assertThat(l).endsWith("job " + ID + ": SUBMITTED on local"))
        .anySatisfy(l -> assertThat(l).endsWith("job " + ID + ": SUCCEEDED on local"))
        .last()
        .asString()
        .startsWith("job " + ID + " SUCCEEDED in ");
    assertThat(stdout().lines().filter(l -> l.startsWith("warning:"))).hasSize(1);
  }

  @Test
  void submitWaitOnATtyRedrawsOneProgressLineWithTheElapsedTime() {
    gateway.answer("POST", "/v1/jobs", 201, job("PENDING", ""));
    jobGoes(job("RUNNING", ",\"backend\":\"local\""), job("SUCCEEDED", ",\"backend\":\"local\""));

    assertThat(run(true, "submit", "job.yaml", "--wait")).isZero();

    assertThat(stdout())
        .contains("\r\033[Kjob " + ID + ": RUNNING on local — elapsed 0s")
        .contains("\r\033[Kjob " + ID + ": SUCCEEDED on local — elapsed ");
  }

  @Test
  void submitWaitExitsOneWhenTheJobIsCancelledAndGivesUpAtItsTimeout() throws IOException {
    gateway.answer("POST", "/v1/jobs", 201, job("PENDING", ""));
    jobGoes(job("CANCELLED", ""));

    assertThat(run(false, "submit", "job.yaml", "--wait")).isEqualTo(1);
    assertThat(stderr()).isEqualTo("error: job " + ID + " CANCELLED\n");

    err.reset();
    var other = new FakeGateway();
    try (other) {
      other.answer("POST", "/v1/jobs", 201, job("QUEUED", ""));
      other.answer("GET", "/v1/jobs/" + ID, 200, job("QUEUED", ""));
      env.put("TRAINYARD_URL", other.url());

      assertThat(run(false, "submit", "job.yaml", "--wait", "--timeout", "1s")).isEqualTo(1);
    }
    assertThat(stderr())
        .isEqualTo(
            "error: job "
                + ID
                + " is still QUEUED after 1s; it keeps running (`trainyard cancel "
                + ID
                + "` cancels it)\n");
  }

  @Test
  void waitAndWatchOptionsThatCannotGoTogether() {
    assertThat(run(false, "submit", "job.yaml", "--wait", "--dry-run")).isEqualTo(2);
    assertThat(run(false, "submit", "job.yaml", "--timeout", "5m")).isEqualTo(2);
    assertThat(run(false, "status", "--watch")).isEqualTo(2);
    assertThat(run(false, "status", ID, "--quiet")).isEqualTo(2);
    assertThat(stderr().lines())
        .containsExactly(
            "error: --wait follows a submitted job; a --dry-run submits none",
            "error: --timeout goes with --wait (see `trainyard help submit`)",
            "error: --watch follows one job: trainyard status ID --watch",
            "error: --quiet lists the ids of your jobs; it takes no ID");
    assertThat(gateway.requests()).isEmpty();
  }

  @Test
  void quietStatusPrintsOnlyTheIds() {
    gateway.answer(
        "GET",
        "/v1/jobs",
        200,
        "{\"jobs\":[" + job("RUNNING", "") + "," + job("QUEUED", "") + "]}");

    assertThat(run(false, "status", "--quiet")).isZero();

    assertThat(stdout()).isEqualTo(ID + "\n" + ID + "\n");
  }
}
