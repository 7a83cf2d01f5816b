package io.trainyard.backend.local;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Puts an attempt's replicas where they cannot reach the gateway (see {@link SandboxMode}): builds
 * the command prefix each replica starts under, keeps one network namespace per attempt (a holder
 * process with the loopback up that every replica joins, so {@code MASTER_ADDR=127.0.0.1} works
 * between them and nothing of the host's loopback does), and cleans up when the attempt ends.
 * Stateless apart from its settings; what an attempt got is in its {@link SandboxLease}.
 */
final class Sandbox {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Sandbox.class);
  private static final Duration HOLDER_READY = Duration.ofSeconds(10);

  /**
   * The holder: brings the loopback up, says so, then stays while any other process is in its
   * network namespace. It leaves by itself once the namespace has been empty for two looks in a row
   * (when no gateway was there to end the attempt, e.g. a test's); a replica started later gets a
   * new holder. {@code -ef} compares the namespace files' inodes without forking.
   */
  private static final String HOLDER =
      String.join(
          "\n",
          "ip link set lo up && echo ready || exit 1",
          "exec >/dev/null 2>&1 </dev/null",
          "idle=0",
          "sleep \"$1\"",
          "while :; do",
          "  others=0",
          "  for p in /proc/[0-9]*; do",
          "    if [ \"$p\" != /proc/$$ ] && [ \"$p/ns/net\" -ef /proc/$$/ns/net ]; then",
          "      others=1; break",
          "    fi",
          "  done",
          "  if [ $others = 0 ]; then idle=$((idle + 1)); else idle=0; fi",
          "  [ $idle -ge 2 ] && exit 0",
          "  sleep \"$2\"",
          "done");

  private final SandboxMode mode;
  private final UidRange uids;
  private final Path workRoot;
  private final Path codeDir;
  private final List<Path> hidden;
  private final boolean root;
  private List<Duration> holderLooks = List.of(Duration.ofSeconds(60), Duration.ofSeconds(10));

  private Sandbox(
      SandboxMode mode,
      UidRange uids,
      Path workRoot,
      Path codeDir,
      List<Path> hidden,
      boolean root) {
    this.mode = mode;
    this.uids = uids;
    this.workRoot = workRoot;
    this.codeDir = codeDir;
    this.hidden = List.copyOf(hidden);
    this.root = root;
  }

  /**
   * The sandbox the configuration asks for, or why there is none.
   *
   * @param hidden directories of the gateway (its data directory, the secrets) that must not be
   *     visible inside a bubblewrap sandbox even when they lie under the code directory
   * @throws IllegalStateException the asked-for sandbox cannot be had here, or no sandbox can and
   *     the gateway is not in dev mode
   */
  static Sandbox choose(LocalConfig config, boolean devMode, List<Path> hidden) {
    var root = isRoot();
    var mode = config.sandboxMode();
    String why = "the configuration says sandbox: none";
    if (mode == SandboxMode.AUTO) {
      var users = root ? usersMissing() : "the gateway does not run as root";
      // As root, bubblewrap needs the users sandbox's tools too (see below).
      var bubblewrap = users == null ? null : root ? users : Bubblewrap.missing(null);
      mode =
          users == null
              ? SandboxMode.USERS
              : bubblewrap == null ? SandboxMode.BUBBLEWRAP : SandboxMode.NONE;
      why = "no sandbox works here (users: " + users + "; bubblewrap: " + bubblewrap + ")";
    } else if (mode == SandboxMode.USERS) {
      if (!root) {
        throw new IllegalStateException(
            "local backend: sandbox users needs the gateway to run as root");
      }
      requireNull(usersMissing(), mode);
    } else if (mode == SandboxMode.BUBBLEWRAP) {
      // As root, bwrap alone would run the replicas as root: they get a uid of their own first.
      requireNull(root ? usersMissing() : null, mode);
      requireNull(Bubblewrap.missing(root ? config.uids().first() : null), mode);
    }
    if (mode == SandboxMode.NONE && !devMode) {
      throw new IllegalStateException(
          "local backend refuses to start outside dev mode: its jobs would run unsandboxed as the"
              + " gateway's own user, because "
              + why);
    }
    return new Sandbox(mode, config.uids(), config.workPath(), config.codePath(), hidden, root);
  }

  private static void requireNull(String missing, SandboxMode mode) {
    if (missing != null) {
      throw new IllegalStateException(
          "local backend: sandbox " + mode + " cannot be used here: " + missing);
    }
  }

  SandboxMode mode() {
    return mode;
  }

  /** When a network holder first looks whether it is alone, and how often after; for tests. */
  Sandbox withHolderLooks(Duration first, Duration every) {
    holderLooks = List.of(first, every);
    return this;
  }

  /**
   * Makes the gateway's directories owner-only, whatever the umask made them: with the users
   * sandbox their permissions are what keeps the replicas' uids out (the gateway sets its data
   * directory so too; a secretsDir elsewhere is this backend's alone to guard).
   */
  void seal() {
    if (mode == SandboxMode.NONE) {
      return;
    }
    for (var dir : hidden) {
      try {
        if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
          Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot make the gateway's directories owner-only", e);
      }
    }
  }

  /**
   * The attempt's scratch directory, under the backend's {@code workDir} in every mode: never the
   * attempt directory, which holds the logs and state that outlive it.
   */
  Path workDirOf(Path attemptDir) {
    return workRoot.resolve(attemptDir.getFileName());
  }

  /**
   * A lease for a new attempt: in the {@code users} sandbox the lowest uid of the range that no
   * other live attempt holds and no process runs as (a leftover of a crash keeps its uid blocked).
   */
  SandboxLease lease(Path attemptDir, Set<Integer> uidsInUse) {
    var work = workDirOf(attemptDir).toString();
    if (mode == SandboxMode.NONE || !root) {
      return new SandboxLease(mode, null, work, null, null);
    }
    var busy = ProcessTree.uidsWithProcesses();
    for (int uid = uids.first(); uid <= uids.last(); uid++) {
      if (!uidsInUse.contains(uid) && !busy.contains(uid)) {
        return new SandboxLease(mode, uid, work, null, null);
      }
    }
    throw new IllegalStateException(
        "every uid of uidRange " + uids.first() + "-" + uids.last() + " is in use");
  }

  /** Creates the scratch directory, owned by the attempt's uid and reachable by nobody else. */
  void prepare(SandboxLease lease) {
    try {
      Files.createDirectories(workRoot);
      if (!Files.isDirectory(workRoot, LinkOption.NOFOLLOW_LINKS)
          || !Files.getOwner(workRoot).equals(Files.getOwner(Path.of("/proc/self")))) {
        throw new IllegalStateException(
            "the local backend's workDir is not a directory of the gateway's user");
      }
      // Traversable but not listable: an attempt finds its own directory, not the others'.
      Files.setPosixFilePermissions(workRoot, PosixFilePermissions.fromString("rwx--x--x"));
      var dir = Path.of(lease.workDir());
      if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
        Files.createDirectory(dir);
      }
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
      if (lease.uid() != null) {
        Files.setAttribute(dir, "unix:uid", lease.uid(), LinkOption.NOFOLLOW_LINKS);
        Files.setAttribute(dir, "unix:gid", lease.uid(), LinkOption.NOFOLLOW_LINKS);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare the attempt's scratch directory", e);
    }
  }

  /**
   * Starts the process that holds the attempt's network namespace and returns once its loopback is
   * up. The holder outlives the gateway (adoption keeps using it) and is killed when the attempt
   * ends, or leaves by itself once nothing else is in its namespace (see {@link #HOLDER}).
   */
  ProcessHandle startNetwork() throws IOException {
    var command = new ArrayList<String>(List.of(executable("unshare")));
    if (!root) {
      command.addAll(List.of("--user", "--map-root-user"));
    }
    // As root (the users sandbox) an IPC namespace too: System V and POSIX message queues of one
    // attempt are gone with it, never seen by the next attempt that gets its uid.
    command.addAll(root ? List.of("--net", "--ipc") : List.of("--net"));
    command.addAll(
        List.of(
            "--",
            "/bin/sh",
            "-c",
            HOLDER,
            "trainyard-netns",
            Long.toString(holderLooks.get(0).toSeconds()),
            Long.toString(holderLooks.get(1).toSeconds())));
    var builder =
        new ProcessBuilder(command)
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .redirectErrorStream(true);
    // The holder outlives nothing of the gateway's but must not carry its credentials either.
    builder.environment().clear();
    builder
        .environment()
        .put("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin");
    var process = builder.start();
    var reader =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String line;
    try {
      line = reader.readLine();
      if (!"ready".equals(line)) {
        process.destroyForcibly();
        process.waitFor(HOLDER_READY.toMillis(), TimeUnit.MILLISECONDS);
        throw new IOException("cannot create the attempt's network namespace: " + line);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IOException("interrupted while creating the attempt's network namespace", e);
    }
    return process.toHandle();
  }

  /** The command that runs {@code inner} (the replica's wrapper) inside the attempt's sandbox. */
  List<String> wrap(SandboxLease lease, List<String> inner) {
    if (lease.mode() == SandboxMode.NONE) {
      var command = new ArrayList<String>(setsid());
      command.addAll(inner);
      return command;
    }
    var netns = "/proc/" + lease.holderPid() + "/ns/";
    var command = new ArrayList<String>(List.of(executable("nsenter")));
    if (!root) {
      command.addAll(List.of("--preserve-credentials", "--user=" + netns + "user"));
    }
    command.add("--net=" + netns + "net");
    if (root) {
      command.add("--ipc=" + netns + "ipc");
    }
    command.add("--");
    if (lease.uid() != null) {
      command.addAll(dropTo(lease.uid()));
    }
    if (lease.mode() == SandboxMode.USERS) {
      command.addAll(setsid());
    } else {
      command.addAll(Bubblewrap.command(codeDir, hidden, Path.of(lease.workDir())));
    }
    command.addAll(inner);
    return command;
  }

  /**
   * Once the attempt's processes are gone: kills whatever still runs as its uid (a daemon that left
   * the process tree), stops the network holder, removes what the uid left in the host's shared
   * writable directories ({@link #SHARED}) and the scratch directory ({@link #removeScratch}), so
   * the next attempt that gets the uid — perhaps another team's — finds nothing of this one's. With
   * no process of the uid left, nothing can swap a path under these walks.
   *
   * @param attemptDir the attempt's own directory, whose logs stay
   */
  void release(SandboxLease lease, Path attemptDir) {
    if (lease.holderPid() != null) {
      ProcessTree.find(lease.holderPid(), lease.holderStart())
          .ifPresent(ProcessHandle::destroyForcibly);
    }
    if (lease.uid() != null) {
      ProcessTree.killUid(lease.uid());
      for (var shared : SHARED) {
        removeOwnedBy(shared, lease.uid());
      }
    }
    removeScratch(lease, attemptDir);
  }

  /**
   * Removes the attempt's scratch directory. At once, the directory itself becomes the gateway's
   * and owner-only, so the next attempt given the uid cannot enter it; the removal, which takes a
   * while for a big one, then goes on in a process of its own, so no other attempt's tick waits for
   * it: {@code rm -rf}, which follows no link, stays on the file system and reaches any depth
   * (Java's paths stop at {@code PATH_MAX}), after {@code chmod -R u+rwX} when the gateway is not
   * root (a job may have left directories it cannot otherwise empty). An attempt from before
   * scratch directories moved out of the attempt directory keeps its files.
   */
  void removeScratch(SandboxLease lease, Path attemptDir) {
    var dir = Path.of(lease.workDir());
    if (attemptDir.startsWith(dir) || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try {
      chown(dir, (Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
      Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot take the attempt's scratch directory back", e);
    }
    var script =
        (root ? "" : "chmod -R u+rwX -- \"$1\" 2>/dev/null; ")
            + "exec rm -rf --one-file-system -- \"$1\"";
    var builder =
        new ProcessBuilder("/bin/sh", "-c", script, "trainyard-rm", dir.toString())
            .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectErrorStream(true);
    builder.environment().clear();
    builder.environment().putAll(ReplicaLauncher.TOOL_ENV);
    try {
      builder
          .start()
          .onExit()
          .thenAccept(
              done -> {
                if (done.exitValue() != 0) {
                  LOG.warn(
                      "scratch directory {} not fully removed (rm exited with {})",
                      dir,
                      done.exitValue());
                }
              });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot remove the attempt's scratch directory", e);
    }
  }

  /** Directories every local user may write to, where a replica can leave files for the next. */
  static final List<Path> SHARED =
      List.of(Path.of("/tmp"), Path.of("/var/tmp"), Path.of("/dev/shm"), Path.of("/run/lock"));

  /**
   * Deletes every file, link and directory under {@code root} that {@code uid} owns (a directory
   * once it is empty), never following a link; what others own stays, whatever path leads to it.
   * The uid has no groups, so it can only have made entries in its own directories and in ones
   * anybody may write to: only those are walked.
   */
  static void removeOwnedBy(Path root, int uid) {
    if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try {
      Files.walkFileTree(
          root,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs)
                throws IOException {
              var posix =
                  Files.readAttributes(d, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
              var ownerUid = (Integer) Files.getAttribute(d, "unix:uid", LinkOption.NOFOLLOW_LINKS);
              return ownerUid == uid
                      || posix.permissions().contains(PosixFilePermission.OTHERS_WRITE)
                  ? FileVisitResult.CONTINUE
                  : FileVisitResult.SKIP_SUBTREE;
            }

            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) {
              deleteIfOwned(f, uid);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path f, IOException e) {
              return FileVisitResult.CONTINUE; // gone meanwhile, or not ours to read
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException e) {
              if (!d.equals(root)) {
                deleteIfOwned(d, uid);
              }
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException("cannot clear what the attempt left in " + root, e);
    }
  }

  private static void deleteIfOwned(Path path, int uid) {
    try {
      if ((Integer) Files.getAttribute(path, "unix:uid", LinkOption.NOFOLLOW_LINKS) == uid) {
        Files.delete(path);
      }
    } catch (IOException e) {
      // Not empty (something of another owner's inside), or gone meanwhile: left as it is.
    }
  }

  private static void chown(Path path, int uid) throws IOException {
    Files.setAttribute(path, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
    Files.setAttribute(path, "unix:gid", uid, LinkOption.NOFOLLOW_LINKS);
  }

  /** setpriv to {@code uid}: no groups, no capabilities, no way to gain privileges. */
  static List<String> dropTo(int uid) {
    var id = Integer.toString(uid);
    return List.of(
        executable("setpriv"),
        "--reuid=" + id,
        "--regid=" + id,
        "--clear-groups",
        "--no-new-privs",
        "--inh-caps=-all",
        "--bounding-set=-all",
        "--");
  }

  // --wait keeps setsid as the replica's root process even when it has to fork to get a session.
  private static List<String> setsid() {
    var setsid = executable("setsid");
    return setsid == null ? List.of() : List.of(setsid, "--wait");
  }

  private static String usersMissing() {
    for (var tool : List.of("setpriv", "nsenter", "unshare", "ip", "setsid")) {
      if (executable(tool) == null) {
        return tool + " is not installed";
      }
    }
    return null;
  }

  static String executable(String name) {
    for (var dir : List.of("/usr/bin", "/bin", "/usr/sbin", "/sbin")) {
      var path = Path.of(dir, name);
      if (Files.isExecutable(path)) {
        return path.toString();
      }
    }
    return null;
  }

  private static boolean isRoot() {
    try {
      return ((Integer) Files.getAttribute(Path.of("/proc/self"), "unix:uid")) == 0;
    } catch (IOException | UnsupportedOperationException e) {
      return false;
    }
  }
}
