package io.trainyard.gateway.logging;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LogEscapeTest {
  @Test
  void lineBreaksAndControlCharactersBecomeVisibleEscapes() {
    assertThat(LogEscape.of("JWT\r\nERROR [2026-12-01] admin logged in"))
        .isEqualTo("JWT\\r\\nERROR [2026-12-01] admin logged in");
    assertThat(LogEscape.of("a\u2028b\u0085c\u0000d\te\u001b[31m"))
        .isEqualTo("a\\u2028b\\u0085c\\u0000d\\te\\u001b[31m");
    assertThat(LogEscape.of("kid\u202etxt.exe\u2066x")).isEqualTo("kid\\u202etxt.exe\\u2066x");
  }

  @Test
  void aBackslashIsDoubledSoAnEscapeCannotBeFaked() {
    assertThat(LogEscape.of("\\r\\n")).isEqualTo("\\\\r\\\\n");
  }

  @Test
  void ordinaryTextAndPairedSurrogatesStayAsTheyAre() {
    assertThat(LogEscape.of("job bert-imdb: épochs 🚂")).isEqualTo("job bert-imdb: épochs 🚂");
    assertThat(LogEscape.of("lone \ud800 half")).isEqualTo("lone \\ud800 half");
    assertThat(LogEscape.of(null)).isEqualTo("null");
  }

  @Test
  void longValuesAreCut() {
    var escaped = LogEscape.of("x".repeat(10_000));
    assertThat(escaped).startsWith("x".repeat(LogEscape.MAX_CHARS)).endsWith("…(+9700 chars)");
  }

  @Test
  void anExceptionKeepsItsFramesWithItsMessageEscaped() {
    var cause = new IllegalStateException("inner\nFORGED");
    var error = new IllegalArgumentException("env value a\r\nFORGED", cause);
    var logged = LogEscape.throwable(error);
    assertThat(logged.getMessage())
        .isEqualTo("java.lang.IllegalArgumentException: env value a\\r\\nFORGED");
    assertThat(logged.getCause().getMessage())
        .isEqualTo("java.lang.IllegalStateException: inner\\nFORGED");
    assertThat(logged.getStackTrace()).isEqualTo(error.getStackTrace());
  }
}
