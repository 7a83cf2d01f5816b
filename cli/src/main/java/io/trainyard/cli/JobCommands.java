package io.trainyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The commands that call the REST API once (or poll it): one method per command. */
final class JobCommands {
  static final Duration DEFAULT_WAIT_TIMEOUT = Duration.ofMinutes(10);

  private final GatewayClient client;
  private final Terminal terminal;
  private final CommandLine.Output output;

  JobCommands(GatewayClient client, Terminal terminal, CommandLine.Output output) {
    this.client = client;
    this.terminal = terminal;
    this.output = output;
  }

  int submit(CommandLine line) {
    boolean dryRun = line.has("--dry-run");
    boolean wait = line.has("--wait");
    if (wait && dryRun) {
      throw CliException.usage("--wait follows a submitted job; a --dry-run submits none");
    }
    if (!wait && line.option("--timeout") != null) {
      throw CliException.usage("--timeout goes with --wait (see `trainyard help submit`)");
    }
    Duration timeout =
        line.option("--timeout") == null ? LiveJob.FOREVER : timeout(line.option("--timeout"));
    Path file = terminal.workDir().resolve(line.operand());
    byte[] spec = readSpec(file);
    String key = line.option("--idempotency-key");
    String body =
        client.post(
            "/v1/jobs" + (dryRun ? "?dryRun=true" : ""),
            spec,
            contentType(file),
            key == null ? Map.of() : Map.of("Idempotency-Key", key));
    if (output == CommandLine.Output.JSON) {
      printRaw(body);
      return wait ? follow(client.parse(body), timeout) : 0;
    }
    JsonNode answer = client.parse(body);
    if (answer.path("dryRun").asBoolean(false)) {
      print(JobView.dryRun(answer));
      return 0;
    }
    if (wait && answer.path("decision").path("candidates").isArray()) {
      // The decision table first: where it could have run, and why it runs where it does. Its
      // warnings come once, below, with the job.
      print(QuoteView.render(answer.get("decision"), MissingNode.getInstance()));
      terminal.out().println();
    }
    print(JobView.submitted(answer));
    if (wait && terminal.tty()) {
      terminal.out().println("(Ctrl-C stops waiting; the job keeps running)");
    }
    return wait ? follow(answer, timeout) : 0;
  }

  private int follow(JsonNode submitted, Duration timeout) {
    String id = QuoteView.text(submitted, "id");
    if (id == null) {
      throw CliException.of(
          ExitStatus.GATEWAY_ERROR, "the gateway's answer names no job id to wait for", List.of());
    }
    return new LiveJob(client, terminal, output).follow(id, timeout, LiveJob.Style.PROGRESS);
  }

  int queue() {
    String body = client.get("/v1/queue");
    if (output == CommandLine.Output.JSON) {
      return printRaw(body);
    }
    print(QueueView.table(client.parse(body).path("jobs")));
    return 0;
  }

  int quote(CommandLine line) {
    Path file = terminal.workDir().resolve(line.operand());
    String body = client.post("/v1/quotes", readSpec(file), contentType(file), Map.of());
    if (output == CommandLine.Output.JSON) {
      return printRaw(body);
    }
    print(QuoteView.render(client.parse(body)));
    return 0;
  }

  int status(CommandLine line) {
    boolean one = !line.operands().isEmpty();
    if (line.has("--watch")) {
      if (!one) {
        throw CliException.usage("--watch follows one job: trainyard status ID --watch");
      }
      return new LiveJob(client, terminal, output)
          .follow(line.jobId(), LiveJob.FOREVER, LiveJob.Style.DETAILS);
    }
    if (line.has("--quiet") && one) {
      throw CliException.usage("--quiet lists the ids of your jobs; it takes no ID");
    }
    String body = client.get(one ? "/v1/jobs/" + line.jobId() : "/v1/jobs");
    if (output == CommandLine.Output.JSON) {
      return printRaw(body);
    }
    JsonNode answer = client.parse(body);
    if (line.has("--quiet")) {
      for (JsonNode job : answer.path("jobs")) {
        terminal.out().println(QuoteView.text(job, "id"));
      }
      return 0;
    }
    print(one ? JobView.details(answer) : JobView.table(answer.path("jobs"), Instant.now()));
    return 0;
  }

  int logs(CommandLine line) {
    var query = new ArrayList<String>();
    if (line.has("--follow")) {
      query.add("follow=true");
    }
    if (line.option("--replica") != null) {
      query.add("replica=" + URLEncoder.encode(line.option("--replica"), StandardCharsets.UTF_8));
    }
    String path =
        "/v1/jobs/"
            + line.jobId()
            + "/logs"
            + (query.isEmpty() ? "" : "?" + String.join("&", query));
    // On a terminal a job's escape sequences are shown, not obeyed (TerminalText); a pipe or a
    // file, or --raw, gets the lines as the job wrote them.
    boolean shown = terminal.tty() && !line.has("--raw");
    client.streamLines(
        path,
        text -> {
          terminal.out().println(shown ? TerminalText.visible(text) : text);
          terminal.out().flush();
        });
    return 0;
  }

