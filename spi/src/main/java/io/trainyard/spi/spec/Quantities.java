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
    var m = QUANTITY.matcher(quantity == null ? "" : quantity.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "'" + quantity + "' is not a memory quantity such as 512Mi, 32Gi or 1Ti");
    }
    var unit = m.group(2) == null ? 1L : UNITS.get(m.group(2));
    return new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unit)).longValue();
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
    var m = DURATION.matcher(text == null ? "" : text.trim());
    if (text == null || text.isBlank() || !m.matches()) {
      throw new IllegalArgumentException(
          "'" + text + "' is not a duration such as 45s, 30m, 6h or 1h30m");
    }
    var d = Duration.ZERO;
    d = d.plusDays(group(m.group(1)));
    d = d.plusHours(group(m.group(2)));
    d = d.plusMinutes(group(m.group(3)));
    return d.plusSeconds(group(m.group(4)));
  }

  private static long group(String g) {
    return g == null ? 0 : Long.parseLong(g);
  }
}
