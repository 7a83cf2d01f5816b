package io.trainyard.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The help of every command and sub-command ({@code trainyard help algorithms publish}, {@code
 * trainyard algorithms publish --help}): a usage line, what it does, its options, and examples. The
 * shell completion scripts are generated from the same topics ({@link Completion}), and a test
 * checks that every option the parser accepts is described here.
 */
final class Help {
  /**
   * One option as listed.
   *
   * @param name the option and its value, e.g. {@code --timeout DURATION}
   */
  record Option(String name, String description) {
    /** The option without its value, e.g. {@code --timeout}. */
    String flag() {
      int space = name.indexOf(' ');
      return space < 0 ? name : name.substring(0, space);
    }
  }

  /**
   * @param path the command, or the command and a sub-command: {@code algorithms publish}
   * @param synopsis what follows {@code trainyard PATH} on the usage line
   * @param summary one line, as listed in the parent's help
   */
  record Topic(
      String path,
      String synopsis,
      String summary,
      String description,
      List<Option> options,
      List<String> examples) {
    Topic {
      options = List.copyOf(options);
      examples = List.copyOf(examples);
    }

    String usage() {
      return synopsis.isEmpty() ? path : path + " " + synopsis;
    }

    /** The last word of the path: the command, or the sub-command. */
    String word() {
      return path.substring(path.lastIndexOf(' ') + 1);
    }
  }

  static final List<Option> GLOBAL_OPTIONS =
      List.of(
          new Option(
              "--url URL",
              "the gateway (env TRAINYARD_URL, default " + CommandLine.DEFAULT_URL + ")"),
          new Option(
              "--token TOKEN",
              "bearer token (env TRAINYARD_TOKEN; else the login cached by `trainyard login`)"),
          new Option("--output FORMAT", "table (default) or json: the gateway's answer as it came"),
          new Option("-h, --help", "this command's help"));

  private static final Map<String, Topic> TOPICS = new LinkedHashMap<>();

