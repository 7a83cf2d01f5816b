package io.trainyard.cli;

/**
 * Text from a job (its logs) made safe to print on a terminal. A job's output is whatever its code
 * wrote, and anyone allowed to read the job sees it: an escape sequence in it would act on the
 * reader's terminal (set the clipboard through OSC 52, retitle the window, move the cursor to
 * rewrite lines already shown), and a bidirectional override would reorder what the line seems to
 * say. Each such character is shown instead of obeyed: C0 controls but the tab and DEL in caret
 * notation ({@code ^[}, {@code ^M}, {@code ^?}, as {@code cat -v} shows them), C1 controls and the
 * bidirectional embedding, override and isolate characters as {@code <U+202E>}.
 */
final class TerminalText {
  private TerminalText() {}

  /** {@code line} with every character a terminal would act on shown as text. */
  static String visible(String line) {
    int first = 0;
    while (first < line.length() && !acts(line.charAt(first))) {
      first++;
    }
    if (first == line.length()) {
      return line;
    }
    var out = new StringBuilder(line.length() + 16).append(line, 0, first);
    for (int i = first; i < line.length(); i++) {
      char c = line.charAt(i);
      if (!acts(c)) {
        out.append(c);
      } else if (c < 0x20) {
        out.append('^').append((char) (c + 0x40));
      } else if (c == 0x7f) {
        out.append("^?");
      } else {
        out.append(String.format("<U+%04X>", (int) c));
      }
    }
    return out.toString();
  }

  private static boolean acts(char c) {
    return (c < 0x20 && c != '\t')
        || (c >= 0x7f && c <= 0x9f)
        || (c >= 0x202a && c <= 0x202e)
        || (c >= 0x2066 && c <= 0x2069);
  }
}
