package io.trainyard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The CLI run in-process against a real HTTP server that answers like the gateway. */
class TrainyardCliTest {
  private static final String SPEC =
      "apiVersion: trainyard.io/v1\nkind: TrainingJob\nmetadata: {name: linear-regression}\n";
  private static final String JOB_ID = "01jh5n8k2q7x3v4w5y6z7a8b9c";
  private static final String SUBMITTED =
      """
      {"id":"01jh5n8k2q7x3v4w5y6z7a8b9c","name":"linear-regression","team":"demo",
       "state":"PENDING","backend":"local","attempt":1,"hourlyUsd":"0","estimatedUsd":"0",
       "warnings":["spec.maxRuntime defaulted to 6h"],"decision":{"policy":"cheapest","chosen":"local"}}
      """;
  private static final String INVALID =
      """
      {"code":"SPEC_INVALID","message":"the job spec is invalid",
       "errors":[{"field":"spec.resources.gpus","message":"must be at least 0"},
                 {"field":"metadata.name","message":"must be a DNS-1123 label"}],
       "requestId":"req-42"}
      """;

  @TempDir Path workDir;

  private FakeGateway gateway;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final Map<String, String> env = new HashMap<>();

  @BeforeEach
  void startGateway() throws IOException {
    gateway = new FakeGateway();
    env.put("TRAINYARD_URL", gateway.url());
    env.put("TRAINYARD_TOKEN", "env-token");
  }

  @AfterEach
  void stopGateway() {
    gateway.close();
  }

  private int run(String... args) {
    return run(new PrintStream(out, true, StandardCharsets.UTF_8), args);
  }

  private int run(PrintStream stdout, String... args) {
    return run(stdout, false, args);
  }

  /** As {@link #run(String...)}, with a person watching standard output on a terminal. */
  private int runOnTerminal(String... args) {
    return run(new PrintStream(out, true, StandardCharsets.UTF_8), true, args);
  }