  static {
    command(
        Command.SUBMIT,
        """
        Sends a job spec (trainyard.io/v1 TrainingJob, or a Kubeflow PyTorchJob, TFJob, MPIJob or
        XGBoostJob document) to the gateway, which quotes every backend, picks one by the spec's
        policy and stores the job. With --wait it then prints the decision table and a live
        progress line (state and elapsed time) until the job ends, and exits 0 only if it
        SUCCEEDED; Ctrl-C stops waiting and leaves the job running.""",
        List.of(
            new Option("--dry-run", "validate and route only: nothing is stored or run"),
            new Option(
                "--idempotency-key KEY",
                "resend safely: the same key and spec answer the first job, not a second"),
            new Option("--wait", "follow the job until it ends; exit 0 only on SUCCEEDED"),
            new Option(
                "--timeout DURATION",
                "with --wait: give up (exit 1) after e.g. 30m; default none")),
        "trainyard submit examples/linear-regression.yaml",
        "trainyard submit job.yaml --wait --timeout 2h",
        "trainyard submit job.yaml --dry-run --output json");
    command(
        Command.QUOTE,
        """
        Shows where the job could run and what each place costs, without submitting it: every
        backend the team may use, its hourly and estimated price, and why it was or was not
        chosen.""",
        List.of(),
        "trainyard quote examples/linear-regression.yaml");
    command(
        Command.STATUS,
        """
        Without ID, lists the jobs of your teams (newest first). With ID, shows one job; with
        --watch, keeps showing it until it ends (redrawn in place on a terminal, one line per
        change otherwise) and exits 0 only if it SUCCEEDED. Ctrl-C stops watching; the job keeps
        running.""",
        List.of(
            new Option("--watch", "with ID: follow the job until it ends"),
            new Option("--quiet", "without ID: print only the job ids, one per line")),
        "trainyard status",
        "trainyard status 01jh5n8k2q7x3v4w5y6z7a8b9c --watch",
        "trainyard status --quiet | xargs -n1 trainyard cancel");
    command(
        Command.QUEUE,
        """
        Lists the queued jobs you may see (your teams'; a platform-admin: all) in the order they
        will be offered room: their position in the whole queue (1 = next), team, priority, how
        long they have waited and why (per backend, or the quota or budget they are over).""",
        List.of(),
        "trainyard queue",
        "trainyard queue --output json");
    command(
        Command.LOGS,
        """
        Prints a job's logs; --follow keeps printing them as they come until the job ends. On a
        terminal, control characters the job wrote (escape sequences, carriage returns) are shown
        as ^[, ^M and the like rather than acted on; a pipe or a file gets them as written.""",
        List.of(
            new Option("-f, --follow", "keep printing new lines until the job ends"),
            new Option("--replica R", "one replica only, e.g. worker-0"),
            new Option(
                "--raw", "on a terminal too, print the lines exactly as the job wrote them")),
        "trainyard logs 01jh5n8k2q7x3v4w5y6z7a8b9c -f",
        "trainyard logs 01jh5n8k2q7x3v4w5y6z7a8b9c --replica worker-0");
    command(
        Command.CANCEL,
        "Asks the gateway to cancel a job; it ends CANCELLED once its backend has stopped it.",
        List.of(),
        "trainyard cancel 01jh5n8k2q7x3v4w5y6z7a8b9c");
    command(
        Command.METRICS,
        "Shows a job's model metrics: the last and best value of each, and a chart of one.",
        List.of(
            new Option("--metric NAME", "the metric to chart (default loss)"),
            new Option("--goal min|max", "what counts as best (default: the metric's own)")),
        "trainyard metrics 01jh5n8k2q7x3v4w5y6z7a8b9c",
        "trainyard metrics 01jh5n8k2q7x3v4w5y6z7a8b9c --metric accuracy --goal max");
    command(
        Command.COMPARE,
        "Compares one metric of several runs side by side: last and best value of each.",
        List.of(
            new Option("--metric NAME", "the metric to compare (required)"),
            new Option("--goal min|max", "what counts as best")),
        "trainyard compare 01jh5n8k2q7x3v4w5y6z7a8b9c 01jh5p0m3r8y4w5x6z7a8b9c0d --metric loss");
    command(
        Command.WAIT,
        "Waits until a job ends, printing each change of state; exit 0 only if it SUCCEEDED.",
        List.of(new Option("--timeout DURATION", "give up (exit 1) after this long (default 10m)")),
        "trainyard wait 01jh5n8k2q7x3v4w5y6z7a8b9c --timeout 1h");
    command(
        Command.AUDIT,
        "The audit log's exports: see the commands below.",
        List.of(),
        "trainyard audit verify ./audit-2026-11");
    sub(
        "audit verify",
        "PATH [--key-id HEX]... [--public-key PEM_FILE]...",
        "Verify an audit export offline; exit 0 only when every hash, link and signature holds",
        """
        Checks an audit export directory offline: the manifest's signature, every file's hash,
        every event's hash, the chain across the range, the digests and their signatures. Prints
        the first bad sequence number and what is wrong. Without --key-id or --public-key the
        keys inside the export are trusted, and the report says so.""",
        List.of(
            new Option("--key-id HEX", "a trusted signing key's id (64 hex digits); repeatable"),
            new Option("--public-key PEM_FILE", "trusted Ed25519 public key(s); repeatable")),
        "trainyard audit verify ./audit-2026-11 --public-key audit-signing.pub.pem");
    sub(
        "audit export",
        "[--from T] [--to T] [--team T,..] [--action A,..] [--format jsonl|csv] [--name N]"
            + " [--wait [--dir DIR]]",
        "Export the audit log (auditors); --wait downloads and verifies it",
        """
          Starts an export of the audit log into the gateway's sink, by time range, teams and
          actions. With --wait, downloads its files into DIR and verifies them offline as `audit
          verify` does, trusting the key the gateway publishes.""",
        List.of(
            new Option("--from T", "from this instant (ISO-8601, e.g. 2026-11-01T00:00:00Z)"),
            new Option("--to T", "up to this instant, exclusive"),
            new Option("--team T,..", "only these teams' events"),
            new Option("--action A,..", "only these actions, e.g. 'job.*'"),
            new Option("--format jsonl|csv", "JSON Lines (verifiable, default) or CSV"),
            new Option("--name N", "the export's name"),
            new Option("--wait", "download the export and verify it"),
            new Option("--dir DIR", "with --wait: where to download it (default ./NAME)")),
        "trainyard audit export --from 2026-11-01T00:00:00Z --to 2026-12-01T00:00:00Z",
        "trainyard audit export --team nlp --action 'job.*' --format csv",
        "trainyard audit export --wait --dir ./november");
    topic(
        "spend",
        "[TEAM] [--since T] [--until T] [--granularity day|month]",
        "Spend per team and backend, and what the same jobs would have cost on managed platforms",
        """
        Shows what your teams (or TEAM) spent per backend over time, against their budgets, and
        what the same jobs would have cost on each managed platform.""",
        List.of(
            new Option("--since T", "from this instant (default: the start of this month)"),
            new Option("--until T", "up to this instant, exclusive"),
            new Option("--granularity day|month", "one point per day (default) or month")),
        "trainyard spend",
        "trainyard spend nlp --since 2026-10-01T00:00:00Z --granularity month");
    topic(
        "backends",
        "",
        "The backends: health, running and queued jobs, capacity used, price-catalog age",
        "Lists the backends: health (and why not), running and queued jobs, capacity used and"
            + " the age of their price catalog.",
        List.of(),
        "trainyard backends",
        "trainyard backends --output json");
    command(
        Command.ALGORITHMS,
        "The algorithm registry: reusable, versioned job templates with hyperparameters.",
        List.of(),
        "trainyard algorithms list",
        "trainyard algorithms show nlp/bert-finetune");
    sub(
        "algorithms list",
        "",
        "List the algorithms you may see",
        "Lists the algorithms you may see, with their default version and visibility.",
        List.of(),
        "trainyard algorithms list");
    sub(
        "algorithms show",
        "NAME",
        "Show an algorithm and its versions",
        "Shows an algorithm (team/name, or a bare name when only one you may see has it) and"
            + " every version: status, image and hyperparameters.",
        List.of(),
        "trainyard algorithms show nlp/bert-finetune");
    sub(
        "algorithms create",
        "FILE",
        "Create an algorithm from a YAML or JSON file",
        "Creates an algorithm from its definition; the file's version becomes version 1, the"
            + " default.",
        List.of(),
        "trainyard algorithms create bert.yaml");
    sub(
        "algorithms publish",
        "NAME VERSION FILE",
        "Publish a new version of an algorithm",
        "Publishes VERSION (a whole number) of NAME from a definition file.",
        List.of(),
        "trainyard algorithms publish nlp/bert-finetune 2 bert-v2.yaml");
    sub(
        "algorithms default",
        "NAME VERSION",
        "Make a version the default",
        "Makes VERSION the default version of NAME: what a job that names no version gets.",
        List.of(),
        "trainyard algorithms default nlp/bert-finetune 2");
    command(
        Command.COMPLETION,
        """
        Prints a completion script for bash or zsh: commands, sub-commands, options, file names,
        and job ids (asked of the gateway with `trainyard status --quiet` when you press TAB).""",
        List.of(),
        "source <(trainyard completion bash)",
        "trainyard completion zsh > \"${fpath[1]}/_trainyard\"");
    sub(
        "completion bash",
        "",
        "The bash completion script",
        "Prints the bash completion script; load it with `source <(trainyard completion bash)`"
            + " in ~/.bashrc.",
        List.of(),
        "source <(trainyard completion bash)");
    sub(
        "completion zsh",
        "",
        "The zsh completion script",
        "Prints the zsh completion script: save it as _trainyard in a directory of $fpath, or"
            + " `source <(trainyard completion zsh)` after compinit in ~/.zshrc.",
        List.of(),
        "trainyard completion zsh > ~/.zsh/completions/_trainyard");
    command(
        Command.DEMO,
        """
        From the repository root: starts a gateway with its embedded defaults, submits the example
        job with a dev token, follows its logs, prints how it ended and its metrics, and stops the
        gateway.""",
        List.of(),
        "./trainyard demo");
    command(
        Command.LOGIN,
        """
        Logs in to the company IdP and caches the token (refreshed as needed) for the commands
        that follow. By default the device login: approve it in any browser. With --password, the
        password grant where the realm allows it: the password comes from TRAINYARD_PASSWORD or
        standard input, never the command line.""",
        List.of(
            new Option("--issuer URL", "the IdP's issuer URL (env TRAINYARD_ISSUER)"),
            new Option("--idp URL", "with --realm: Keycloak's base URL"),
            new Option("--realm R", "with --idp: the Keycloak realm"),
            new Option("--client-id ID", "the IdP client (default trainyard-cli)"),
            new Option("--password", "the password grant instead of the device login"),
            new Option("--user NAME", "with --password: who logs in")),
        "trainyard login --issuer https://sso.example.com/realms/training",
        "TRAINYARD_PASSWORD=… trainyard login --password --user alice");
    command(Command.LOGOUT, "Forgets the cached login.", List.of(), "trainyard logout");
    command(
        Command.HELP,
        "Shows the list of commands, or the help of one command or sub-command.",
        List.of(),
        "trainyard help submit",
        "trainyard help algorithms publish");
  }

