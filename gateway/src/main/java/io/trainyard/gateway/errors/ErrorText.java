package io.trainyard.gateway.errors;

import io.trainyard.spi.spec.FieldError;
import java.util.List;

/**
 * Makes a caller-supplied value safe to answer in an error: messages and field paths quote what was
 * sent (a label key, a name), which can hold control characters, lone UTF-16 surrogates (which no
 * UTF-8 encoder can write, so the answer itself would fail) or 20,000 characters. Those are written
 * as {@code \\uXXXX} escapes and long texts are cut.
 */
final class ErrorText {
  static final int MAX_CHARS = 300;

  private ErrorText() {}

  static String printable(String text) {
    if (text == null) {
      return null;
    }
    var out = new StringBuilder(Math.min(text.length(), MAX_CHARS) + 16);
    for (int i = 0; i < text.length(); i++) {
      if (out.length() >= MAX_CHARS) {
        return out.append("... (").append(text.length()).append(" characters)").toString();
      }
      char c = text.charAt(i);
      var pair =
          Character.isHighSurrogate(c)
              && i + 1 < text.length()
              && Character.isLowSurrogate(text.charAt(i + 1));
      if (pair) {
        out.append(c).append(text.charAt(++i));
      } else if (Character.isSurrogate(c) || Character.isISOControl(c)) {
        out.append(String.format("\\u%04X", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  static List<FieldError> printable(List<FieldError> errors) {
    return errors.stream()
        .map(e -> new FieldError(printable(e.field()), printable(e.message())))
        .toList();
  }
}
