package io.trainyard.backend.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Finding a replica's processes again and stopping all of them. */
final class ProcessTree {
  private static final boolean PROC = Files.isDirectory(Path.of("/proc/self"));
  // Start times are derived from the boot time, which a different JVM may read a second apart.
  private static final Duration SAME_START = Duration.ofSeconds(2);

  private ProcessTree() {}

  /**
   * Whether the process still runs. {@link ProcessHandle#isAlive()} counts a zombie as alive, and
   * zombies stay: a replica adopted after a gateway restart, or a grandchild whose parent died, is
   * re-parented to PID 1, which in many containers never reaps it.
   */
  static boolean isRunning(ProcessHandle process) {
    if (!process.isAlive()) {
      return false;
    }
    if (!PROC) {
      return true;
    }
    try {
      var stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
      int afterName = stat.lastIndexOf(')'); // the name in parentheses may hold spaces
      char state =
          afterName > 0 && stat.length() > afterName + 2 ? stat.charAt(afterName + 2) : '?';
      return state != 'Z' && state != 'X';
    } catch (IOException e) {
      return false; // gone between the two looks
    }
  }

  /**
   * The live process with this pid that started at {@code start}; empty when it is gone, or when
   * the pid now belongs to a different process.
   */
  static Optional<ProcessHandle> find(long pid, Instant start) {
    return ProcessHandle.of(pid)
        .filter(ProcessTree::isRunning)
        .filter(
            h -> start == null || h.info().startInstant().map(s -> near(s, start)).orElse(true));
  }

  private static boolean near(Instant a, Instant b) {
    return Duration.between(a, b).abs().compareTo(SAME_START) <= 0;
  }

  /**
   * The root and every process below it, taken now: once the root dies its children are re-parented
   * and no longer show up as its descendants, so the list is kept to finish the job later.
   */
  static List<ProcessHandle> members(ProcessHandle root) {
    var all = new ArrayList<ProcessHandle>();
    all.add(root);
    root.descendants().forEach(all::add);
    return all;
  }

  /** SIGTERM to every process, so each may clean up. */
  static void terminate(Collection<ProcessHandle> processes) {
    processes.stream().filter(ProcessTree::isRunning).forEach(ProcessHandle::destroy);
  }

  /** SIGKILL to every live process and anything it started since the last snapshot. */
  static void kill(Collection<ProcessHandle> processes) {
    var all = new LinkedHashSet<ProcessHandle>();
    for (var p : processes) {
      if (isRunning(p)) {
        all.add(p);
        p.descendants().forEach(all::add);
      }
    }
    all.forEach(ProcessHandle::destroyForcibly);
  }

  /** The real uids that own a process right now. */
  static Set<Integer> uidsWithProcesses() {
    var uids = new HashSet<Integer>();
    // A zombie waits only for its parent to reap it: it runs nothing and holds nothing.
    ProcessHandle.allProcesses()
        .filter(ProcessTree::isRunning)
        .forEach(p -> realUid(p.pid()).ifPresent(uids::add));
    return uids;
  }

  /**
   * Kills every process that runs as {@code uid}, including ones that left the replica's tree. With
   * {@code setpriv} (the users sandbox has it) the kill is {@code kill(-1, SIGKILL)} sent as the
   * uid itself: the kernel signals all of that uid's processes in one pass that no fork can slip
   * through, so a process that keeps changing its pid cannot outrun it. Returns once none is left
   * (or after a few rounds; the uid then stays blocked for new attempts, see {@link
   * #uidsWithProcesses}).
   */
  static void killUid(int uid) {
    var setpriv = Sandbox.executable("setpriv");
    if (setpriv != null) {
      // First without looking: a process that keeps forking and exiting is gone from /proc by
      // the time its status is read, so a look can miss every one of them.
      killAllAs(setpriv, uid);
    }
    for (int round = 0; round < 10; round++) {
      var found =
          ProcessHandle.allProcesses()
              .filter(p -> realUid(p.pid()).orElse(-1) == uid)
              .filter(ProcessTree::isRunning)
              .toList();
      if (found.isEmpty()) {
        return;
      }
      if (setpriv != null) {
        killAllAs(setpriv, uid);
      } else {
        found.forEach(ProcessHandle::destroyForcibly);
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private static void killAllAs(String setpriv, int uid) {
    var id = Integer.toString(uid);
    try {
      var killer =
          new ProcessBuilder(
                  setpriv,
                  "--reuid=" + id,
                  "--regid=" + id,
                  "--clear-groups",
                  "--",
                  "/bin/bash",
                  "-c",
                  "kill -KILL -1")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD);
      killer.environment().clear();
      killer.environment().putAll(ReplicaLauncher.TOOL_ENV);
      if (!killer.start().waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
        throw new IOException("kill -1 as uid " + uid + " did not return");
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static Optional<Integer> realUid(long pid) {
    if (!PROC) {
      return Optional.empty();
    }
    try {
      for (var line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("Uid:")) {
          return Optional.of(Integer.parseInt(line.substring(4).trim().split("\\s+")[0]));
        }
      }
      return Optional.empty();
    } catch (IOException | RuntimeException e) {
      return Optional.empty(); // gone meanwhile
    }
  }
}
