package io.trainyard.spi.spec;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;

/**
 * The bounds every job document is held to, so that reading a value never costs more than its
 * bytes: a number or quantity is refused by its length and exponent before it is converted (a
 * five-character {@code 1e999999999} would otherwise expand to a billion digits), and a string that
 * a process, a log or a UTF-8 encoder cannot carry is refused at validation, not when a backend
 * first trips over it. The README's "Limits" section lists these. Stateless and thread-safe.
 */
public final class InputLimits {
  /** Characters of a number as written (digits, sign, point and exponent). */
  public static final int MAX_NUMBER_CHARS = 40;

  /** Decimal exponent of a number's magnitude: nothing in a job needs more than 1e30. */
  public static final int MAX_EXPONENT = 30;

  /** Characters of a quantity ({@code 32Gi}) or a duration ({@code 1h30m}) string. */
  public static final int MAX_QUANTITY_CHARS = 64;

  /** An image reference: registry, repository (255 at most), tag and digest with room to spare. */
  public static final int MAX_IMAGE_CHARS = 512;

  public static final Duration MAX_DURATION = Duration.ofDays(3650);
  public static final BigDecimal MAX_ESTIMATED_HOURS = BigDecimal.valueOf(87_600);
  public static final BigDecimal MAX_HOURLY_USD = BigDecimal.valueOf(100_000);
  public static final double MAX_CPUS = 10_000;

  /** 1 EiB: more memory than any machine has, and far from a long's overflow. */
  public static final long MAX_MEMORY_BYTES = 1L << 60;

  /** Field errors answered for one document; the rest are counted, not listed. */
  public static final int MAX_ERRORS = 100;

  private InputLimits() {}

  /**
   * Why a number token, as the document writes it, is refused, or null when it is acceptable.
   * Linear in the token's length, which is checked first.
   */
  public static String numberProblem(String token) {
    if (token.length() > MAX_NUMBER_CHARS) {
      return "is a number of more than " + MAX_NUMBER_CHARS + " characters";
    }
    var plain = token.replace("_", "");
    var lower = plain.toLowerCase(Locale.ROOT);
    if (lower.endsWith(".inf") || lower.endsWith(".nan") || lower.contains("infinity")) {
      return "must be a finite number";
    }
    try {
      var value = new BigDecimal(plain);
      if (!inRange(value)) {
        return "is out of range: a number's magnitude must lie between 1e-"
            + MAX_EXPONENT
            + " and 1e"
            + MAX_EXPONENT;
      }
    } catch (NumberFormatException e) {
      return null; // YAML's hex and octal integers: short, so harmless
    }
    return null;
  }

  /** True when a number is zero or its decimal exponent is within {@link #MAX_EXPONENT}. */
  public static boolean inRange(BigDecimal value) {
    if (value.signum() == 0) {
      return true;
    }
    // precision - scale - 1 is the exponent of the leading digit: 1e5 → 5, 0.001 → -3.
    long exponent = (long) value.precision() - value.scale() - 1;
    return Math.abs(exponent) <= MAX_EXPONENT;
  }

  /**
   * Why a string is refused, or null. Never accepted anywhere: NUL (a process's argument or
   * environment cannot hold it), other control characters, and lone UTF-16 surrogates (not Unicode,
   * so they cannot be encoded for the audit log or a backend). {@code multiline} fields (args, env
   * values, free-form trees) may hold tab, newline and carriage return: a {@code python -c} script
   * or a PEM certificate needs them.
   */
  public static String textProblem(String text, boolean multiline) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
          i++;
          continue;
        }
        return "holds a lone UTF-16 surrogate at character " + i + " (not valid Unicode)";
      }
      if (Character.isLowSurrogate(c)) {
        return "holds a lone UTF-16 surrogate at character " + i + " (not valid Unicode)";
      }
      if (c == 0) {
        return "holds a NUL character at character " + i;
      }
      if (Character.isISOControl(c) && !(multiline && (c == '\t' || c == '\n' || c == '\r'))) {
        return String.format(
            Locale.ROOT, "holds the control character U+%04X at character %d", (int) c, i);
      }
    }
    return null;
  }
}
