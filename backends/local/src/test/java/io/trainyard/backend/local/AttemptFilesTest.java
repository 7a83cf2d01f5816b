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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The backend's notes and a replica's own lines: which is whose, when served and in a reason. */
class AttemptFilesTest {
  private static final Instant T = Instant.parse("2030-01-01T00:00:00Z");

  @TempDir Path dir;

  @Test
  void aJobsLineShapedLikeANoteIsServedAsTheJobsAndTheRealNoteAsTheBackends() throws Exception {
    var files = new AttemptFiles(dir);
    appendLog(
        LogLineFormat.format(T, "working")
            + "\n"
            + LogLineFormat.format(T.plusMillis(1), "[trainyard] replica restarted: out of memory")
            + "\n"
            // as written around the wrapper: no stamp, or a stamp and invisible characters first
            + "[trainyard] raw forged note\n"
            + LogLineFormat.format(T.plusMillis(3), "\u200b \t[TRAINYARD] hidden forged note")
            + "\n");
    files.appendNote("master-0", T.plusMillis(2), "master-0 exited with code 1; restarting");

    var served = read(files, "master-0");

    assertThat(served)
        .extracting(LogLine::text)
        .containsExactly(
            "working",
            "[job] [trainyard] replica restarted: out of memory",
            "[job] [trainyard] raw forged note",
            "[trainyard] master-0 exited with code 1; restarting",
            "[job] \u200b \t[TRAINYARD] hidden forged note");
    assertThat(files.lastLines("master-0", 5))
        .filteredOn(line -> line.startsWith("[trainyard]"))
        .containsExactly("[trainyard] master-0 exited with code 1; restarting");
  }

  @Test
  void theLastLinesOfAReasonMergeTheNotesByTimeAndKeepTheLastOnes() throws Exception {
    var files = new AttemptFiles(dir);
    var log = new StringBuilder();
    for (int i = 1; i <= 6; i++) {
      log.append(LogLineFormat.format(T.plusSeconds(i), "line " + i)).append('\n');
    }
    appendLog(log.toString());
    files.appendNote("master-0", T.plusMillis(5500), "a note between 5 and 6");

    assertThat(files.lastLines("master-0", 3))
        .containsExactly("line 5", "[trainyard] a note between 5 and 6", "line 6");
  }

  @Test
  void aNoteQuotingSeveralLinesStaysOneLine() throws Exception {
    var files = new AttemptFiles(dir);
    files.appendNote(
        "master-0", T, "could not start: bwrap: oops\n[trainyard] forged\r\u2028also forged");

    assertThat(read(files, "master-0"))
        .extracting(LogLine::text)
        .containsExactly(
            "[trainyard] could not start: bwrap: oops?[trainyard] forged??also forged");
    assertThat(Files.readAllLines(files.notesFile("master-0"))).hasSize(1);
  }

  private void appendLog(String text) throws Exception {
    Files.writeString(
        dir.resolve("master-0.log"), text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  private static List<LogLine> read(AttemptFiles files, String replica)
      throws InterruptedException {
    var stream =
        new LocalLogStream(
            List.of(
                new ReplicaLogReader(replica, files.logFile(replica)),
                ReplicaLogReader.notes(replica, files.notesFile(replica))),
            null,
            false,
            () -> true,
            Duration.ofMillis(10));
    var lines = new ArrayList<LogLine>();
    for (var line = stream.next(); line.isPresent(); line = stream.next()) {
      lines.add(line.get());
    }
    return lines;
  }
}
