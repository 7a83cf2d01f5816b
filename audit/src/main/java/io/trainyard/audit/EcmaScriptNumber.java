package io.trainyard.audit;

import com.fasterxml.jackson.core.io.schubfach.DoubleToDecimal;
import java.math.BigDecimal;

/**
 * Formats a double as ECMAScript's {@code Number.prototype.toString} does (ECMA-262
 * Number::toString), which RFC 8785 section 3.2.2.3 requires for canonical JSON numbers.
 *
 * <p>Java 17's {@code Double.toString} is not always the shortest round-tripping form (JDK-4511638,
 * fixed only in Java 19) and uses a different exponent style, so the digits come from Jackson's
 * Schubfach implementation and are laid out here as ECMAScript does. Integers below 2^53, the
 * common case in audit records, take a fast path.
 */
public final class EcmaScriptNumber {
  private static final double EXACT_INTEGER_LIMIT = 9007199254740992.0; // 2^53

  private EcmaScriptNumber() {}

  /**
   * @throws IllegalArgumentException for NaN and infinities, which JSON cannot carry
   */
  public static String format(double value) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      throw new IllegalArgumentException("JSON has no " + value);
    }
    if (value == 0) {
      return "0"; // also for -0, as ECMAScript prints it
    }
    if (Math.abs(value) < EXACT_INTEGER_LIMIT && value == Math.rint(value)) {
      return Long.toString((long) value);
    }
    var shortest = shortestDecimal(Math.abs(value));
    return (value < 0 ? "-" : "") + layout(shortest.digits(), shortest.exponent());
  }

  /**
   * Whether {@code literal} is exactly how {@link #format} prints the double it reads as: the one
   * canonical RFC 8785 spelling of that number. Any other text, including what is not a JSON number
   * at all ({@code +1}, {@code 0x10}, {@code Infinity}), is not.
   */
  public static boolean isCanonical(String literal) {
    double value;
    try {
      value = Double.parseDouble(literal);
    } catch (NumberFormatException e) {
      return false;
    }
    // format never prints what parseDouble reads leniently (signs, suffixes, hex, whitespace), so
    // comparing with it refuses those too.
    return !Double.isNaN(value) && !Double.isInfinite(value) && format(value).equals(literal);
  }

  /**
   * Significant digits without leading or trailing zeros, and n such that the value is {@code
   * 0.digits × 10^n}.
   */
  private record Decimal(String digits, int exponent) {
    /** From Java's spelling, e.g. {@code 123.45}, {@code 0.00123} or {@code 1.2345E-7}. */
    static Decimal parseJava(String text) {
      int e = text.indexOf('E');
      var mantissa = e < 0 ? text : text.substring(0, e);
      int exponent = e < 0 ? 0 : Integer.parseInt(text.substring(e + 1));
      int dot = mantissa.indexOf('.');
      var digits = dot < 0 ? mantissa : mantissa.substring(0, dot) + mantissa.substring(dot + 1);
      int n = (dot < 0 ? mantissa.length() : dot) + exponent;
      int first = 0;
      while (first < digits.length() - 1 && digits.charAt(first) == '0') {
        first++;
        n--;
      }
      int end = digits.length();
      while (end > first + 1 && digits.charAt(end - 1) == '0') {
        end--;
      }
      return new Decimal(digits.substring(first, end), n);
    }

    static Decimal of(BigDecimal value) {
      var stripped = value.stripTrailingZeros();
      var digits = stripped.unscaledValue().toString();
      return new Decimal(digits, digits.length() - stripped.scale());
    }
  }

  /**
   * The fewest-digit decimal that reads back as {@code positive}, the closest to it among those.
   *
   * <p>Jackson's copy of the Schubfach algorithm (the one Java 19 adopted for {@code
   * Double.toString}) finds exactly that, with one difference from ECMAScript: where a one-digit
   * decimal reads back, it may choose a closer two-digit one ({@code 4.9E-324} for ECMAScript's
   * {@code 5e-324}). So a two-digit answer is checked against the two one-digit decimals around it.
   */
  private static Decimal shortestDecimal(double positive) {
    var shortest = Decimal.parseJava(DoubleToDecimal.toString(positive));
    if (shortest.digits().length() == 2) {
      long floor = shortest.digits().charAt(0) - '0';
      // 0.d1d2 × 10^n: one-digit candidates are floor and floor+1 at scale 1 - n.
      var oneDigit = closestReadingBack(positive, 1 - shortest.exponent(), floor, floor + 1);
      if (oneDigit != null) {
        return Decimal.of(oneDigit);
      }
    }
    return shortest;
  }

  /** Of {@code candidates × 10^-scale}, the one closest to {@code positive} that reads back. */
  private static BigDecimal closestReadingBack(double positive, int scale, long... candidates) {
    BigDecimal best = null;
    BigDecimal exact = null;
    for (long candidate : candidates) {
      if (candidate <= 0) {
        continue;
      }
      var decimal = BigDecimal.valueOf(candidate, scale);
      if (Double.parseDouble(candidate + "E" + (-scale)) != positive) {
        continue;
      }
      if (best == null) {
        best = decimal;
      } else {
        exact = exact == null ? new BigDecimal(positive) : exact;
        best = closer(decimal, best, exact) ? decimal : best;
      }
    }
    return best == null ? null : best.stripTrailingZeros();
  }

  private static boolean closer(BigDecimal candidate, BigDecimal best, BigDecimal exact) {
    int c = candidate.subtract(exact).abs().compareTo(best.subtract(exact).abs());
    if (c != 0) {
      return c < 0;
    }
    return !candidate.unscaledValue().testBit(0); // a tie: the even digit string wins
  }

  /** ECMA-262 Number::toString steps 6 to 10, for digits s (k of them) and exponent n. */
  private static String layout(String digits, int n) {
    int k = digits.length();
    if (k <= n && n <= 21) {
      return digits + "0".repeat(n - k);
    }
    if (0 < n && n <= 21) {
      return digits.substring(0, n) + "." + digits.substring(n);
    }
    if (-6 < n && n <= 0) {
      return "0." + "0".repeat(-n) + digits;
    }
    int e = n - 1;
    var exponent = "e" + (e < 0 ? "-" : "+") + Math.abs(e);
    return k == 1 ? digits + exponent : digits.charAt(0) + "." + digits.substring(1) + exponent;
  }
}
