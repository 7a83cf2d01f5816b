package io.trainyard.spi.spec;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;

/** Parses the two unit formats of the spec: Kubernetes memory quantities and durations. */
public final class Quantities {
  private static final Pattern QUANTITY =
      Pattern.compile("([0-9]+(?:\\.[0-9]+)?)(Ki|Mi|Gi|Ti|Pi|k|K|M|G|T|P)?");
  private static final Pattern DURATION =
      Pattern.compile("(?:([0-9]+)d)?(?:([0-9]+)h)?(?:([0-9]+)m)?(?:([0-9]+)s)?");
  private static final Map<String, Long> UNITS =
      Map.ofEntries(
          Map.entry("Ki", 1L << 10),
          Map.entry("Mi", 1L << 20),
          Map.entry("Gi", 1L << 30),
          Map.entry("Ti", 1L << 40),
          Map.entry("Pi", 1L << 50),
          Map.entry("k", 1_000L),
          Map.entry("K", 1_000L),
          Map.entry("M", 1_000_000L),
          Map.entry("G", 1_000_000_000L),
          Map.entry("T", 1_000_000_000_000L),
          Map.entry("P", 1_000_000_000_000_000L));

  private Quantities() {}

  /**
   * Bytes of a quantity such as {@code 32Gi}, {@code 512M} or {@code 1073741824}.
   *
   * @throws IllegalArgumentException naming the expected format
   */
  public static long bytes(String quantity) {
    // The length is checked before the pattern and BigDecimal, whose costs grow with it.
    if (quantity != null && quantity.length() > InputLimits.MAX_QUANTITY_CHARS) {
      throw new IllegalArgumentException(
          "is longer than " + InputLimits.MAX_QUANTITY_CHARS + " characters");
    }
    var m = QUANTITY.matcher(quantity == null ? "" : quantity.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "'" + quantity + "' is not a memory quantity such as 512Mi, 32Gi or 1Ti");
    }
    var unit = m.group(2) == null ? 1L : UNITS.get(m.group(2));
    var bytes = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unit));
    if (bytes.compareTo(BigDecimal.valueOf(InputLimits.MAX_MEMORY_BYTES)) > 0) {
      throw new IllegalArgumentException("'" + quantity + "' is more than 1Ei");
    }
    return bytes.longValue();
  }

  /** GiB of a quantity, for comparing with instance shapes. */
  public static double gib(String quantity) {
    return bytes(quantity) / (double) (1L << 30);
  }

  /**
   * A duration such as {@code 6h}, {@code 90m}, {@code 1h30m} or {@code 45s}.
   *
   * @throws IllegalArgumentException naming the expected format
   */
  public static Duration duration(String text) {
    if (text != null && text.length() > InputLimits.MAX_QUANTITY_CHARS) {
      throw new IllegalArgumentException(
          "is longer than " + InputLimits.MAX_QUANTITY_CHARS + " characters");
    }
    var m = DURATION.matcher(text == null ? "" : text.trim());
    if (text == null || text.isBlank() || !m.matches()) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a duration such as 45s, 30m, 6h or 1h30m");
    }
    // Each part is bounded before it is added, so no sum can overflow Duration or a long.
    var seconds =
        part(m.group(1), 86_400)
            + part(m.group(2), 3_600)
            + part(m.group(3), 60)
            + part(m.group(4), 1);
    if (seconds > InputLimits.MAX_DURATION.getSeconds()) {
      throw new IllegalArgumentException(
          "'" + text + "' is longer than " + InputLimits.MAX_DURATION.toDays() + "d");
    }
    return Duration.ofSeconds(seconds);
  }

  /** Seconds of one part, or more than the limit (never an overflow) when it is out of range. */
  private static long part(String digits, long unitSeconds) {
    if (digits == null) {
      return 0;
    }
    var limit = InputLimits.MAX_DURATION.getSeconds();
    // 12 digits of days, hours, minutes or seconds already exceed the limit: stop there.
    digits = digits.replaceFirst("^0+(?=.)", "");
    if (digits.length() > 12) {
      return limit + 1;
    }
    return Math.min(Long.parseLong(digits) * unitSeconds, limit + 1);
  }
}