  int cancel(CommandLine line) {
    String body = client.delete("/v1/jobs/" + line.jobId());
    if (output == CommandLine.Output.JSON) {
      return printRaw(body);
    }
    JsonNode job = client.parse(body);
    terminal
        .out()
        .println(
            "cancel requested: job "
                + QuoteView.text(job, "id")
                + " is "
                + QuoteView.text(job, "state"));
    return 0;
  }

  int waitFor(CommandLine line) {
    String id = line.jobId();
    Duration timeout = timeout(line.option("--timeout"));
    boolean table = output == CommandLine.Output.TABLE;
    var outcome =
        new JobWatch(client)
            .untilEnded(
                id,
                timeout,
                job -> {
                  if (table) {
                    terminal.out().println("job " + id + ": " + QuoteView.text(job, "state"));
                  }
                });
    if (!table) {
      printRaw(outcome.raw());
    }
    if (!outcome.ended()) {
      throw CliException.failed(
          "job " + id + " is still " + outcome.state() + " after " + HumanDuration.format(timeout));
    }
    if (!"SUCCEEDED".equals(outcome.state())) {
      String reason = QuoteView.text(outcome.job(), "reason");
      throw CliException.failed(
          "job " + id + " " + outcome.state() + (reason == null ? "" : ": " + reason));
    }
    if (table) {
      var took = JobView.duration(outcome.job());
      terminal
          .out()
          .println(
              "job "
                  + id
                  + " SUCCEEDED"
                  + (took == null ? "" : " in " + HumanDuration.format(took)));
    }
    return 0;
  }

  private static Duration timeout(String value) {
    if (value == null) {
      return DEFAULT_WAIT_TIMEOUT;
    }
    try {
      Duration timeout = HumanDuration.parse(value);
      if (timeout.isZero()) {
        throw new IllegalArgumentException("--timeout must be more than 0");
      }
      return timeout;
    } catch (IllegalArgumentException e) {
      throw CliException.usage("--timeout: " + e.getMessage());
    }
  }

  /** Read here rather than streamed: specs are small, and a missing file is a usage error. */
  static byte[] readSpec(Path file) {
    try {
      return Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw CliException.usage("no such file: " + file);
    } catch (IOException e) {
      throw CliException.usage("cannot read " + file + ": " + e.getMessage());
    }
  }

  static String contentType(Path file) {
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    return name.endsWith(".yaml") || name.endsWith(".yml")
        ? "application/yaml"
        : "application/json";
  }

  int metrics(CommandLine line) {
    var query = new ArrayList<String>();
    if (line.option("--goal") != null) {
      query.add("goal=" + URLEncoder.encode(line.option("--goal"), StandardCharsets.UTF_8));
    }
    String body =
        client.get(
            "/v1/jobs/"
                + line.jobId()
                + "/metrics"
                + (query.isEmpty() ? "" : "?" + String.join("&", query)));
    if (output == CommandLine.Output.JSON) {
      return printRaw(body);
    }
    print(MetricsView.job(client.parse(body), line.option("--metric")));
    return 0;
  }

  int compare(CommandLine line) {
    var metric = line.option("--metric");
    if (metric == null || metric.isBlank()) {
      throw CliException.usage("compare needs --metric NAME, e.g. --metric loss");
    }
    var ids = new ArrayList<String>();
    for (var id : line.operands()) {
      if (!id.matches("[A-Za-z0-9][A-Za-z0-9._-]{0,127}")) {
        throw CliException.usage("'" + id + "' is not a job id");
      }
      ids.add(id);
    }
    var path =
        "/v1/metrics/compare?jobs="
            + String.join(",", ids)
            + "&name="
            + URLEncoder.encode(metric, StandardCharsets.UTF_8)
            + (line.option("--goal") == null
                ? ""
                : "&goal=" + URLEncoder.encode(line.option("--goal"), StandardCharsets.UTF_8));
    String body = client.get(path);
    if (output == CommandLine.Output.JSON) {
      return printRaw(body);
    }
    print(MetricsView.compare(client.parse(body)));
    return 0;
  }

  private int printRaw(String body) {
    terminal.out().println(body.stripTrailing());
    return 0;
  }

  private void print(List<String> lines) {
    lines.forEach(terminal.out()::println);
  }
}
