package io.trainyard.cli;

import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** The CLI's commands, with what each accepts; usage text and argument checks come from here. */
enum Command {
  SUBMIT(
      "submit",
      "FILE [--dry-run] [--idempotency-key KEY] [--wait [--timeout DURATION]]",
      "Submit a job spec (YAML or JSON); --dry-run only routes it, --wait follows it to the end",
      1,
      1,
      Set.of("--idempotency-key", "--timeout"),
      Set.of("--dry-run", "--wait")),
  QUOTE("quote", "FILE", "Show where a job could run and what each place costs", 1, 1),
  STATUS(
      "status",
      "[ID [--watch]] [--quiet]",
      "List your jobs, or show one; --watch follows it until it ends",
      0,
      1,
      Set.of(),
      Set.of("--watch", "--quiet")),
  QUEUE(
      "queue",
      "",
      "The queued jobs you may see: position, team, priority, waiting time and why",
      0,
      0),
  LOGS(
      "logs",
      "ID [-f|--follow] [--replica R] [--raw]",
      "Print a job's logs; --follow prints them as they come",
      1,
      1,
      Set.of("--replica"),
      Set.of("--follow", "--raw")),
  CANCEL("cancel", "ID", "Cancel a job", 1, 1),
  METRICS(
      "metrics",
      "ID [--metric NAME] [--goal min|max]",
      "Show a job's model metrics (last and best of each) and a chart of one (default loss)",
      1,
      1,
      Set.of("--metric", "--goal"),
      Set.of()),
  COMPARE(
      "compare",
      "ID ID... --metric NAME [--goal min|max]",
      "Compare one metric of several runs side by side",
      2,
      20,
      Set.of("--metric", "--goal"),
      Set.of()),
  WAIT(
      "wait",
      "ID [--timeout 10m]",
      "Wait until a job ends; exit 0 only if it SUCCEEDED",
      1,
      1,
      Set.of("--timeout"),
      Set.of()),
  AUDIT(
      "audit",
      "verify PATH [--key-id HEX]... [--public-key PEM_FILE]... | " + Command.AUDIT_EXPORT_SYNOPSIS,
      "Verify an audit export offline (exit 0 only when every hash, link and signature holds);"
          + " export the audit log (auditors), --wait to download and verify it",
      1,
      2,
      Set.of(
          "--key-id",
          "--public-key",
          "--from",
          "--to",
          "--team",
          "--action",
          "--format",
          "--name",
          "--dir"),
      Set.of("--wait")),
  SPEND(
      "spend",
      "[TEAM] [--since T] [--until T] [--granularity day|month]",
      "Spend per team and backend, and what the same jobs would have cost on managed platforms",
      0,
      1,
      Set.of("--since", "--until", "--granularity"),
      Set.of()),
  BACKENDS(
      "backends",
      "",
      "The backends: health, running and queued jobs, capacity used, price-catalog age",
      0,
      0),
  ALGORITHMS(
      "algorithms",
      AlgorithmCommands.SYNOPSIS,
      "The algorithm registry: list, show, create (FILE), publish a version (FILE), move the"
          + " default",
      1,
      4),
  COMPLETION("completion", "bash|zsh", "Print the shell completion script for bash or zsh", 1, 1),
  DEMO("demo", "", "Run an example job on a local gateway (from the repo root)", 0, 0),
  LOGIN(
      "login",
      "[--issuer URL | --idp URL --realm R] [--client-id ID] [--password --user NAME]",
      "Log in to the IdP (device login, or --password) and cache the token",
      0,
      0,
      Set.of("--issuer", "--idp", "--realm", "--client-id", "--user"),
      Set.of("--password")),
  LOGOUT("logout", "", "Forget the cached login", 0, 0),
  HELP("help", "[COMMAND [SUBCOMMAND]]", "Show this help, or a command's", 0, 2);

  static final String AUDIT_EXPORT_SYNOPSIS =
      "export [--from T] [--to T] [--team T,..] [--action A,..] [--format jsonl|csv] [--name N]"
          + " [--wait [--dir DIR]]";

  private final String word;
  private final String synopsis;
  private final String summary;
  private final int minOperands;
  private final int maxOperands;
  private final Set<String> valueOptions;
  private final Set<String> flags;

  Command(String word, String synopsis, String summary, int minOperands, int maxOperands) {
    this(word, synopsis, summary, minOperands, maxOperands, Set.of(), Set.of());
  }

  Command(
      String word,
      String synopsis,
      String summary,
      int minOperands,
      int maxOperands,
      Set<String> valueOptions,
      Set<String> flags) {
    this.word = word;
    this.synopsis = synopsis;
    this.summary = summary;
    this.minOperands = minOperands;
    this.maxOperands = maxOperands;
    this.valueOptions = valueOptions;
    this.flags = flags;
  }

  static Optional<Command> named(String word) {
    for (Command command : values()) {
      if (command.word.equals(word)) {
        return Optional.of(command);
      }
    }
    return Optional.empty();
  }

  String word() {
    return word;
  }

  String summary() {
    return summary;
  }

  /** E.g. {@code submit FILE [--dry-run]}. */
  String usage() {
    return synopsis.isEmpty() ? word : word + " " + synopsis;
  }

  boolean takesValue(String option) {
    return valueOptions.contains(option);
  }

  boolean takesFlag(String option) {
    return flags.contains(option);
  }

  /** Every option this command takes after it, with and without a value. */
  Set<String> options() {
    var all = new TreeSet<>(valueOptions);
    all.addAll(flags);
    return all;
  }

  boolean acceptsOperandCount(int count) {
    return count >= minOperands && count <= maxOperands;
  }
}
