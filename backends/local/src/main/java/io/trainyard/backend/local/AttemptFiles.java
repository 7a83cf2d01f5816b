package io.trainyard.backend.local;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.trainyard.spi.LogLine;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The layout of one attempt's directory, {@code <dataDir>/<objectName>/}: {@code marker.json},
 * {@code plan.json}, {@code state.json}, and per replica {@code <replica>.log} (one timestamped
 * line per printed line), {@code <replica>.exit} (the last run's exit code) and {@code
 * <replica>.notes} (the backend's own lines about it, e.g. why it restarted). The log and exit
 * files are handed to the replica's wrapper, so a replica can write to them around it; the notes
 * file is never opened by any process but the gateway, so a job cannot forge a note. The replicas
 * get a scratch directory as {@code TRAINYARD_ATTEMPT_DIR}, elsewhere (under the backend's {@code
 * workDir}; they never see this one), removed when the attempt ends. JSON files are replaced
 * atomically, so a reader never sees half of one. The directory is owner-only (0700, files 0600)
 * whatever the umask: it holds the replicas' logs, which may carry what a job printed.
 */
final class AttemptFiles {
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .registerModule(new JavaTimeModule())
          .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(SerializationFeature.INDENT_OUTPUT);
  private static final int TAIL_BYTES = 16 * 1024;

  private static final Set<PosixFilePermission> DIR_MODE =
      PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> FILE_MODE =
      PosixFilePermissions.fromString("rw-------");

  private final Path dir;
  private final Path workDir;

  AttemptFiles(Path dir, Path workDir) {
    this.dir = dir;
    this.workDir = workDir;
  }

  AttemptFiles(Path dir) {
    this(dir, dir);
  }

  /** Where the replicas write their scratch files: {@code TRAINYARD_ATTEMPT_DIR}. */
  Path workDir() {
    return workDir;
  }

  Path dir() {
    return dir;
  }

  String objectName() {
    return dir.getFileName().toString();
  }

  void create() {
    io(
        () -> {
          Files.createDirectories(dir);
          Files.setPosixFilePermissions(dir, DIR_MODE);
          // The parents are the backend's own (data/backends/<id>): owner-only as well.
          Files.setPosixFilePermissions(dir.getParent(), DIR_MODE);
        });
  }

  Optional<SandboxLease> readLease() {
    return read("sandbox.json", SandboxLease.class);
  }

  void writeLease(SandboxLease lease) {
    write("sandbox.json", lease);
  }

