package io.trainyard.backend.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ScratchUsageTest {
  @TempDir Path dir;
  @TempDir Path outside;

  @Test
  void countsWholeBlocksForEveryEntryWithoutFollowingLinks() throws Exception {
    Files.writeString(dir.resolve("small"), "x"); // one block
    Files.write(dir.resolve("bigger"), new byte[4097]); // two blocks
    Files.createDirectories(dir.resolve("a/b")); // a block each
    Files.writeString(dir.resolve("a/b/empty"), ""); // an inode: a block
    Files.write(outside.resolve("huge"), new byte[1 << 20]);
    Files.createSymbolicLink(dir.resolve("link"), outside); // a block, never what it points to

    var usage = ScratchUsage.measure(dir, 1L << 30);

    // The directory itself, small, bigger (2), a, b, empty, link.
    assertThat(usage.bytes()).isEqualTo(8 * ScratchUsage.BLOCK);
    assertThat(usage.overLimit()).isFalse();
    assertThat(usage.unmeasurable()).isNull();
  }

  @Test
  void aSparseFileCountsAtItsLengthAndTheWalkStopsOncePastTheLimit() throws Exception {
    try (var sparse = new RandomAccessFile(dir.resolve("sparse").toFile(), "rw")) {
      sparse.setLength(1L << 40); // a TiB that takes no disk
    }
    for (int i = 0; i < 1000; i++) {
      Files.writeString(dir.resolve("f" + i), "x");
    }

    var usage = ScratchUsage.measure(dir, 10L << 30);

    assertThat(usage.overLimit()).isTrue();
    assertThat(usage.bytes()).isGreaterThan(10L << 30).isLessThan((1L << 40) + (1L << 20));
  }

  @Test
  void manySmallFilesPassTheLimitByTheirBlocks() throws Exception {
    for (int i = 0; i < 300; i++) {
      Files.createFile(dir.resolve("f" + i));
    }

    var usage = ScratchUsage.measure(dir, 1L << 20); // 256 blocks

    assertThat(usage.overLimit()).isTrue();
    assertThat(usage.bytes()).isEqualTo(257 * ScratchUsage.BLOCK);
  }

  @Test
  void aMissingDirectoryHoldsNothing() {
    assertThat(ScratchUsage.measure(dir.resolve("gone"), 1))
        .isEqualTo(new ScratchUsage(0, false, null));
  }

  @Test
  void sizesAreWrittenAsTheConfigurationWouldSayThem() {
    assertThat(ScratchUsage.size(10L << 30)).isEqualTo("10 GiB");
    assertThat(ScratchUsage.size(1L << 20)).isEqualTo("1 MiB");
    assertThat(ScratchUsage.size(1536)).isEqualTo("1.5 KiB");
    assertThat(ScratchUsage.size(1000)).isEqualTo("1000 bytes");
  }
}
