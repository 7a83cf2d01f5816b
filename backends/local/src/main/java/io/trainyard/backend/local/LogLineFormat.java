package io.trainyard.backend.local;

import io.trainyard.spi.LogLine;
import java.time.Instant;
import java.util.Locale;

/**
 * The replica log's line format, {@code <epoch seconds>.<microseconds> <text>}: what bash's {@code
 * $EPOCHREALTIME} gives the replica wrapper for free, without a process per line.
 */
final class LogLineFormat {
  private LogLineFormat() {}

  static String format(Instant at, String text) {
    return at.getEpochSecond()
        + "."
        + String.format(Locale.ROOT, "%06d", at.getNano() / 1_000)
        + " "
        + text;
  }

  /** A raw line; one without a timestamp (e.g. from the wrapper itself) keeps a null time. */
  static LogLine parse(String replica, String raw) {
    int space = raw.indexOf(' ');
    if (space < 1) {
      return new LogLine(replica, null, raw);
    }
    var at = timestamp(raw.substring(0, space));
    return at == null
        ? new LogLine(replica, null, raw)
        : new LogLine(replica, at, raw.substring(space + 1));
  }

  // $EPOCHREALTIME uses the locale's decimal separator, so accept ',' as well as '.'.
  private static Instant timestamp(String token) {
    int dot = Math.max(token.indexOf('.'), token.indexOf(','));
    if (dot < 1 || dot == token.length() - 1 || token.length() > 30) {
      return null;
    }
    var seconds = token.substring(0, dot);
    var fraction = token.substring(dot + 1);
    if (!seconds.chars().allMatch(Character::isDigit)
        || !fraction.chars().allMatch(Character::isDigit)
        || fraction.length() > 9) {
      return null;
    }
    var nanos = Long.parseLong((fraction + "000000000").substring(0, 9));
    return Instant.ofEpochSecond(Long.parseLong(seconds), nanos);
  }
}
