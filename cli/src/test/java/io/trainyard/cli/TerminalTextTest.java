package io.trainyard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TerminalTextTest {
  @Test
  void printableTextAndTabsAreLeftAsTheyAre() {
    var line = "épоch 1\tloss 0.52 — 73% |█████▍    | 日本語";
    assertThat(TerminalText.visible(line)).isSameAs(line);
  }

  @Test
  void aTreeHasEveryTextValueShownAtAnyDepth() throws Exception {
    var json = new com.fasterxml.jackson.databind.ObjectMapper();
    var tree =
        json.readTree(
            "{\"reason\": \"exit 1; last lines:\\nboom\\u001b[2J\", \"n\": 3,"
                + " \"events\": [{\"message\": \"\\u202eevil\"}, \"ok\"]}");

    var shown = TerminalText.visibleTree(tree);

    assertThat(shown.path("reason").asText()).isEqualTo("exit 1; last lines:\nboom^[[2J");
    assertThat(shown.path("events").get(0).path("message").asText()).isEqualTo("<U+202E>evil");
    assertThat(shown.path("events").get(1).asText()).isEqualTo("ok");
    assertThat(shown.path("n").asInt()).isEqualTo(3);
  }

  @Test
  void escapeSequencesAreShownNotObeyed() {
    // OSC 52 (set the clipboard), a colour, a cursor move up and a line erase.
    assertThat(TerminalText.visible("a\u001b]52;c;cm0gLXJmIH4=\u0007b"))
        .isEqualTo("a^[]52;c;cm0gLXJmIH4=^Gb");
    assertThat(TerminalText.visible("\u001b[31mred\u001b[0m \u001b[1A\u001b[2K"))
        .isEqualTo("^[[31mred^[[0m ^[[1A^[[2K");
  }

  @Test
  void everyOtherControlCharacterIsShownToo() {
    assertThat(TerminalText.visible("10%\r100%")).isEqualTo("10%^M100%");
    assertThat(TerminalText.visible("\u0000\u0008\u007f")).isEqualTo("^@^H^?");
    // A line feed stays: a failure reason's last lines of output are shown one per line.
    assertThat(TerminalText.visible("a\nb")).isEqualTo("a\nb");
    // C1 controls: U+009B is a one-character CSI on some terminals.
    assertThat(TerminalText.visible("x\u009b31my\u0085")).isEqualTo("x<U+009B>31my<U+0085>");
  }

  @Test
  void bidirectionalControlsAreShownSoTheLineReadsInItsOwnOrder() {
    assertThat(TerminalText.visible("ok \u202eexe.txt\u202c \u2066x\u2069"))
        .isEqualTo("ok <U+202E>exe.txt<U+202C> <U+2066>x<U+2069>");
  }
}