  private Help() {}

  private static void command(
      Command command, String description, List<Option> options, String... examples) {
    put(
        new Topic(
            command.word(),
            command.usage().substring(command.word().length()).strip(),
            command.summary(),
            description.strip().replaceAll("\\s*\n\\s*", " "),
            options,
            List.of(examples)));
  }

  /** A command of another branch, by name (see above). */
  private static void topic(
      String word,
      String synopsis,
      String summary,
      String description,
      List<Option> options,
      String... examples) {
    sub(word, synopsis, summary, description, options, examples);
  }

  private static void sub(
      String path,
      String synopsis,
      String summary,
      String description,
      List<Option> options,
      String... examples) {
    put(
        new Topic(
            path,
            synopsis,
            summary,
            description.strip().replaceAll("\\s*\n\\s*", " "),
            options,
            List.of(examples)));
  }

  private static void put(Topic topic) {
    TOPICS.put(topic.path(), topic);
  }

  /** The topic of a command, or of a sub-command ({@code "algorithms publish"}). */
  static Optional<Topic> topic(String path) {
    return Optional.ofNullable(TOPICS.get(path));
  }

  static List<Topic> topics() {
    return List.copyOf(TOPICS.values());
  }

  /** The sub-commands of a command, in the order listed; empty for most commands. */
  static List<Topic> subTopics(String command) {
    var subs = new ArrayList<Topic>();
    for (var topic : TOPICS.values()) {
      if (topic.path().startsWith(command + " ")) {
        subs.add(topic);
      }
    }
    return subs;
  }

