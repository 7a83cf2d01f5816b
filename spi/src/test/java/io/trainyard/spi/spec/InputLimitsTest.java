package io.trainyard.spi.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class InputLimitsTest {
  @ParameterizedTest
  @ValueSource(
      strings = {"9223372036854775807d", "106751991167301d", "3651d", "87601h", "999999999999999s"})
  void durationsBeyondTenYearsAreRefusedWithoutOverflow(String text) {
    assertThatThrownBy(() -> Quantities.duration(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("longer than 3650d");
  }

  @ParameterizedTest
  @CsvSource({"3650d,315360000", "1h30m,5400", "0005s,5", "0s,0"})
  void durationsWithinTheLimitRead(String text, long seconds) {
    assertThat(Quantities.duration(text)).isEqualTo(Duration.ofSeconds(seconds));
  }

  @ParameterizedTest
  @ValueSource(strings = {"9999999999999Pi", "2Ei0", "1025Pi"})
  void memoryBeyondAnExbibyteIsRefused(String quantity) {
    assertThatThrownBy(() -> Quantities.bytes(quantity))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @org.junit.jupiter.api.Test
  void aLongQuantityIsRefusedByItsLength() {
    assertThatThrownBy(() -> Quantities.bytes("9".repeat(65)))
        .hasMessageContaining("longer than 64 characters");
    assertThatThrownBy(() -> Quantities.duration("1".repeat(65) + "s"))
        .hasMessageContaining("longer than 64 characters");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "1e999999999|out of range",
        "1e-31|out of range",
        "1e31|out of range",
        ".inf|finite",
        "-.Inf|finite",
        ".NaN|finite",
        "12345678901234567890123456789012345678901|more than 40 characters"
      })
  void numberTokensOutOfBoundsAreNamed(String token, String problem) {
    assertThat(InputLimits.numberProblem(token)).contains(problem);
  }

  @ParameterizedTest
  @ValueSource(strings = {"0", "1e30", "1e-30", "0.000", "-5", "0x1F", "1_000", "87600.5"})
  void numberTokensWithinBoundsPass(String token) {
    assertThat(InputLimits.numberProblem(token)).isNull();
  }

  @org.junit.jupiter.api.Test
  void textRefusesNulControlsAndLoneSurrogatesButKeepsScriptsAndEmoji() {
    assertThat(InputLimits.textProblem("a\u0000b", true)).contains("NUL");
    assertThat(InputLimits.textProblem("\u001b[0m", true)).contains("U+001B");
    assertThat(InputLimits.textProblem("\u0085", true)).contains("U+0085");
    assertThat(InputLimits.textProblem("x\ud800", true)).contains("surrogate");
    assertThat(InputLimits.textProblem("\udc00x", true)).contains("surrogate");
    assertThat(InputLimits.textProblem("a\nb", false)).contains("U+000A");
    assertThat(InputLimits.textProblem("import os\n\tprint(1)\r\n", true)).isNull();
    assertThat(InputLimits.textProblem("caf\u00e9 \ud83d\ude80", false)).isNull();
  }
}
