package io.trainyard.gateway.errors;

import io.trainyard.gateway.logging.LogEscape;
import io.trainyard.spi.spec.FieldError;
import java.util.List;

/**
 * Makes caller-supplied values safe to answer in an error: messages and field paths quote what was
 * sent (a label key, a name), which can hold control characters, lone UTF-16 surrogates (which no
 * UTF-8 encoder can write, so the answer itself would fail) or 20,000 characters; see {@link
 * LogEscape#printable}.
 */
final class ErrorText {
  private ErrorText() {}

  static String printable(String text) {
    return LogEscape.printable(text);
  }

  static List<FieldError> printable(List<FieldError> errors) {
    return errors.stream()
        .map(e -> new FieldError(printable(e.field()), printable(e.message())))
        .toList();
  }
}