  /** The words a command's sub-commands are called by. */
  static List<String> subCommands(String command) {
    return subTopics(command).stream().map(Topic::word).toList();
  }

  /**
   * The help text of a command and, if given, one of its sub-commands.
   *
   * @throws CliException (usage) naming the closest command or sub-command when there is none
   */
  static String of(String command, String subCommand) {
    if (Command.named(command).isEmpty()) {
      throw CliException.usage(
          "unknown command '"
              + command
              + "'"
              + Suggest.closest(command, commandWords()).map(Suggest::didYouMean).orElse("")
              + CommandLine.HINT);
    }
    var subs = subCommands(command);
    if (subCommand == null || subs.isEmpty()) {
      return render(TOPICS.getOrDefault(command, bare(Command.named(command).orElseThrow())));
    }
    if (!subs.contains(subCommand)) {
      throw unknownSubCommand(command, subCommand);
    }
    return render(TOPICS.get(command + " " + subCommand));
  }

  /** The usage error for {@code trainyard COMMAND WORD} where WORD is no sub-command of it. */
  static CliException unknownSubCommand(String command, String word) {
    var subs = subCommands(command);
    return CliException.usage(
        "unknown "
            + command
            + " command '"
            + word
            + "'"
            + Suggest.closest(word, subs).map(Suggest::didYouMean).orElse("")
            + " — usage: trainyard "
            + command
            + " "
            + String.join("|", subs)
            + " (see `trainyard help "
            + command
            + "`)");
  }

  /** A command nobody wrote help for yet: its usage line and summary (HelpTest flags it). */
  private static Topic bare(Command command) {
    return new Topic(
        command.word(),
        command.usage().substring(command.word().length()).strip(),
        command.summary(),
        command.summary(),
        List.of(),
        List.of());
  }

  static List<String> commandWords() {
    var words = new ArrayList<String>();
    for (var command : Command.values()) {
      words.add(command.word());
    }
    return words;
  }

  static String render(Topic topic) {
    var text = new StringBuilder();
    text.append("usage: trainyard ").append(topic.usage()).append("\n\n");
    text.append(wrap(topic.description(), "")).append("\n");
    var subs = subTopics(topic.path());
    if (!subs.isEmpty()) {
      text.append("\ncommands:\n");
      int width = subs.stream().mapToInt(s -> s.usage().length()).max().orElse(0);
      for (var sub : subs) {
        text.append(String.format("  %-" + width + "s  %s%n", sub.usage(), sub.summary()));
      }
      text.append("  (`trainyard help ")
          .append(topic.path())
          .append(" COMMAND` for one; each takes --help)\n");
    }
    if (!topic.options().isEmpty()) {
      text.append("\noptions:\n");
      appendOptions(text, topic.options());
    }
    text.append("\nglobal options:\n");
    appendOptions(text, GLOBAL_OPTIONS);
    text.append(topic.examples().isEmpty() ? "" : "\nexamples:\n");
    for (var example : topic.examples()) {
      text.append("  ").append(example).append('\n');
    }
    return text.toString();
  }

  private static void appendOptions(StringBuilder text, List<Option> options) {
    int width = 0;
    for (var option : options) {
      width = Math.max(width, option.name().length());
    }
    for (var option : options) {
      text.append(String.format("  %-" + width + "s  %s%n", option.name(), option.description()));
    }
  }

  /** Words to lines of at most 78 characters. */
  private static String wrap(String text, String indent) {
    var lines = new StringBuilder();
    var line = new StringBuilder(indent);
    for (var word : text.split(" ")) {
      if (line.length() > indent.length() && line.length() + 1 + word.length() > 78) {
        lines.append(line).append('\n');
        line = new StringBuilder(indent);
      }
      if (line.length() > indent.length()) {
        line.append(' ');
      }
      line.append(word);
    }
    return lines.append(line).toString();
  }
}