  /** Creates the file owner-only if it is missing, so no umask decides who may read a log. */
  void createPrivate(Path file) {
    io(
        () -> {
          if (!Files.exists(file)) {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(FILE_MODE));
          }
        });
  }

  Optional<AttemptMarker> readMarker() {
    return read("marker.json", AttemptMarker.class);
  }

  void writeMarker(AttemptMarker marker) {
    write("marker.json", marker);
  }

  Optional<AttemptPlan> readPlan() {
    return read("plan.json", AttemptPlan.class);
  }

  void writePlan(AttemptPlan plan) {
    write("plan.json", plan);
    if (plan.hostfile() != null) {
      // In the replicas' scratch directory, where they can read it; it holds no secret.
      io(() -> Files.writeString(workDir.resolve(ReplicaPlanner.HOSTFILE), plan.hostfile()));
    }
  }

  /**
   * The gateway's secret environment of the attempt (its metrics token), in the gateway-only
   * directory like everything here; empty when the gateway gave none.
   */
  @SuppressWarnings("unchecked")
  java.util.Map<String, String> readGatewayEnv() {
    return read("gateway-env.json", java.util.Map.class).orElse(java.util.Map.of());
  }

  void writeGatewayEnv(java.util.Map<String, String> env) {
    if (!env.isEmpty()) {
      write("gateway-env.json", env);
    }
  }

  Optional<AttemptState> readState() {
    return read("state.json", AttemptState.class);
  }

  void writeState(AttemptState state) {
    write("state.json", state);
  }

  Path logFile(String replica) {
    return dir.resolve(replica + ".log");
  }

  /** A replica's environment while it is being started (see {@link ReplicaLauncher}). */
  Path envFile(String replica) {
    return dir.resolve(replica + ".env");
  }

  /** Writes {@code bytes} to a new owner-only file, replacing one that is there. */
  void writePrivate(Path file, byte[] bytes) {
    io(
        () -> {
          Files.deleteIfExists(file);
          Files.createFile(file, PosixFilePermissions.asFileAttribute(FILE_MODE));
          Files.write(file, bytes, StandardOpenOption.WRITE);
        });
  }

  Path exitFile(String replica) {
    return dir.resolve(replica + ".exit");
  }

  /** The exit code the replica's wrapper recorded; empty when it was killed before it could. */
  OptionalInt readExitCode(String replica) {
    try {
      return OptionalInt.of(Integer.parseInt(Files.readString(exitFile(replica)).trim()));
    } catch (NoSuchFileException | NumberFormatException e) {
      return OptionalInt.empty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * What the sandbox tools printed instead of an exit code when the replica could not start in the
   * sandbox (the wrapper never ran); empty when the file holds a code or nothing.
   */
  Optional<String> exitComplaint(String replica) {
    try {
      var text = Files.readString(exitFile(replica)).trim();
      if (text.isEmpty() || text.matches("-?\\d{1,10}")) {
        return Optional.empty();
      }
      return Optional.of(text.length() > 500 ? text.substring(0, 500) + "..." : text);
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  void clearExitCode(String replica) {
    io(() -> Files.deleteIfExists(exitFile(replica)));
  }

  /** The backend's own lines about a replica: written by the gateway alone. */
  Path notesFile(String replica) {
    return dir.resolve(replica + ".notes");
  }

  /**
   * A line from the backend itself about a replica, e.g. why it restarted: one line, served with
   * the replica's log (merged by time) as {@code [trainyard] <text>}.
   */
  void appendNote(String replica, Instant at, String text) {
    var line = LogLineFormat.note(at, text) + "\n";
    createPrivate(notesFile(replica));
    io(
        () ->
            Files.writeString(
                notesFile(replica),
                line,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND,
                StandardOpenOption.WRITE));
  }

  /** Whether the backend already noted {@code text} about the replica (a later gateway asks). */
  boolean hasNote(String replica, String text) {
    try {
      return new String(Files.readAllBytes(notesFile(replica)), StandardCharsets.UTF_8)
          .contains(LogLineFormat.NOTE_PREFIX + " " + text);
    } catch (NoSuchFileException e) {
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The text of the replica's last {@code n} lines, its own and the backend's notes merged by time,
   * each read from the end of its file. A line of the replica's that looks like a note is marked as
   * the job's, as when the log is served.
   */
  List<String> lastLines(String replica, int n) {
    var own = tail(replica, logFile(replica), n, false);
    var notes = tail(replica, notesFile(replica), n, true);
    // Merged as a served log is (LocalLogStream): each file in its order, the earlier head first,
    // the replica's line first at equal times.
    var lines = new ArrayList<LogLine>();
    int i = 0;
    int j = 0;
    while (i < own.size() || j < notes.size()) {
      if (j == notes.size()
          || (i < own.size() && LocalLogStream.BY_TIME.compare(notes.get(j), own.get(i)) >= 0)) {
        lines.add(own.get(i++));
      } else {
        lines.add(notes.get(j++));
      }
    }
    return lines.subList(Math.max(0, lines.size() - n), lines.size()).stream()
        .map(LogLine::text)
        .toList();
  }

  private static List<LogLine> tail(String replica, Path file, int n, boolean notes) {
    if (!Files.exists(file)) {
      return List.of();
    }
    try (var raf = new RandomAccessFile(file.toFile(), "r")) {
      long start = Math.max(0, raf.length() - TAIL_BYTES);
      var bytes = new byte[(int) (raf.length() - start)];
      raf.seek(start);
      raf.readFully(bytes);
      var lines = new ArrayList<>(List.of(new String(bytes, StandardCharsets.UTF_8).split("\n")));
      if (start > 0 && !lines.isEmpty()) {
        lines.remove(0); // cut in the middle
      }
      lines.removeIf(String::isBlank);
      return lines.subList(Math.max(0, lines.size() - n), lines.size()).stream()
          .map(
              raw ->
                  notes
                      ? LogLineFormat.parse(replica, raw)
                      : LogLineFormat.parseJobLine(replica, raw))
          .toList();
    } catch (NoSuchFileException e) {
      return List.of();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private <T> Optional<T> read(String name, Class<T> type) {
    var file = dir.resolve(name);
    try {
      return Optional.of(JSON.readValue(file.toFile(), type));
    } catch (IOException e) {
      if (!Files.exists(file)) {
        return Optional.empty();
      }
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  private void write(String name, Object value) {
    var target = dir.resolve(name);
    var temp = dir.resolve(name + ".tmp");
    io(
        () -> {
          Files.deleteIfExists(temp);
          Files.createFile(temp, PosixFilePermissions.asFileAttribute(FILE_MODE));
          JSON.writeValue(temp.toFile(), value);
          Files.move(
              temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        });
  }

  private interface IoAction {
    void run() throws IOException;
  }

  private static void io(IoAction action) {
    try {
      action.run();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
