package io.trainyard.backend.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.SecretScrubber;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReplicaLogReaderTest {
  private static final String SECRET = "NLPSECRETVALUE_4f9a2";

  @TempDir Path dir;

  @Test
  void aLineLongerThanAReadIsHandedOverWholeSoItsSecretIsMasked() throws Exception {
    var file = dir.resolve("master-0.log");
    var at = Instant.parse("2030-01-01T00:00:00Z");
    // The secret straddles the first 64 KiB read, as in the red-team's run.
    var stamp = LogLineFormat.format(at, "").length();
    var text = "x".repeat(64 * 1024 - stamp - 5) + SECRET + "y".repeat(100_000);
    Files.writeString(
        file, LogLineFormat.format(at, text) + "\n" + LogLineFormat.format(at, "next") + "\n");

    var reader = new ReplicaLogReader("master-0", file);
    var first = reader.take();
    var second = reader.take();

    assertThat(first.text()).isEqualTo(text);
    assertThat(SecretScrubber.of(List.of(SECRET)).scrub(first.text())).doesNotContain("NLPSEC");
    assertThat(second.text()).isEqualTo("next");
  }

  @Test
  void aLineBeyondTheLimitIsLeftOutSayingSoAndTheNextIsRead() throws Exception {
    var file = dir.resolve("master-0.log");
    var at = Instant.parse("2030-01-01T00:00:00Z");
    Files.writeString(file, LogLineFormat.format(at, "z".repeat(ReplicaLogReader.MAX_LINE * 2)));
    var reader = new ReplicaLogReader("master-0", file);

    assertThat(reader.take().text()).contains("a line of more than 1 MiB was left out");
    assertThat(reader.take()).as("the rest of the long line is not a line").isNull();
    Files.writeString(
        file, "zzz\n" + LogLineFormat.format(at, "after") + "\n", StandardOpenOption.APPEND);
    assertThat(reader.take().text()).isEqualTo("after");
  }
}
