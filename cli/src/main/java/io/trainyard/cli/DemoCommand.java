package io.trainyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The zero-config demo, run from the repository root: start a gateway, quote and submit the example
 * job with a dev token, follow its logs, report how it ended and its final model metrics, stop the
 * gateway.
 */
final class DemoCommand {
  static final String GATEWAY_JAR = "gateway/target/trainyard.jar";
  static final String EXAMPLE = "examples/linear-regression.yaml";
  private static final String LOG = "data/demo-gateway.log";
  private static final Duration STARTUP_TIMEOUT = Duration.ofMinutes(2);
  private static final Duration JOB_TIMEOUT = Duration.ofMinutes(15);
  private static final Duration LOG_DRAIN = Duration.ofSeconds(10);

  private final Terminal terminal;
  private final PrintStream out;
  private final ObjectMapper json;

  DemoCommand(Terminal terminal, ObjectMapper json) {
    this.terminal = terminal;
    this.out = terminal.out();
    this.json = json;
  }

  int run() {
    Path root = terminal.workDir();
    Path jar = root.resolve(GATEWAY_JAR);
    Path spec = root.resolve(EXAMPLE);
    if (!Files.isRegularFile(jar)) {
      throw CliException.failed(
          GATEWAY_JAR
              + " not found: run the demo from the repository root after `mvn -B -DskipTests"
              + " package` (./trainyard demo builds it for you)");
    }
    if (!Files.isRegularFile(spec)) {
      throw CliException.failed(EXAMPLE + " not found: run the demo from the repository root");
    }
    refuseIfTaken(8080);
    refuseIfTaken(8081);
    Path log = root.resolve(LOG);
    try {
      Files.createDirectories(log.getParent());
    } catch (IOException e) {
      throw CliException.failed("cannot create " + log.getParent() + ": " + e.getMessage());
    }
    out.println(
        "starting the gateway: java -jar " + GATEWAY_JAR + " server  (output: " + LOG + ")");
    var gateway = DemoGateway.start(root, jar, log, terminal.err());
    try {
      Duration startup = awaitHealthy(gateway);
      out.printf(
          "gateway serving at %s, %.1f s after start%n",
          DemoGateway.APP, startup.toMillis() / 1000.0);
      String token = gateway.devToken("demo", "demo", "trainer");
      out.println("dev token minted for user demo (team demo, role trainer)");
      return runExample(
          new GatewayClient(DemoGateway.APP, token, json), JobCommands.readSpec(spec));
    } finally {
      out.print("stopping the gateway ... ");
      out.flush();
      gateway.close();
      out.println("done");
    }
  }

  private Duration awaitHealthy(DemoGateway gateway) {
    out.print("waiting for http://127.0.0.1:8081/healthcheck ");
    out.flush();
    try {
      Duration startup =
          gateway.awaitHealthy(
              STARTUP_TIMEOUT,
              () -> {
                out.print('.');
                out.flush();
              });
      out.println(" ok");
      return startup;
    } catch (CliException e) {
      out.println(" failed"); // ends the progress line; the reason is reported once, on stderr
      throw e;
    }
  }

  /** The 8080/8081 gateway is the demo's own: refuse to mix it up with whatever holds the port. */
  private static void refuseIfTaken(int port) {
    try (var socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
    } catch (IOException e) {
      return; // nothing there: free
    }
    throw CliException.failed(
        "something already answers on 127.0.0.1:"
            + port
            + " — a gateway already running? Stop it first, or use it: ./trainyard status");
  }

  private int runExample(GatewayClient client, byte[] spec) {
    out.println();
    out.println("quote for " + EXAMPLE + ":");
    print(
        QuoteView.render(
            client.parse(client.post("/v1/quotes", spec, "application/yaml", Map.of()))));
    JsonNode submitted =
        client.parse(
            client.post(
                "/v1/jobs",
                spec,
                "application/yaml",
                Map.of("Idempotency-Key", "demo-" + UUID.randomUUID())));
    String id = QuoteView.text(submitted, "id");
    out.println();
    print(JobView.submitted(submitted));
    out.println();
    out.println("logs:");
    var ended = new AtomicBoolean();
    Thread logs = followLogs(client, id, ended);
    var outcome =
        new JobWatch(client)
            .untilEnded(
                id, JOB_TIMEOUT, job -> out.println("job is " + QuoteView.text(job, "state")));
    ended.set(true);
    try {
      logs.join(LOG_DRAIN.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    out.println();
    if (!outcome.ended()) {
      throw CliException.failed(
          "job "
              + id
              + " is still "
              + outcome.state()
              + " after "
              + HumanDuration.format(JOB_TIMEOUT));
    }
    Duration took = JobView.duration(outcome.job());
    String summary =
        "job "
            + id
            + " "
            + outcome.state()
            + (took == null ? "" : " in " + HumanDuration.format(took));
    if (!"SUCCEEDED".equals(outcome.state())) {
      String reason = QuoteView.text(outcome.job(), "reason");
      throw CliException.failed(summary + (reason == null ? "" : ": " + reason));
    }
    out.println(summary);
    printMetrics(client, id);
    return 0;
  }

  /**
   * The example reports its loss per epoch (posted with the job's metrics token where the gateway
   * gave one, else as trainyard-metric lines the gateway read while the logs were followed).
   */
  private void printMetrics(GatewayClient client, String id) {
    out.println();
    out.println("final metrics (./trainyard metrics " + id + "):");
    try {
      print(MetricsView.job(client.parse(client.get("/v1/jobs/" + id + "/metrics")), "loss"));
    } catch (CliException e) {
      out.println("  not available: " + e.getMessage());
    }
  }

  /**
   * Prints the job's log as it arrives. A job that has not started may have no log yet, and a
   * stream may end early, so this re-reads it until the job has ended, skipping the lines already
   * shown.
   */
  private Thread followLogs(GatewayClient client, String id, AtomicBoolean ended) {
    var thread =
        new Thread(
            () -> {
              long printed = 0;
              while (true) {
                boolean lastPass = ended.get();
                long skip = printed;
                long[] seen = {0};
                try {
                  client.streamLines(
                      "/v1/jobs/" + id + "/logs?follow=true",
                      line -> {
                        if (seen[0]++ >= skip) {
                          out.println("  | " + line);
                        }
                      });
                } catch (CliException e) {
                  // no log yet, or the stream broke: read it again below
                }
                printed = Math.max(printed, seen[0]);
                if (lastPass || !sleep(Duration.ofSeconds(1))) {
                  return;
                }
              }
            },
            "trainyard-demo-logs");
    // Daemon: a stream the gateway keeps open must not keep the demo from exiting.
    thread.setDaemon(true);
    thread.start();
    return thread;
  }

  private static boolean sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
      return true;
    } catch (InterruptedException e) {
      return false;
    }
  }

  private void print(List<String> lines) {
    lines.forEach(out::println);
  }
}
