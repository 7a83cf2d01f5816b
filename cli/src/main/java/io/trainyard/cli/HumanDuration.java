package io.trainyard.cli;

import java.time.Duration;
import java.util.regex.Pattern;

/** Durations as people type and read them: {@code 90s}, {@code 10m}, {@code 1h30m}. */
final class HumanDuration {
  private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h|d)");
  private static final Pattern WHOLE = Pattern.compile("(?:\\d+(?:ms|s|m|h|d))+");

  private HumanDuration() {}

  /**
   * Parses {@code 30s}, {@code 10m}, {@code 1h30m}, {@code 2d}, or a bare number of seconds.
   *
   * @throws IllegalArgumentException if the text is none of these
   */
  static Duration parse(String text) {
    String value = text.strip().toLowerCase(java.util.Locale.ROOT);
    if (value.matches("\\d+")) {
      return Duration.ofSeconds(Long.parseLong(value));
    }
    if (!WHOLE.matcher(value).matches()) {
      throw new IllegalArgumentException("not a duration: '" + text + "' (try 30s, 10m, 1h30m)");
    }
    var total = Duration.ZERO;
    var parts = PART.matcher(value);
    while (parts.find()) {
      long amount = Long.parseLong(parts.group(1));
      total =
          total.plus(
              switch (parts.group(2)) {
                case "ms" -> Duration.ofMillis(amount);
                case "s" -> Duration.ofSeconds(amount);
                case "m" -> Duration.ofMinutes(amount);
                case "h" -> Duration.ofHours(amount);
                default -> Duration.ofDays(amount);
              });
    }
    return total;
  }

  /**
   * Two units at most, the way a table column wants it: {@code 42s}, {@code 3m07s}, {@code 2h05m}.
   */
  static String format(Duration duration) {
    long seconds = Math.max(0, duration.toSeconds());
    long millis = Math.max(0, duration.toMillis());
    if (seconds < 10 && millis % 1000 != 0) {
      // Short jobs (the demo's) read better with a tenth: "1.3s", not "1s".
      return String.format(java.util.Locale.ROOT, "%.1fs", millis / 1000.0);
    }
    if (seconds < 60) {
      return seconds + "s";
    }
    if (seconds < 3600) {
      return String.format("%dm%02ds", seconds / 60, seconds % 60);
    }
    if (seconds < 86_400) {
      return String.format("%dh%02dm", seconds / 3600, seconds % 3600 / 60);
    }
    return String.format("%dd%02dh", seconds / 86_400, seconds % 86_400 / 3600);
  }
}
