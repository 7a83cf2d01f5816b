package io.trainyard.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * The Trainyard command-line client. Every failure ends as one {@code error:} line on stderr (plus
 * detail lines for field errors) and an {@link ExitStatus}, never as a stack trace.
 */
public final class TrainyardCli {
  private TrainyardCli() {}

  public static void main(String[] args) {
    System.exit(run(args, Terminal.system()));
  }

  /** Runs one command line; returns the exit code. */
  static int run(String[] args, Terminal terminal) {
    CommandLine line = null;
    try {
      line = CommandLine.parse(List.of(args), terminal.env());
      return execute(line, terminal);
    } catch (CliException e) {
      report(e, line, terminal);
      return e.status().code();
    } catch (RuntimeException e) {
      // A bug of ours: still one line, with the trace only on request.
      terminal.err().println("error: unexpected failure: " + e);
      if (terminal.env().containsKey("TRAINYARD_DEBUG")) {
        e.printStackTrace(terminal.err());
      }
      return ExitStatus.FAILED.code();
    } finally {
      terminal.out().flush();
    }
  }

  private static int execute(CommandLine line, Terminal terminal) {
    if (line.command() == Command.HELP) {
      var topic = line.operands();
      terminal
          .out()
          .print(
              topic.isEmpty()
                  ? usage()
                  : Help.of(topic.get(0), topic.size() > 1 ? topic.get(1) : null));
      return 0;
    }
    if (line.has("--help")) {
      var operands = line.operands();
      terminal
          .out()
          .print(Help.of(line.command().word(), operands.isEmpty() ? null : operands.get(0)));
      return 0;
    }
    if (line.command() == Command.COMPLETION) {
      // Offline, and before any token: completion must work logged out.
      return Completion.print(line.operand(), terminal);
    }
    var json = new ObjectMapper();
    if (line.command() == Command.DEMO) {
      return new DemoCommand(terminal, json).run();
    }
    if (line.command() == Command.AUDIT && !line.operands().get(0).equals("export")) {
      // Offline: no gateway, no token.
      return new AuditVerification(terminal, json, line.output()).run(line);
    }
    var idp = new IdpClient(json);
    if (line.command() == Command.LOGIN || line.command() == Command.LOGOUT) {
      var login = new LoginCommand(terminal, idp, Clock.systemUTC(), LoginCommand::sleep);
      return line.command() == Command.LOGIN ? login.login(line) : login.logout();
    }
    // --token and TRAINYARD_TOKEN win; the cached login is the fall-back.
    var token =
        line.token() != null
            ? line.token()
            : new LoginSession(terminal.env(), idp, Clock.systemUTC()).bearerToken();
    var timeout = timeout(terminal.env().get("TRAINYARD_TIMEOUT"));
    var jobs =
        new JobCommands(
            new GatewayClient(line.url(), token, json, timeout), terminal, line.output());
    var client = new GatewayClient(line.url(), token, json, timeout);
    if (line.command() == Command.AUDIT) {
      return new AuditExportCommand(client, terminal, line.output()).run(line);
    }
    if (line.command() == Command.SPEND || line.command() == Command.BACKENDS) {
      var dashboard = new DashboardCommands(client, terminal, line.output());
      return line.command() == Command.SPEND ? dashboard.spend(line) : dashboard.backends();
    }
    if (line.command() == Command.ALGORITHMS) {
      return new AlgorithmCommands(
              new GatewayClient(line.url(), token, json, timeout), terminal, line.output())
          .run(line);
    }
    return switch (line.command()) {
      case SUBMIT -> jobs.submit(line);
      case QUOTE -> jobs.quote(line);
      case STATUS -> jobs.status(line);
      case QUEUE -> jobs.queue();
      case LOGS -> jobs.logs(line);
      case CANCEL -> jobs.cancel(line);
      case WAIT -> jobs.waitFor(line);
      case METRICS -> jobs.metrics(line);
      case COMPARE -> jobs.compare(line);
      case ALGORITHMS, AUDIT, SPEND, BACKENDS, COMPLETION, DEMO, HELP, LOGIN, LOGOUT ->
          throw new IllegalStateException("handled above: " + line.command());
    };
  }

  /** {@code TRAINYARD_TIMEOUT}: how long one request may take. */
  private static Duration timeout(String value) {
    if (value == null || value.isBlank()) {
      return GatewayClient.DEFAULT_TIMEOUT;
    }
    try {
      var timeout = HumanDuration.parse(value);
      if (!timeout.isZero()) {
        return timeout;
      }
    } catch (IllegalArgumentException e) {
      // reported below
    }
    throw CliException.usage(
        "TRAINYARD_TIMEOUT must be a duration such as 30s or 2m, not '" + value + "'");
  }

  /**
   * One shape for every failure: {@code error: MESSAGE} and indented detail lines; with {@code
   * --output json}, the gateway's error as it came, or the same JSON shape for the CLI's own.
   */
  private static void report(CliException e, CommandLine line, Terminal terminal) {
    var err = terminal.err();
    boolean json = line != null && line.output() == CommandLine.Output.JSON;
    if (json) {
      err.println(e.rawAnswer() != null ? e.rawAnswer().stripTrailing() : asJson(e));
      return;
    }
    err.println("error: " + e.getMessage());
    e.details().forEach(err::println);
  }

  /** The gateway's error shape, with the CLI's exit status as the code. */
  static String asJson(CliException e) {
    var mapper = new ObjectMapper();
    var node = mapper.createObjectNode();
    node.put("code", e.status().name());
    node.put("message", e.getMessage());
    var errors = node.putArray("errors");
    for (var detail : e.details()) {
      errors.addObject().putNull("field").put("message", detail.strip());
    }
    node.put("exitStatus", e.status().code());
    return node.toString();
  }

  static String usage() {
    var text = new StringBuilder();
    text.append(
        "Trainyard: one training API in front of Kubernetes clusters and ML platforms.\n\n");
    text.append("usage: trainyard [--url URL] [--token TOKEN] [--output table|json] COMMAND\n\n");
    text.append("commands:\n");
    int width = 0;
    for (Command command : Command.values()) {
      width = Math.max(width, command.word().length());
    }
    for (Command command : Command.values()) {
      text.append(String.format("  %-" + width + "s  %s%n", command.word(), command.summary()));
    }
    text.append(
        """

        options:
          --url URL        the gateway (env TRAINYARD_URL, default http://127.0.0.1:8080)
          --token TOKEN    bearer token (env TRAINYARD_TOKEN; else the login cached by
                           `trainyard login`, in $TRAINYARD_CONFIG_DIR or ~/.config/trainyard)
          --output FORMAT  table (default) or json: the gateway's answer as it came
          (env TRAINYARD_TIMEOUT: how long one request may take, default 60s)

        `trainyard help COMMAND` or `trainyard COMMAND --help` for one command, with examples.

        exit status:
        """);
    for (ExitStatus status : ExitStatus.values()) {
      text.append(String.format("  %3d  %s%n", status.code(), status.meaning()));
    }
    text.append("  130  interrupted (Ctrl-C); a job being waited for keeps running\n");
    return text.toString();
  }
}
