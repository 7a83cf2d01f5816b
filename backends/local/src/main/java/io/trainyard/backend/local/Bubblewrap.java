package io.trainyard.backend.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The {@code bubblewrap} sandbox: whether {@code bwrap} works here, and its command line. */
final class Bubblewrap {
  private static final List<String> SYSTEM_DIRS =
      List.of("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt");

  private Bubblewrap() {}

  /**
   * Null when bwrap starts a sandbox here (user namespaces allowed), else why not.
   *
   * @param uid the unprivileged uid bwrap runs as (a root gateway's replicas), or null for the
   *     gateway's own
   */
  static String missing(Integer uid) {
    for (var tool : List.of("bwrap", "nsenter", "unshare", "ip")) {
      if (Sandbox.executable(tool) == null) {
        return tool + " is not installed";
      }
    }
    try {
      var command = new ArrayList<String>();
      if (uid != null) {
        command.addAll(Sandbox.dropTo(uid));
      }
      command.addAll(
          List.of(
              Sandbox.executable("bwrap"),
              "--unshare-user",
              "--unshare-pid",
              "--unshare-net",
              "--ro-bind",
              "/",
              "/",
              "--proc",
              "/proc",
              "--",
              "/bin/true"));
      var probe =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (!probe.waitFor(10, TimeUnit.SECONDS)) {
        probe.destroyForcibly();
        return "bwrap did not answer";
      }
      return probe.exitValue() == 0
          ? null
          : "bwrap cannot create namespaces here (are user namespaces disabled?)";
    } catch (IOException e) {
      return "bwrap cannot run: " + e.getMessage();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted while probing bwrap";
    }
  }

  /**
   * bwrap with a private PID, IPC and UTS namespace and user namespace without capabilities; the
   * system read-only, the code directory read-only with the gateway's directories hidden, a fresh
   * /tmp, and only the scratch directory writable.
   */
  static List<String> command(Path codeDir, List<Path> hidden, Path work) {
    var command =
        new ArrayList<String>(
            List.of(
                Sandbox.executable("bwrap"),
                "--unshare-user",
                "--unshare-pid",
                "--unshare-ipc",
                "--unshare-uts",
                "--unshare-cgroup-try",
                "--cap-drop",
                "ALL",
                "--new-session"));
    for (var dir : SYSTEM_DIRS) {
      var path = Path.of(dir);
      try {
        if (Files.isSymbolicLink(path)) {
          command.addAll(List.of("--symlink", Files.readSymbolicLink(path).toString(), dir));
        } else if (Files.isDirectory(path)) {
          command.addAll(List.of("--ro-bind", dir, dir));
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    command.addAll(List.of("--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"));
    command.addAll(List.of("--ro-bind", codeDir.toString(), codeDir.toString()));
    for (var dir : hidden) {
      // One empty tmpfs over the outermost: a nested one would leave its mount point visible.
      var nested = hidden.stream().anyMatch(h -> !h.equals(dir) && dir.startsWith(h));
      if (!nested && Files.isDirectory(dir)) {
        command.addAll(List.of("--tmpfs", dir.toString()));
      }
    }
    command.addAll(List.of("--bind", work.toString(), work.toString()));
    command.addAll(List.of("--chdir", codeDir.toString(), "--"));
    return command;
  }
}