  private int run(PrintStream stdout, boolean tty, String... args) {
    var terminal =
        new Terminal(
            stdout,
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
    return "{\"id\":\""
        + JOB_ID
        + "\",\"name\":\"linear-regression\",\"state\":\""
        + state
        + "\""
        + extra
        + "}";
  }

  @Test
  void metricsShowsATableAndAChartOfTheLoss() {
    gateway.answer(
        "GET",
        "/v1/jobs/" + JOB_ID + "/metrics",
        200,
        """
        {"jobId":"%s","state":"SUCCEEDED","metrics":[
          {"name":"accuracy","goal":"max","last":{"name":"accuracy","value":0.8,"epoch":2},
           "best":{"name":"accuracy","value":0.8,"epoch":2},
           "points":[{"name":"accuracy","value":0.8,"epoch":2}]},
          {"name":"loss","goal":"min","last":{"name":"loss","value":0.25,"step":3,"epoch":3},
           "best":{"name":"loss","value":0.25,"step":3,"epoch":3},
           "points":[{"name":"loss","value":1.0,"step":1},{"name":"loss","value":0.5,"step":2},
                     {"name":"loss","value":0.25,"step":3}]}]}
        """
            .formatted(JOB_ID));

    int exit = run("metrics", JOB_ID);

    assertThat(exit).isZero();
    assertThat(stdout())
        .contains("METRIC    POINTS  LAST  AT       BEST  AT       GOAL")
        .contains("loss      3       0.25  step 3   0.25  step 3   min")
        .contains("accuracy  1       0.8   epoch 2  0.8   epoch 2  max")
        .contains("loss by step")
        .contains("   1 |*")
        .contains("0.25 |  *")
        .contains("     +---")
        .contains("step 1 .. step 3");
  }

  @Test
  void compareAsksForOneMetricOfEveryRun() {
    gateway.answer(
        "GET",
        "/v1/metrics/compare",
        200,
        """
        {"metric":"loss","goal":"min","runs":[
          {"jobId":"a1","name":"lr-small","state":"SUCCEEDED","series":{"name":"loss","goal":"min",
           "last":{"value":0.3,"step":9},"best":{"value":0.2,"step":5},"points":[{},{}]}},
          {"jobId":"b2","name":"lr-big","state":"RUNNING","series":{"name":"loss","goal":"min",
           "points":[]}}]}
        """);

    int exit = run("compare", "a1", "b2", "--metric", "loss");

    assertThat(exit).isZero();
    assertThat(gateway.lastRequest().query()).isEqualTo("jobs=a1,b2&name=loss");
    assertThat(stdout())
        .contains("JOB  NAME      STATE      POINTS  LAST loss  BEST loss")
        .contains("a1   lr-small  SUCCEEDED  2       0.3        0.2")
        .contains("b2   lr-big    RUNNING    0       -          -")
        .contains("best is the min of loss");
    assertThat(run("compare", "a1", "b2")).isEqualTo(2);
  }

  @Test
  void submitSendsTheYamlWithItsContentTypeTheKeyAndTheToken() throws IOException {
    Files.writeString(workDir.resolve("job.yaml"), SPEC);
    gateway.answer("POST", "/v1/jobs", 201, SUBMITTED);

    int exit = run("submit", "job.yaml", "--idempotency-key", "retry-1");

    assertThat(exit).isZero();
    var request = gateway.lastRequest();
    assertThat(request.query()).isNull();
    assertThat(request.header("Content-Type")).isEqualTo("application/yaml");
    assertThat(request.header("Idempotency-Key")).isEqualTo("retry-1");
    assertThat(request.header("Authorization")).isEqualTo("Bearer env-token");
    assertThat(request.bodyText()).isEqualTo(SPEC);
    assertThat(stdout())
        .contains("submitted job " + JOB_ID + " (linear-regression, team demo)")
        .contains("backend: local at $0.00/h, estimated $0.00")
        .contains("warning: spec.maxRuntime defaulted to 6h");
    assertThat(stderr()).isEmpty();
  }

  @Test
  void dryRunOfAJsonSpecWithTheTokenFromTheCommandLine() throws IOException {
    Files.writeString(workDir.resolve("job.json"), "{\"kind\":\"TrainingJob\"}");
    gateway.answer(
        "POST",
        "/v1/jobs",
        200,
        """
        {"dryRun":true,"warnings":[],"decision":{"policy":"cheapest","chosen":"local",
         "candidates":[{"backendId":"local","kind":"local","region":"local","spot":false,
          "hourlyUsd":0,"estimatedUsd":0,"estimated":false,"chosen":true,"rejected":null,"notes":[]}]}}
        """);

    int exit = run("--token", "flag-token", "submit", "--dry-run", "job.json");

    assertThat(exit).isZero();
    var request = gateway.lastRequest();
    assertThat(request.query()).isEqualTo("dryRun=true");
    assertThat(request.header("Content-Type")).isEqualTo("application/json");
    assertThat(request.header("Authorization")).isEqualTo("Bearer flag-token");
    assertThat(request.header("Idempotency-Key")).isNull();
    assertThat(stdout())
        .startsWith("dry run: nothing was submitted")
        .contains("policy cheapest: runs on local");
  }

  @Test
  void fieldErrorsArePrintedOneLineEachWithExitFour() throws IOException {
    Files.writeString(workDir.resolve("job.yaml"), SPEC);
    gateway.answer("POST", "/v1/jobs", 422, INVALID);

    int exit = run("submit", "job.yaml");

    assertThat(exit).as("REFUSED").isEqualTo(4);
    assertThat(stderr().lines())
        .containsExactly(
            "error: the job spec is invalid",
            "  spec.resources.gpus: must be at least 0",
            "  metadata.name: must be a DNS-1123 label",
            "  request id: req-42");
    assertThat(stdout()).isEmpty();
  }

  @Test
  void jsonOutputPrintsTheGatewaysAnswerAsItCame() throws IOException {
    Files.writeString(workDir.resolve("job.yaml"), SPEC);
    gateway.answer("POST", "/v1/jobs", 422, INVALID);
    gateway.answer("GET", "/v1/jobs", 200, "{\"jobs\":[]}");

    assertThat(run("status", "--output", "json")).isZero();
    assertThat(stdout()).isEqualTo("{\"jobs\":[]}\n");

    assertThat(run("--output=json", "submit", "job.yaml")).isEqualTo(4);
    assertThat(stderr()).isEqualTo(INVALID.stripTrailing() + "\n");
  }

  @Test
  void connectionRefusedSaysTheGatewayIsNotRunning() throws IOException {
    int port;
    try (var socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    String url = "http://127.0.0.1:" + port;

    int exit = run("--url", url, "status");

    assertThat(exit).isEqualTo(3);
    assertThat(stderr().lines())
        .containsExactly(
            "error: cannot reach the Trainyard gateway at " + url + ": connection refused",
            "  is it running? (`java -jar gateway/target/trainyard.jar server`); is the URL"
                + " right? (--url or TRAINYARD_URL)");
  }

  @Test
  void logsArePrintedAsTheyArrive() throws Exception {
    var firstLinePrinted = new CountDownLatch(1);
    var printedBeforeSecondLineWasSent = new AtomicBoolean();
    gateway.on(
        "GET",
        "/v1/jobs/" + JOB_ID + "/logs",
        exchange -> {
          exchange.getResponseHeaders().set("Content-Type", "text/plain");
          exchange.sendResponseHeaders(200, 0);
          try (var body = exchange.getResponseBody()) {
            body.write("epoch 1 loss 0.52\n".getBytes(StandardCharsets.UTF_8));
            body.flush();
            printedBeforeSecondLineWasSent.set(firstLinePrinted.await(10, TimeUnit.SECONDS));
            body.write("epoch 2 loss 0.31\n".getBytes(StandardCharsets.UTF_8));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    OutputStream watching =
        new OutputStream() {
          @Override
          public void write(int b) {
            out.write(b);
            if (stdout().contains("epoch 1 loss 0.52\n")) {
              firstLinePrinted.countDown();
            }
          }
        };

    int exit =
        run(
            new PrintStream(watching, true, StandardCharsets.UTF_8),
            "logs",
            JOB_ID,
            "-f",
            "--replica",
            "worker-0");

    assertThat(exit).isZero();
    assertThat(printedBeforeSecondLineWasSent).isTrue();
    assertThat(stdout()).isEqualTo("epoch 1 loss 0.52\nepoch 2 loss 0.31\n");
    assertThat(gateway.lastRequest().query()).isEqualTo("follow=true&replica=worker-0");
  }

  /** A job's output may carry escape sequences meant for the reader's terminal (OSC 52 here). */
  private static final String HOSTILE_LOG =
      "epoch 1\u001b]52;c;cm0gLXJmIH4=\u0007 loss\u001b[1A\u001b[2K 0.52\n";

  @Test
  void onATerminalTheEscapeSequencesAJobWroteAreShownNotObeyed() {
    gateway.answer("GET", "/v1/jobs/" + JOB_ID + "/logs", 200, HOSTILE_LOG);

    assertThat(runOnTerminal("logs", JOB_ID)).isZero();

    assertThat(stdout()).isEqualTo("epoch 1^[]52;c;cm0gLXJmIH4=^G loss^[[1A^[[2K 0.52\n");
  }

  @Test
  void rawOrThroughAPipeTheLinesAreAsTheJobWroteThem() {
    gateway.answer("GET", "/v1/jobs/" + JOB_ID + "/logs", 200, HOSTILE_LOG);

    assertThat(runOnTerminal("logs", JOB_ID, "--raw")).isZero();
    assertThat(run("logs", JOB_ID)).isZero();

    assertThat(stdout()).isEqualTo(HOSTILE_LOG + HOSTILE_LOG);
  }

  @Test
  void quoteIsPrintedAsADecisionTable() throws IOException {
    Files.writeString(workDir.resolve("job.yml"), SPEC);
    gateway.answer("POST", "/v1/quotes", 200, RenderingTest.QUOTE);

    assertThat(run("quote", "job.yml")).isZero();

    assertThat(gateway.lastRequest().header("Content-Type")).isEqualTo("application/yaml");
    assertThat(stdout()).startsWith("BACKEND ").contains("rejected: no nvidia-a100-40gb GPU");
  }

  @Test
  void statusListsJobsOrShowsOne() {
    gateway.answer(
        "GET",
        "/v1/jobs",
        200,
        "{\"jobs\":[" + job("SUCCEEDED", ",\"backend\":\"local\",\"durationSeconds\":62") + "]}");
    gateway.answer(
        "GET", "/v1/jobs/" + JOB_ID, 200, job("RUNNING", ",\"team\":\"demo\",\"restarts\":0"));

    assertThat(run("status")).isZero();
    assertThat(stdout().lines())
        .containsExactly(
            "ID                          NAME               STATE      BACKEND  AGE/DURATION",
            JOB_ID + "  linear-regression  SUCCEEDED  local    1m02s");

    out.reset();
    assertThat(run("status", JOB_ID)).isZero();
    assertThat(stdout()).contains("state:     RUNNING").contains("restarts:  0");
  }

  @Test
  void aFailureReasonCarryingTheJobsOutputIsShownNotObeyedWhileJsonStaysAsReceived() {
    var failed =
        job(
            "FAILED",
            ",\"reason\":\"exit 1; last lines:\\nloss nan\\u001b]0;pwned\\u0007\\u202etxt.exe\"");
    gateway.answer("GET", "/v1/jobs/" + JOB_ID, 200, failed);

    assertThat(run("status", JOB_ID)).isZero();
    assertThat(stdout()).contains("loss nan^[]0;pwned^G<U+202E>txt.exe").doesNotContain("\u001b");

    out.reset();
    assertThat(run("status", JOB_ID, "--output", "json")).isZero();
    assertThat(stdout().strip()).isEqualTo(failed);
  }

  @Test
  void cancelDeletesTheJob() {
    gateway.answer("DELETE", "/v1/jobs/" + JOB_ID, 202, job("CANCELLING", ""));

    assertThat(run("cancel", JOB_ID)).isZero();

    assertThat(gateway.lastRequest().method()).isEqualTo("DELETE");
    assertThat(stdout()).isEqualTo("cancel requested: job " + JOB_ID + " is CANCELLING\n");
  }

  @Test
  void waitFollowsTheJobUntilItSucceeds() {
    String path = "/v1/jobs/" + JOB_ID;
    gateway.answer("GET", path, 200, job("RUNNING", ""));
    gateway.answer("GET", path, 200, job("SUCCEEDED", ",\"durationSeconds\":62"));

    assertThat(run("wait", JOB_ID)).isZero();

    assertThat(stdout().lines())
        .containsExactly(
            "job " + JOB_ID + ": RUNNING",
            "job " + JOB_ID + ": SUCCEEDED",
            "job " + JOB_ID + " SUCCEEDED in 1m02s");
  }

  @Test
  void waitExitsOneWhenTheJobFails() {
    gateway.answer("GET", "/v1/jobs/" + JOB_ID, 200, job("FAILED", ",\"reason\":\"OOMKilled\""));

    assertThat(run("wait", JOB_ID)).isEqualTo(1);

    assertThat(stderr()).isEqualTo("error: job " + JOB_ID + " FAILED: OOMKilled\n");
  }

  @Test
  void waitGivesUpAfterItsTimeout() {
    gateway.answer("GET", "/v1/jobs/" + JOB_ID, 200, job("RUNNING", ""));

    assertThat(run("wait", JOB_ID, "--timeout", "1s")).isEqualTo(1);

    assertThat(stderr()).isEqualTo("error: job " + JOB_ID + " is still RUNNING after 1s\n");
  }

  @Test
  void unauthorizedWithoutATokenSaysHowToSetOne() {
    env.remove("TRAINYARD_TOKEN");
    gateway.answer(
        "GET",
        "/v1/jobs",
        401,
        "{\"code\":\"UNAUTHENTICATED\",\"message\":\"authentication required\"}");

    assertThat(run("status")).as("AUTH").isEqualTo(6);

    assertThat(gateway.lastRequest().header("Authorization")).isNull();
    assertThat(stderr().lines())
        .containsExactly(
            "error: authentication required",
            "  no token was sent: set TRAINYARD_TOKEN or pass --token",
            "  run `trainyard login` (or set a fresh TRAINYARD_TOKEN, or pass --token)");
  }

  @Test
  void anAnswerThatIsNotTheErrorShapeIsReportedByStatus() {
    gateway.on(
        "GET", "/v1/jobs", e -> FakeGateway.send(e, 502, "text/html", "<html>Bad Gateway</html>"));

    assertThat(run("status")).as("GATEWAY_ERROR").isEqualTo(5);

    assertThat(stderr()).isEqualTo("error: the gateway answered HTTP 502\n");
  }

  @Test
  void helpAndNoArgumentsPrintUsage() {
    assertThat(run()).isZero();
    assertThat(stdout())
        .contains("usage: trainyard")
        .contains("  submit      Submit a job spec")
        .contains("exit status:")
        .contains("    6  not logged in");

    out.reset();
    assertThat(run("help", "logs")).isZero();
    assertThat(stdout())
        .startsWith("usage: trainyard logs ID [-f|--follow] [--replica R]")
        .contains("examples:\n  trainyard logs 01jh5n8k2q7x3v4w5y6z7a8b9c -f");
    assertThat(stderr()).isEmpty();
  }

  @Test
  void usageErrorsAreOneLineAndExitTwo() {
    assertThat(run("sumbit", "job.yaml")).isEqualTo(2);
    assertThat(stderr().lines())
        .containsExactly(
            "error: unknown command 'sumbit'; did you mean 'submit'? (see `trainyard help`)");

    err.reset();
    assertThat(run("wait", JOB_ID, "--timeout", "soon")).isEqualTo(2);
    assertThat(stderr().lines())
        .hasSize(1)
        .first()
        .asString()
        .startsWith("error: --timeout: not a duration");

    err.reset();
    assertThat(run("submit", "missing.yaml")).isEqualTo(2);
    assertThat(stderr())
        .isEqualTo("error: no such file: " + workDir.resolve("missing.yaml") + "\n");
    assertThat(gateway.requests()).isEmpty();
  }

  @Test
  void demoOutsideTheRepositoryRootSaysWhereToRunIt() {
    assertThat(run("demo")).isEqualTo(1);

    assertThat(stderr())
        .startsWith(
            "error: gateway/target/trainyard.jar not found: run the demo from the repository root");
  }
}
