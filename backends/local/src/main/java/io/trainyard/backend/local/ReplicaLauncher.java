package io.trainyard.backend.local;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Starts one run of a replica. The command runs under a small bash wrapper that stamps every output
 * line with the time and records the exit code in a file, so neither depends on the gateway: a
 * replica keeps logging and its end is known even when the gateway restarts meanwhile. Where {@code
 * setsid} exists the replica gets its own session, so a Ctrl-C aimed at the gateway's terminal does
 * not reach the jobs.
 */
final class ReplicaLauncher {
  private static final String WRAPPER =
      String.join(
          "\n",
          "log=$1 exit_file=$2",
          "shift 2",
          "\"$@\" </dev/null 2>&1 | while IFS= read -r line || [[ -n $line ]]; do",
          "  printf '%s %s\\n' \"$EPOCHREALTIME\" \"$line\"",
          "done >>\"$log\"",
          "code=${PIPESTATUS[0]}",
          "printf '%s\\n' \"$code\" >\"$exit_file\"",
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

  private final Path codeDir;
  private final Map<String, String> baseEnv;
  private final List<String> prefix;

  ReplicaLauncher(Path codeDir, Map<String, String> gatewayEnv) {
    this.codeDir = codeDir;
    this.baseEnv = inherited(gatewayEnv);
    this.prefix = launchPrefix();
  }

  /** Whether this host can run replicas at all; null when it can, else why not. */
  static String missingPrerequisite() {
    return Files.isExecutable(Path.of("/bin/bash")) ? null : "/bin/bash is not installed";
  }

  /**
   * Starts the replica and returns its wrapper process. The log is appended to, so a restart's
   * output follows the previous run's.
   */
  ProcessHandle launch(AttemptFiles files, ReplicaPlan plan, Map<String, String> secretValues)
      throws IOException {
    files.clearExitCode(plan.name());
    var log = files.logFile(plan.name());
    var command = new ArrayList<>(prefix);
    command.addAll(
        List.of(
            "/bin/bash",
            "-c",
            WRAPPER,
            "trainyard-replica",
            log.toString(),
            files.exitFile(plan.name()).toString()));
    command.addAll(plan.command());
    var builder =
        new ProcessBuilder(command)
            .directory(codeDir.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            // Only the wrapper's own complaints land here, unstamped; replica output is stamped.
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .redirectErrorStream(true);
    var env = builder.environment();
    env.clear();
    env.putAll(baseEnv);
    env.putAll(plan.env());
    env.putAll(secretValues);
    return builder.start().toHandle();
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

  // --wait keeps setsid as the replica's root process even when it has to fork to get a session.
  private static List<String> launchPrefix() {
    for (var dir : List.of("/usr/bin", "/bin")) {
      var setsid = Path.of(dir, "setsid");
      if (Files.isExecutable(setsid)) {
        return List.of(setsid.toString(), "--wait");
      }
    }
    return List.of();
  }
}
