package io.trainyard.backend.kubernetes;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;

/** How numbers read in reasons and notes: {@code 8}, not {@code 8.0}; at most two decimals. */
final class Wording {
  private Wording() {}

  static String text(double d) {
    return BigDecimal.valueOf(d)
        .setScale(2, RoundingMode.HALF_UP)
        .stripTrailingZeros()
        .toPlainString();
  }

  /** {@code 10m}, {@code 1h30m}, {@code 45s}: durations as the configuration writes them. */
  static String duration(Duration d) {
    if (d.isZero()) {
      return "0s";
    }
    var text = new StringBuilder();
    long seconds = d.getSeconds();
    long[] units = {86_400, 3_600, 60, 1};
    String[] names = {"d", "h", "m", "s"};
    for (int i = 0; i < units.length; i++) {
      if (seconds >= units[i]) {
        text.append(seconds / units[i]).append(names[i]);
        seconds %= units[i];
      }
    }
    return text.length() == 0 ? d.toMillis() + "ms" : text.toString();
  }
}
