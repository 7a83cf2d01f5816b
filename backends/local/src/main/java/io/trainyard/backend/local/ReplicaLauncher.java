package io.trainyard.backend.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Starts one run of a replica, in the attempt's sandbox. The command runs under a small bash
 * wrapper that stamps every output line with the time and records the exit code, so neither depends
 * on the gateway: a replica keeps logging and its end is known even when the gateway restarts
 * meanwhile. The gateway opens the log (stdout, appended) and the exit file (stderr) itself and
 * hands the replica only the open files, so a sandboxed replica never needs to reach the attempt
 * directory. Whatever the sandbox tools print when they cannot start lands in the exit file instead
 * of a code. The replica gets its own session, so a Ctrl-C aimed at the gateway's terminal does not
 * reach it.
 *
 * <p>The replica's environment (the job's {@code env}, its secrets, what the gateway gives it) is
 * never the environment of the sandbox tools ({@code nsenter}, {@code setpriv}, {@code bwrap}),
 * which run as the gateway's user — root, for the users sandbox — before they drop to the
 * replica's: a job's {@code LD_PRELOAD} or {@code GCONV_PATH} would otherwise run its code there.
 * The tools get a fixed {@code PATH} only; the replica's variables reach the wrapper on its stdin,
 * NUL-separated, from a gateway-only file that is deleted once the replica has it open, and the
 * wrapper exports them after the drop.
 */
final class ReplicaLauncher {
  /**
   * Exports the variables, then copies the replica's output lines, stamped, to the log until {@code
   * $1} bytes have been written (the rest of the replica's log budget, see {@link
   * LocalConfig#logLimit()}); later lines are read and dropped, so the replica never blocks on a
   * full pipe. The line that reaches the budget is written whole unless it would pass it by more
   * than the longest line a reader serves ({@link ReplicaLogReader#MAX_LINE}): the log never passes
   * its limit by more than that, so the gateway can tell a log written around the wrapper. Lengths
   * are counted in bytes ({@code LC_ALL=C} in the copying subshell alone, the job keeps its
   * locale); 19 is the stamp, its blank and the newline. The budget is read-only before the job's
   * variables are exported, so none of them can change it.
   */
  private static final String WRAPPER =
      String.join(
          "\n",
          "readonly ty_log_budget=$1; shift",
          "while IFS= read -r -d '' kv; do export -- \"$kv\" 2>/dev/null; done",
          "\"$@\" </dev/null 2>&1 | {",
          "  LC_ALL=C; used=0",
          "  while IFS= read -r line || [[ -n $line ]]; do",
          "    (( used < ty_log_budget )) || continue",
          "    if (( used + ${#line} + 19 > ty_log_budget + "
              + ReplicaLogReader.MAX_LINE
              + " )); then",
          "      used=$ty_log_budget; continue",
          "    fi",
          "    printf '%s %s\\n' \"$EPOCHREALTIME\" \"$line\"",
          "    (( used += ${#line} + 19 ))",
          "  done",
          "}",
          "code=${PIPESTATUS[0]}",
          "printf '%s\\n' \"$code\" >&2",
          "exit \"$code\"");

  /**
   * What replicas inherit from the gateway's environment: enough to find programs and the user's
   * tools, but not the gateway's own credentials (database password, cloud keys).
   */
  private static final Set<String> INHERITED =
      Set.of(
          "PATH",
          "HOME",
          "USER",
          "LOGNAME",
          "SHELL",
          "LANG",
          "TZ",
          "TMPDIR",
          "VIRTUAL_ENV",
          "CONDA_PREFIX",
          "PYTHONPATH");

  /** The only environment the sandbox tools and the wrapper start with. */
  static final Map<String, String> TOOL_ENV =
      Map.of("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");

  private final Path codeDir;
  private final Map<String, String> baseEnv;
  private final Sandbox sandbox;

  ReplicaLauncher(Path codeDir, Map<String, String> gatewayEnv, Sandbox sandbox) {
    this.codeDir = codeDir;
    this.baseEnv = inherited(gatewayEnv);
    this.sandbox = sandbox;
  }

  /** Whether this host can run replicas at all; null when it can, else why not. */
  static String missingPrerequisite() {
    return Files.isExecutable(Path.of("/bin/bash")) ? null : "/bin/bash is not installed";
  }

