package io.trainyard.gateway.logging;

/**
 * Makes a value that a caller chose safe to put in a log line: CR, LF and every other control or
 * line-separator character become visible escapes ({@code \r}, {@code \n}, {@code \u2028}), a
 * backslash is doubled so an escape cannot be faked, and long values are cut. Without it an
 * unauthenticated caller could end a log line and forge the next one through a token's {@code kid}
 * or {@code typ} header, a path or a name (issue #13).
 */
public final class LogEscape {
  /** The most characters of one value that reach a log line. */
  public static final int MAX_CHARS = 300;

  private LogEscape() {}

  /** {@code value} escaped for one log line; "null" for null. */
  public static String of(Object value) {
    return value == null ? "null" : escape(value.toString(), true);
  }

  /**
   * {@code text} as an answer to the caller may quote it (an error's message or field path): the
   * same escapes and cut, except backslashes, which JSON encodes itself. A lone surrogate would
   * otherwise make the answer unwritable in UTF-8. Null stays null.
   */
  public static String printable(String text) {
    return text == null ? null : escape(text, false);
  }

  private static String escape(String text, boolean backslashes) {
    var out = new StringBuilder(Math.min(text.length(), MAX_CHARS) + 16);
    int i = 0;
    for (; i < text.length() && out.length() < MAX_CHARS; i++) {
      char c = text.charAt(i);
      switch (c) {
        case '\r' -> out.append("\\r");
        case '\n' -> out.append("\\n");
        case '\t' -> out.append("\\t");
        case '\\' -> out.append(backslashes ? "\\\\" : "\\");
        default -> {
          if (c < 0x20
              || (c >= 0x7f && c <= 0x9f)
              || c == '\u2028'
              || c == '\u2029'
              // Bidirectional overrides and isolates: they make a line read as something else.
              || (c >= '\u202a' && c <= '\u202e')
              || (c >= '\u2066' && c <= '\u2069')
              || Character.isSurrogate(c) && !pairedAt(text, i)) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    if (i < text.length()) {
      out.append("…(+").append(text.length() - i).append(" chars)");
    }
    return out.toString();
  }

  /**
   * A stand-in for {@code error} to log with its stack trace: the same frames and causes, with each
   * message escaped, since exception messages often quote the input that caused them.
   */
  public static Throwable throwable(Throwable error) {
    return escaped(error, 0);
  }

  private static Throwable escaped(Throwable error, int depth) {
    if (error == null || depth > 8) {
      return null;
    }
    var copy =
        new Escaped(
            error.getClass().getName() + ": " + of(error.getMessage()),
            escaped(error.getCause(), depth + 1));
    copy.setStackTrace(error.getStackTrace());
    return copy;
  }

  private static boolean pairedAt(String text, int i) {
    char c = text.charAt(i);
    if (Character.isHighSurrogate(c)) {
      return i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1));
    }
    return i > 0 && Character.isHighSurrogate(text.charAt(i - 1));
  }

  /** An exception as logged: its class named in the message, which is escaped. */
  private static final class Escaped extends RuntimeException {
    Escaped(String message, Throwable cause) {
      super(message, cause, false, true);
    }
  }
}
