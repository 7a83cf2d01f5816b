package io.trainyard.cli;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A parsed command line. Global options may come before or after the command; a command's own
 * options come after it. {@code --name=value} and {@code --name value} both work, {@code --} ends
 * the options (for a file whose name starts with a dash).
 */
record CommandLine(
    Command command,
    List<String> operands,
    Map<String, String> options,
    Set<String> flags,
    Output output,
    URI url,
    String token) {

  static final String DEFAULT_URL = "http://127.0.0.1:8080";
  static final String HINT = " (see `trainyard help`)";

  /** How answers are printed. */
  enum Output {
    TABLE,
    JSON
  }

  private static final Set<String> GLOBAL_VALUE_OPTIONS = Set.of("--output", "--url", "--token");
  // Options that may be given several times: their values are kept, one per line (see option()).
  private static final Set<String> REPEATABLE = Set.of("--key-id", "--public-key");
  private static final Map<String, String> ALIASES = Map.of("-f", "--follow", "-h", "--help");
  // Job ids are ULIDs; anything else is refused before it can become a path like "../..".
  private static final Pattern HEADER_SAFE = Pattern.compile("[\\x21-\\x7e]+");
  private static final Pattern JOB_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,127}");

  CommandLine {
    operands = List.copyOf(operands);
    options = Map.copyOf(options);
    flags = Set.copyOf(flags);
  }

  /**
   * @throws CliException with {@link ExitStatus#USAGE} for anything the CLI cannot run
   */
  static CommandLine parse(List<String> args, Map<String, String> env) {
    Command command = null;
    var operands = new ArrayList<String>();
    var options = new HashMap<String, String>();
    var flags = new HashSet<String>();
    boolean optionsEnded = false;
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (!optionsEnded && arg.equals("--")) {
        optionsEnded = true;
      } else if (!optionsEnded && arg.startsWith("-") && arg.length() > 1) {
        int eq = arg.startsWith("--") ? arg.indexOf('=') : -1;
        String written = eq > 0 ? arg.substring(0, eq) : arg;
        String name = ALIASES.getOrDefault(written, written);
        String inlineValue = eq > 0 ? arg.substring(eq + 1) : null;
        if (GLOBAL_VALUE_OPTIONS.contains(name) || (command != null && command.takesValue(name))) {
          if (inlineValue == null && i + 1 == args.size()) {
            throw CliException.usage(name + " needs a value" + HINT);
          }
          var value = inlineValue != null ? inlineValue : args.get(++i);
          if (REPEATABLE.contains(name)) {
            options.merge(name, value, (first, more) -> first + "\n" + more);
          } else {
            options.put(name, value);
          }
        } else if (name.equals("--help") || (command != null && command.takesFlag(name))) {
          if (inlineValue != null) {
            throw CliException.usage(name + " takes no value" + HINT);
          }
          flags.add(name);
        } else {
          throw unknownOption(arg, written, command);
        }
      } else if (command == null) {
        command =
            Command.named(arg)
                .orElseThrow(
                    () ->
                        CliException.usage(
                            "unknown command '"
                                + arg
                                + "'"
                                + Suggest.closest(arg, Help.commandWords())
                                    .map(Suggest::didYouMean)
                                    .orElse("")
                                + HINT));
      } else {
        operands.add(arg);
      }
    }
    if (command == null) {
      command = Command.HELP;
    }
    if (!flags.contains("--help") && !command.acceptsOperandCount(operands.size())) {
      throw CliException.usage(
          "wrong arguments for " + command.word() + " — usage: trainyard " + command.usage());
    }
    String key = options.get("--idempotency-key");
    if (key != null && !HEADER_SAFE.matcher(key).matches()) {
      throw CliException.usage("--idempotency-key must be printable ASCII without spaces" + HINT);
    }
    return new CommandLine(
        command,
        operands,
        options,
        flags,
        output(options.get("--output")),
        url(options.getOrDefault("--url", env.getOrDefault("TRAINYARD_URL", DEFAULT_URL))),
        token(options.getOrDefault("--token", env.get("TRAINYARD_TOKEN"))));
  }

  /** Names the option, the closest one there is, or the command it belongs to. */
  private static CliException unknownOption(String arg, String written, Command command) {
    var known = new ArrayList<>(GLOBAL_VALUE_OPTIONS);
    known.add("--help");
    if (command != null) {
      known.addAll(command.options());
    }
    var hint = Suggest.closest(written, known).map(Suggest::didYouMean).orElse(null);
    if (hint == null) {
      var owners = new ArrayList<String>();
      for (Command other : Command.values()) {
        if (other.options().contains(written)) {
          owners.add(other.word());
        }
      }
      if (!owners.isEmpty()) {
        hint =
            "; "
                + written
                + " is an option of "
                + String.join(", ", owners)
                + (command == null ? ", given after the command" : "");
      }
    }
    return CliException.usage(
        "unknown option "
            + arg
            + (command == null ? "" : " for " + command.word())
            + (hint == null ? "" : hint)
            + (command == null ? HINT : " (see `trainyard help " + command.word() + "`)"));
  }

  private static Output output(String value) {
    if (value == null || value.equals("table")) {
      return Output.TABLE;
    }
    if (value.equals("json")) {
      return Output.JSON;
    }
    throw CliException.usage("--output must be table or json, not '" + value + "'" + HINT);
  }

  private static URI url(String value) {
    String trimmed = value.strip().replaceAll("/+$", "");
    try {
      var uri = new URI(trimmed);
      if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
          && uri.getHost() != null
          && uri.getQuery() == null
          && uri.getFragment() == null) {
        return uri;
      }
    } catch (URISyntaxException e) {
      // reported below with the expected shape
    }
    throw CliException.usage(
        "the gateway URL must look like http://host:port, not '" + value + "'");
  }

  private static String token(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    // Tolerate a token pasted together with its scheme.
    String token = value.strip().replaceFirst("(?i)^bearer\\s+", "");
    if (!HEADER_SAFE.matcher(token).matches()) {
      // Never echo the token: it is a credential.
      throw CliException.usage("the token contains spaces or control characters");
    }
    return token;
  }

  boolean has(String flag) {
    return flags.contains(flag);
  }

  /** The option's value; for a repeatable option given several times, the values one per line. */
  String option(String name) {
    return options.get(name);
  }

  /** The first operand, for commands that take exactly one. */
  String operand() {
    return operands.get(0);
  }

  /** The first operand, checked to look like a job id. */
  String jobId() {
    String id = operand();
    if (!JOB_ID.matcher(id).matches()) {
      throw CliException.usage("'" + id + "' is not a job id");
    }
    return id;
  }
}
