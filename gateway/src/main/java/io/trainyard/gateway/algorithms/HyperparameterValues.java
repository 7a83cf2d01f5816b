package io.trainyard.gateway.algorithms;

import io.trainyard.spi.spec.InputLimits;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * Checks one hyperparameter value against its schema entry and spells it as a command-line
 * argument. Values arrive as JSON or YAML scalars; YAML 1.1 reads {@code 3e-5} (no dot) as a
 * string, so numbers written as numeric strings are accepted for {@code int} and {@code float}.
 */
final class HyperparameterValues {
  private HyperparameterValues() {}

  /**
   * The value in its stored form: a {@code Long} (int), {@code Double} (float), {@code Boolean}
   * (bool) or {@code String} (string, enum).
   *
   * @throws IllegalArgumentException saying what is wrong with it, as a field error's message
   */
  static Object checked(HyperparameterSpec spec, Object value) {
    if (value == null) {
      throw new IllegalArgumentException("must not be null");
    }
    return switch (spec.type()) {
      case INT -> inRange(spec, whole(value));
      case FLOAT -> inRange(spec, decimal(value));
      case BOOL -> bool(value);
      case STRING -> {
        if (!(value instanceof String s)) {
          throw new IllegalArgumentException("must be a string");
        }
        yield s;
      }
      case ENUM -> {
        if (!(value instanceof String s) || !spec.values().contains(s)) {
          throw new IllegalArgumentException("must be one of " + String.join(", ", spec.values()));
        }
        yield s;
      }
    };
  }

  /**
   * {@code --name=value}: how Vertex AI custom jobs and SageMaker script mode hand hyperparameters
   * to training code (SageMaker passes each as {@code --name value} to the entry point; Vertex AI
   * hyperparameter tuning appends {@code --name=value} to the container's args), so argparse-style
   * code reads them unchanged on every backend.
   */
  static String argument(String name, Object checked) {
    return "--" + name + "=" + checked;
  }

  private static Long whole(Object value) {
    BigDecimal number = number(value, "a whole number");
    try {
      return number.toBigIntegerExact().longValueExact();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          "must be a whole number between " + Long.MIN_VALUE + " and " + Long.MAX_VALUE);
    }
  }

  private static Double decimal(Object value) {
    var d = number(value, "a number").doubleValue();
    if (Double.isInfinite(d)) {
      throw new IllegalArgumentException("is out of range for a float");
    }
    return d;
  }

  private static BigDecimal number(Object value, String what) {
    var n = unbounded(value, what);
    // 1e999999999 as a whole number would be a billion digits: refused before it is spelled out.
    if (!InputLimits.inRange(n)) {
      throw new IllegalArgumentException(
          "is out of range: a number's magnitude must lie between 1e-"
              + InputLimits.MAX_EXPONENT
              + " and 1e"
              + InputLimits.MAX_EXPONENT);
    }
    return n;
  }

  private static BigDecimal unbounded(Object value, String what) {
    if (value instanceof BigDecimal d) {
      return d;
    }
    if (value instanceof BigInteger i) {
      return new BigDecimal(i);
    }
    if (value instanceof Double || value instanceof Float) {
      var d = ((Number) value).doubleValue();
      if (Double.isNaN(d) || Double.isInfinite(d)) {
        throw new IllegalArgumentException("must be " + what);
      }
      return BigDecimal.valueOf(d);
    }
    if (value instanceof Number n) {
      return BigDecimal.valueOf(n.longValue());
    }
    // BigDecimal reads any script's digits; a number here is written in ASCII only.
    if (value instanceof String s
        && s.length() <= InputLimits.MAX_NUMBER_CHARS
        && s.chars().allMatch(c -> c < 0x80)) {
      try {
        return new BigDecimal(s.strip().replace("_", ""));
      } catch (NumberFormatException e) {
        // fall through
      }
    }
    throw new IllegalArgumentException("must be " + what);
  }

  private static Boolean bool(Object value) {
    if (value instanceof Boolean b) {
      return b;
    }
    if ("true".equals(value) || "false".equals(value)) {
      return Boolean.valueOf((String) value);
    }
    throw new IllegalArgumentException("must be true or false");
  }

  private static <T extends Number> T inRange(HyperparameterSpec spec, T value) {
    var v =
        value instanceof Double d ? BigDecimal.valueOf(d) : BigDecimal.valueOf(value.longValue());
    if (spec.min() != null && v.compareTo(spec.min()) < 0) {
      throw new IllegalArgumentException(
          "must be at least " + spec.min().toPlainString() + ", not " + value);
    }
    if (spec.max() != null && v.compareTo(spec.max()) > 0) {
      throw new IllegalArgumentException(
          "must be at most " + spec.max().toPlainString() + ", not " + value);
    }
    return value;
  }
}
