package io.trainyard.backend.local;

import io.trainyard.spi.LogLine;
import java.time.Instant;
import java.util.Locale;

/**
 * The replica log's line format, {@code <epoch seconds>.<microseconds> <text>}: what bash's {@code
 * $EPOCHREALTIME} gives the replica wrapper for free, without a process per line. The backend's own
 * notes have the same format with the text {@code [trainyard] <note>}, in a file of their own that
 * no replica can write (see {@link AttemptFiles#notesFile}); a line of the replica's own that looks
 * like a note is handed out marked as the job's ({@link #JOB_MARK}).
 */
final class LogLineFormat {
  /** How every line from the backend itself begins, and no line of a job's is served as. */
  static final String NOTE_PREFIX = "[trainyard]";

  /** Put before a job's line that would otherwise read as the backend's own note. */
  static final String JOB_MARK = "[job] ";

  private LogLineFormat() {}

  /**
   * A note of the backend's: one line whatever the text holds (a note may quote what a sandbox tool
   * or a replica wrote), so nothing in it can start a line of its own.
   */
  static String note(Instant at, String text) {
    return format(at, NOTE_PREFIX + " " + text.replaceAll("[\\p{Cc}\\u2028\\u2029]", "?"));
  }

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

  /**
   * A line of the replica's log, written by the job through its wrapper (or around it): one whose
   * text could pass for the backend's note (also behind blanks or invisible characters, in any
   * case) gets {@link #JOB_MARK} in front.
   */
  static LogLine parseJobLine(String replica, String raw) {
    var line = parse(replica, raw);
    return looksLikeNote(line.text())
        ? new LogLine(line.replica(), line.at(), JOB_MARK + line.text())
        : line;
  }

  static boolean looksLikeNote(String text) {
    int i = 0;
    while (i < text.length()) {
      int c = text.codePointAt(i);
      int type = Character.getType(c);
      if (!Character.isWhitespace(c)
          && !Character.isSpaceChar(c)
          && type != Character.FORMAT
          && type != Character.CONTROL) {
        break;
      }
      i += Character.charCount(c);
    }
    return text.regionMatches(true, i, NOTE_PREFIX, 0, NOTE_PREFIX.length());
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
