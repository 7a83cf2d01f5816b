package io.trainyard.backend.local;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The layout of one attempt's directory, {@code <dataDir>/<objectName>/}: {@code marker.json},
 * {@code plan.json}, {@code state.json}, and per replica {@code <replica>.log} (one timestamped
 * line per printed line) and {@code <replica>.exit} (the last run's exit code). The replicas get
 * the directory as {@code TRAINYARD_ATTEMPT_DIR} for scratch files. JSON files are replaced
 * atomically, so a reader never sees half of one.
 */
final class AttemptFiles {
  private static final ObjectMapper JSON =
      new ObjectMapper()
          .registerModule(new JavaTimeModule())
          .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
          .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(SerializationFeature.INDENT_OUTPUT);
  private static final int TAIL_BYTES = 16 * 1024;

  private final Path dir;

  AttemptFiles(Path dir) {
    this.dir = dir;
  }

  Path dir() {
    return dir;
  }

  String objectName() {
    return dir.getFileName().toString();
  }

  void create() {
    io(() -> Files.createDirectories(dir));
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
      io(() -> Files.writeString(dir.resolve(ReplicaPlanner.HOSTFILE), plan.hostfile()));
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

  void clearExitCode(String replica) {
    io(() -> Files.deleteIfExists(exitFile(replica)));
  }

  /** A line from the backend itself in a replica's log, e.g. why it restarted. */
  void appendNote(String replica, Instant at, String text) {
    var line = LogLineFormat.format(at, "[trainyard] " + text) + "\n";
    io(
        () ->
            Files.writeString(
                logFile(replica),
                line,
                StandardOpenOption.CREATE,
                StandardOpenOption.APPEND,
                StandardOpenOption.WRITE));
  }

  /** The text of the replica's last {@code n} log lines, read from the end of the file. */
  List<String> lastLines(String replica, int n) {
    var file = logFile(replica);
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
          .map(raw -> LogLineFormat.parse(replica, raw).text())
          .toList();
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