  /**
   * Why this replica can never start, or null: what the JDK refuses to pass to a process (a NUL in
   * an argument or variable, a variable name with '=') and a program that is not there. Retrying
   * would not help, so the caller refuses the attempt instead.
   */
  String unlaunchable(ReplicaPlan plan, Map<String, String> secretValues) {
    for (int i = 0; i < plan.command().size(); i++) {
      if (plan.command().get(i).indexOf('\0') >= 0) {
        return "command/args item "
            + i
            + " of replica "
            + plan.name()
            + " contains a NUL character";
      }
    }
    var env = new LinkedHashMap<String, String>(plan.env());
    env.putAll(secretValues);
    for (var entry : env.entrySet()) {
      var name = entry.getKey();
      if (name.isEmpty() || name.indexOf('=') >= 0 || name.indexOf('\0') >= 0) {
        return "environment variable name '" + printable(name) + "' cannot be passed to a process";
      }
      if (entry.getValue().indexOf('\0') >= 0) {
        return "environment variable " + name + " contains a NUL character";
      }
    }
    if (plan.command().isEmpty()) {
      return "replica " + plan.name() + " has no command";
    }
    var program = plan.command().get(0);
    if (!findsProgram(program, env.getOrDefault("PATH", baseEnv.get("PATH")))) {
      return "command '"
          + printable(program)
          + "' of replica "
          + plan.name()
          + (program.contains("/")
              ? " is not an executable file (relative to codeDir)"
              : " is not found on the replica's PATH");
    }
    return null;
  }

  private boolean findsProgram(String program, String path) {
    if (program.contains("/")) {
      var file = codeDir.resolve(program);
      return Files.isRegularFile(file) && Files.isExecutable(file);
    }
    for (var dir : (path == null ? "" : path).split(":")) {
      if (dir.isEmpty()) {
        continue;
      }
      var file = codeDir.resolve(dir).resolve(program);
      if (Files.isRegularFile(file) && Files.isExecutable(file)) {
        return true;
      }
    }
    return false;
  }

  private static String printable(String text) {
    var cut = text.length() > 80 ? text.substring(0, 80) + "..." : text;
    return cut.replaceAll("[\\p{Cntrl}]", "?");
  }

  /**
   * Starts the replica and returns its root process. The log is appended to, so a restart's output
   * follows the previous run's; this run's wrapper copies at most {@code logBudget} more bytes to
   * it (the log limit less what earlier runs wrote), and a line that starts below it is copied
   * whole.
   *
   * @throws IllegalArgumentException the JDK refused the command or environment (see {@link
   *     #unlaunchable})
   */
  ProcessHandle launch(
      AttemptFiles files,
      SandboxLease lease,
      ReplicaPlan plan,
      Map<String, String> secretValues,
      long logBudget)
      throws IOException {
    var log = files.logFile(plan.name());
    var exit = files.exitFile(plan.name());
    files.createPrivate(log);
    files.createPrivate(exit);
    var inner =
        new ArrayList<String>(
            List.of(
                "/bin/bash",
                "-c",
                WRAPPER,
                "trainyard-replica",
                Long.toString(Math.max(0, logBudget))));
    inner.addAll(plan.command());
    var env = new LinkedHashMap<String, String>(baseEnv);
    if (lease.mode() != SandboxMode.NONE) {
      // The gateway's home is not the replica's to read or write.
      env.put("HOME", lease.workDir());
      env.remove("TMPDIR");
    }
    env.putAll(plan.env());
    env.putAll(secretValues);
    var envBytes = nulSeparated(env);
    var envFile = files.envFile(plan.name());
    files.writePrivate(envFile, envBytes);
    try {
      var builder =
          new ProcessBuilder(sandbox.wrap(lease, inner))
              .directory(codeDir.toFile())
              .redirectInput(ProcessBuilder.Redirect.from(envFile.toFile()))
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              // Truncated at every start: no code from a previous run is taken for this one's.
              .redirectError(ProcessBuilder.Redirect.to(exit.toFile()));
      builder.environment().clear();
      builder.environment().putAll(TOOL_ENV);
      return builder.start().toHandle();
    } finally {
      // The replica holds it open as its stdin now; nobody else needs the values on disk.
      Files.deleteIfExists(envFile);
    }
  }

  /** {@code NAME=value} records, each ended by a NUL: what the wrapper reads with read -d ''. */
  static byte[] nulSeparated(Map<String, String> env) {
    var text = new StringBuilder();
    env.forEach(
        (name, value) -> {
          if (name.isEmpty() || name.indexOf('=') >= 0 || name.indexOf('\0') >= 0) {
            throw new IllegalArgumentException(
                "environment variable name '"
                    + printable(name)
                    + "' cannot be passed to a process");
          }
          if (value.indexOf('\0') >= 0) {
            throw new IllegalArgumentException(
                "environment variable " + name + " cannot be passed to a process: it holds a NUL");
          }
          text.append(name).append('=').append(value).append('\0');
        });
    return text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  private static Map<String, String> inherited(Map<String, String> gatewayEnv) {
    var env = new LinkedHashMap<String, String>();
    gatewayEnv.forEach(
        (k, v) -> {
          if (INHERITED.contains(k) || k.startsWith("LC_")) {
            env.put(k, v);
          }
        });
    env.putIfAbsent("PATH", "/usr/local/bin:/usr/bin:/bin");
    return env;
  }
}
