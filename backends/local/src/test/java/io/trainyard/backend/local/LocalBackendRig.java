package io.trainyard.backend.local;

import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.BackendStatus;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.InstanceShapes;
import io.trainyard.spi.LogLine;
import io.trainyard.spi.LogQuery;
import io.trainyard.spi.LogStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A local backend on a temporary data directory, for tests that start real processes: it remembers
 * what it submitted and stops it all at the end, so no test leaves a process behind.
 */
final class LocalBackendRig implements AutoCloseable {
  static final Duration POLL = Duration.ofMillis(50);
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  final Path temp;
  final Path dataDir;
  private final List<ExternalRef> submitted = new ArrayList<>();
  private final boolean devMode;
  private LocalConfig config;
  private LocalBackend backend;

  LocalBackendRig(Path temp) {
    this(temp, false);
  }

  /** A rig whose gateway runs in dev mode, where {@code sandbox: none} may be used. */
  LocalBackendRig(Path temp, boolean devMode) {
    this.temp = temp;
    this.devMode = devMode;
    this.dataDir = temp.resolve("data/backends/local");
    try {
      // The users sandbox's uids must reach their scratch directories under temp/work.
      Files.setPosixFilePermissions(temp, PosixFilePermissions.fromString("rwx--x--x"));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    reopen(withMaxJobs(4));
  }

  LocalBackend backend() {
    return backend;
  }

  LocalConfig config() {
    return config;
  }

  /** The rig's configuration: code in the repository root, secrets in the temp dir, 1s grace. */
  LocalConfig withMaxJobs(int maxConcurrentJobs) {
    return new LocalConfig(
        null,
        null,
        false,
        null,
        null,
        TestJobs.REPO_ROOT.toString(),
        temp.resolve("secrets").toString(),
        maxConcurrentJobs,
        "1s",
        "auto",
        null,
        temp.resolve("work").toString());
  }

  /** Closes the backend and opens a new one on the same directory, as a gateway restart does. */
  LocalBackend reopen(LocalConfig newConfig) {
    if (backend != null) {
      backend.close();
    }
    config = newConfig;
    backend =
        LocalBackend.open(
            config,
            new BackendContext(
                InstanceShapes.NONE, dataDir, Clock.systemUTC(), devMode, temp.resolve("data")),
            POLL);
    return backend;
  }

  ExternalRef submit(BackendJob job) {
    var ref = backend.submit(job);
    submitted.add(ref);
    return ref;
  }

  @Override
  public void close() {
    for (var ref : submitted) {
      backend.cancel(ref);
    }
    for (var ref : submitted) {
      awaitEnd(ref);
    }
    backend.close();
  }

  /** A pytorch job whose replicas run {@code script} with bash. */
  static BackendJob shellJob(String script, String extraSpec, String replicas) {
    var spec =
        TestJobs.spec(
            "framework: pytorch\n"
                + "command: [bash, -c, "
                + quoted(script)
                + "]\n"
                + "replicas: {"
                + replicas
                + "}\n"
                + extraSpec
                + "\n");
    return TestJobs.job(spec);
  }

  private static String quoted(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
  }

  /** Where the attempt's replicas write ({@code TRAINYARD_ATTEMPT_DIR}). */
  Path workDir(ExternalRef ref) {
    return backend.workDirOf(ref);
  }

  SandboxLease backendLease(ExternalRef ref) {
    return new AttemptFiles(attemptDir(ref)).readLease().orElseThrow();
  }

  Path attemptDir(ExternalRef ref) {
    return dataDir.resolve(ref.name());
  }

  BackendStatus awaitEnd(ExternalRef ref) {
    var deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (true) {
      var status = backend.status(ref);
      if (status.phase().isTerminal()) {
        return status;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError(ref.name() + " did not end: " + status);
      }
      pause();
    }
  }

  static void awaitFile(Path file) {
    var deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (!Files.exists(file)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(file + " never appeared");
      }
      pause();
    }
  }

  /** Waits for {@code path} to be removed (scratch directories are removed in the background). */
  static void awaitGone(Path path) {
    var deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(path + " was never removed");
      }
      pause();
    }
  }

  List<String> texts(ExternalRef ref, String replica) throws InterruptedException {
    return lines(ref, new LogQuery(replica, null, false)).stream().map(LogLine::text).toList();
  }

  List<LogLine> lines(ExternalRef ref, LogQuery query) throws InterruptedException {
    try (var stream = backend.logs(ref, query)) {
      return readAll(stream);
    }
  }

  static List<LogLine> readAll(LogStream stream) throws InterruptedException {
    var lines = new ArrayList<LogLine>();
    for (var line = stream.next(); line.isPresent(); line = stream.next()) {
      lines.add(line.get());
    }
    return lines;
  }

  private static void pause() {
    try {
      Thread.sleep(POLL.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
