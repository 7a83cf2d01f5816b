package io.trainyard.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Clock;
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
      terminal.out().print(line.operands().isEmpty() ? usage() : help(line.operand()));
      return 0;
    }
    if (line.has("--help")) {
      terminal.out().print(help(line.command().word()));
      return 0;
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
    var jobs = new JobCommands(new GatewayClient(line.url(), token, json), terminal, line.output());
    var client = new GatewayClient(line.url(), token, json);
    if (line.command() == Command.AUDIT) {
      return new AuditExportCommand(client, terminal, line.output()).run(line);
    }
    if (line.command() == Command.SPEND || line.command() == Command.BACKENDS) {
      var dashboard = new DashboardCommands(client, terminal, line.output());
      return line.command() == Command.SPEND ? dashboard.spend(line) : dashboard.backends();
    }
    if (line.command() == Command.ALGORITHMS) {
      return new AlgorithmCommands(
              new GatewayClient(line.url(), token, json), terminal, line.output())
          .run(line);
    }
    return switch (line.command()) {
      case SUBMIT -> jobs.submit(line);
      case QUOTE -> jobs.quote(line);
      case STATUS -> jobs.status(line);
      case LOGS -> jobs.logs(line);
      case CANCEL -> jobs.cancel(line);
      case WAIT -> jobs.waitFor(line);
      case METRICS -> jobs.metrics(line);
      case COMPARE -> jobs.compare(line);
      case ALGORITHMS, AUDIT, SPEND, BACKENDS, DEMO, HELP, LOGIN, LOGOUT ->
          throw new IllegalStateException("handled above: " + line.command());
    };
  }

  private static void report(CliException e, CommandLine line, Terminal terminal) {
    var err = terminal.err();
    boolean json = line != null && line.output() == CommandLine.Output.JSON;
    if (json && e.rawAnswer() != null) {
      err.println(e.rawAnswer().stripTrailing());
      return;
    }
    err.println("error: " + e.getMessage());
    e.details().forEach(err::println);
  }

  static String usage() {
    var text = new StringBuilder();
    text.append(
        "Trainyard: one training API in front of Kubernetes clusters and ML platforms.\n\n");
    text.append("usage: trainyard [--url URL] [--token TOKEN] [--output table|json] COMMAND\n\n");
    text.append("commands:\n");
    int width = 0;
    for (Command command : Command.values()) {
      width = Math.max(width, command.usage().length());
    }
    for (Command command : Command.values()) {
      text.append(String.format("  %-" + width + "s  %s%n", command.usage(), command.summary()));
    }
    text.append(
        """

        options:
          --url URL        the gateway (env TRAINYARD_URL, default http://127.0.0.1:8080)
          --token TOKEN    bearer token (env TRAINYARD_TOKEN; else the login cached by
                           `trainyard login`, in $TRAINYARD_CONFIG_DIR or ~/.config/trainyard)
          --output FORMAT  table (default) or json: the gateway's answer as it came

        exit status: 0 ok, 1 the request or the job failed, 2 usage error,
                     3 the gateway cannot be reached
        """);
    return text.toString();
  }

  private static String help(String word) {
    Command command =
        Command.named(word)
            .orElseThrow(
                () -> CliException.usage("unknown command '" + word + "'" + CommandLine.HINT));
    var examples = DashboardCommands.EXAMPLES.get(command.word());
    return "usage: trainyard "
        + command.usage()
        + "\n  "
        + command.summary()
        + "\n"
        + (examples == null ? "" : "\nexamples:\n" + examples);
  }
}
