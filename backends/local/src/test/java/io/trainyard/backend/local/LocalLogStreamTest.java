package io.trainyard.backend.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.LogLine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalLogStreamTest {
  private static final Duration POLL = Duration.ofMillis(20);
  @TempDir Path dir;

  @Test
  void interleavesReplicasByTime() throws Exception {
    append("master-0", "100.000001 m1\n100.000003 m2\n");
    append("worker-0", "100.000002 w1\n100.000004 w2\n");

    var lines = readAll(stream(null, false, () -> true, "master-0", "worker-0"));

    assertThat(lines)
        .extracting(l -> l.replica() + ":" + l.text())
        .containsExactly("master-0:m1", "worker-0:w1", "master-0:m2", "worker-0:w2");
    assertThat(lines.get(0).at()).isEqualTo(Instant.ofEpochSecond(100, 1_000));
  }

  @Test
  void sinceDropsOlderLines() throws Exception {
    append("master-0", "100.5 old\n200.25 new\n");

    var lines = readAll(stream(Instant.ofEpochSecond(150), false, () -> true, "master-0"));

    assertThat(lines).extracting(LogLine::text).containsExactly("new");
  }

  @Test
  void keepsLinesWithoutATimestampAndSpacesInText() throws Exception {
    append("master-0", "bash: something went wrong\n100,5   indented text\n");

    var lines = readAll(stream(null, false, () -> true, "master-0"));

    assertThat(lines)
        .extracting(LogLine::text)
        .containsExactly("bash: something went wrong", "  indented text");
    assertThat(lines.get(0).at()).isNull();
    assertThat(lines.get(1).at()).isEqualTo(Instant.ofEpochSecond(100, 500_000_000));
  }

  @Test
  void aLineStillBeingWrittenIsNotHandedOut() throws Exception {
    append("master-0", "100.0 done\n101.0 half");

    var lines = readAll(stream(null, false, () -> true, "master-0"));

    assertThat(lines).extracting(LogLine::text).containsExactly("done");
  }

  @Test
  void followWaitsForNewLinesUntilTheAttemptEnds() throws Exception {
    append("master-0", "100.0 first\n");
    var ended = new AtomicBoolean();
    var stream = stream(null, true, ended::get, "master-0", "worker-0");

    assertThat(stream.next()).map(LogLine::text).contains("first");
    var next = CompletableFuture.supplyAsync(() -> nextUnchecked(stream));
    Thread.sleep(100);
    assertThat(next).isNotDone();
    append("worker-0", "101.0 late\n");
    assertThat(next.get(5, TimeUnit.SECONDS)).map(LogLine::text).contains("late");

    append("master-0", "102.0 last\n");
    ended.set(true);
    assertThat(stream.next()).map(LogLine::text).contains("last");
    assertThat(stream.next()).isEmpty();
  }

  @Test
  void closeUnblocksAFollowingReader() throws Exception {
    var stream = stream(null, true, () -> false, "master-0");
    var next = CompletableFuture.supplyAsync(() -> nextUnchecked(stream));
    Thread.sleep(100);

    stream.close();

    assertThat(next.get(5, TimeUnit.SECONDS)).isEmpty();
  }

  private LocalLogStream stream(
      Instant since, boolean follow, java.util.function.BooleanSupplier ended, String... names) {
    var readers = new ArrayList<ReplicaLogReader>();
    for (var name : names) {
      readers.add(new ReplicaLogReader(name, dir.resolve(name + ".log")));
    }
    return new LocalLogStream(readers, since, follow, ended, POLL);
  }

  private void append(String replica, String text) throws Exception {
    Files.writeString(
        dir.resolve(replica + ".log"), text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  private static List<LogLine> readAll(LocalLogStream stream) throws InterruptedException {
    var lines = new ArrayList<LogLine>();
    for (var line = stream.next(); line.isPresent(); line = stream.next()) {
      lines.add(line.get());
    }
    return lines;
  }

  private static Optional<LogLine> nextUnchecked(LocalLogStream stream) {
    try {
      return stream.next();
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }
}
