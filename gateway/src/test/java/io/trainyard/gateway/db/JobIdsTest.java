package io.trainyard.gateway.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.HashSet;
import java.util.Random;
import org.junit.jupiter.api.Test;

class JobIdsTest {

  @Test
  void anIdIsALowerCaseUlid() {
    var id = JobIds.newId();

    assertThat(id).hasSize(26).matches("[0-9a-z]+").doesNotContainPattern("[ilou]");
    assertThat(JobIds.isValid(id)).isTrue();
    // Backend object names are ty-<id>-a<attempt>: a DNS-1035 label.
    assertThat("ty-" + id + "-a12").matches("[a-z]([-a-z0-9]*[a-z0-9])?").hasSizeLessThan(64);
  }

  @Test
  void theTimeComesFirstSoIdsSortByCreation() {
    var random = new Random(1);
    var earlier = JobIds.newId(Instant.parse("2025-01-01T00:00:00.000Z").toEpochMilli(), random);
    var later = JobIds.newId(Instant.parse("2025-01-01T00:00:00.001Z").toEpochMilli(), random);

    assertThat(earlier).isLessThan(later);
    assertThat(earlier.substring(0, 10)).isEqualTo("01jgfjjz00");
    assertThat(JobIds.newId(0, random)).startsWith("0000000000");
    assertThat(JobIds.newId((1L << 48) - 1, random)).startsWith("7zzzzzzzzz");
    assertThatThrownBy(() -> JobIds.newId(1L << 48, random))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void allEightyRandomBitsAreUsed() {
    var ones = new byte[10];
    java.util.Arrays.fill(ones, (byte) 0xff);
    Random allOnes =
        new Random() {
          @Override
          public void nextBytes(byte[] bytes) {
            System.arraycopy(ones, 0, bytes, 0, bytes.length);
          }
        };
    assertThat(JobIds.newId(0, allOnes)).endsWith("z".repeat(16));
    var seen = new HashSet<String>();
    for (int i = 0; i < 10_000; i++) {
      seen.add(JobIds.newId());
    }
    assertThat(seen).hasSize(10_000);
  }

  @Test
  void isValidRefusesWhatNewIdNeverMakes() {
    assertThat(JobIds.isValid(null)).isFalse();
    assertThat(JobIds.isValid("01JGFJ8G000000000000000000")).isFalse();
    assertThat(JobIds.isValid("01jgfj8g00000000000000000")).isFalse();
    assertThat(JobIds.isValid("81jgfj8g000000000000000000")).isFalse();
    assertThat(JobIds.isValid("01jgfj8g00000000000000000u")).isFalse();
  }
}
