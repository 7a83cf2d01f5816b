package io.trainyard.spi.spec;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Kubernetes resource quantities in their whole grammar ({@code 500m}, {@code 8}, {@code 1.5Gi},
 * {@code 129e6}, {@code 1Ei}), as exact numbers: what a pod-spec field of type {@code Quantity}
 * holds. {@link Quantities#bytes} reads only the spec's own memory format, which is narrower.
 * Bounded as the spec's other numbers are: the length is checked before anything is parsed, an
 * exponent beyond {@link InputLimits#MAX_EXPONENT} is refused before it is applied, and a value
 * beyond 1e±(30 + 18) (an exa suffix on the largest number) is no quantity. The grammar is the one
 * the Kubeflow operators' CRDs check quantities against. Stateless.
 */
public final class KubernetesQuantities {
  private static final Pattern QUANTITY =
      Pattern.compile(
          "([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))"
              + "(Ki|Mi|Gi|Ti|Pi|Ei|[numkMGTPE]|[eE][+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+))?");
  private static final Map<String, BigDecimal> SUFFIXES =
      Map.ofEntries(
          Map.entry("n", new BigDecimal("1e-9")),
          Map.entry("u", new BigDecimal("1e-6")),
          Map.entry("m", new BigDecimal("1e-3")),
          Map.entry("k", new BigDecimal("1e3")),
          Map.entry("M", new BigDecimal("1e6")),
          Map.entry("G", new BigDecimal("1e9")),
          Map.entry("T", new BigDecimal("1e12")),
          Map.entry("P", new BigDecimal("1e15")),
          Map.entry("E", new BigDecimal("1e18")),
          Map.entry("Ki", BigDecimal.valueOf(1L << 10)),
          Map.entry("Mi", BigDecimal.valueOf(1L << 20)),
          Map.entry("Gi", BigDecimal.valueOf(1L << 30)),
          Map.entry("Ti", BigDecimal.valueOf(1L << 40)),
          Map.entry("Pi", BigDecimal.valueOf(1L << 50)),
          Map.entry("Ei", BigDecimal.valueOf(1L << 60)));
  private static final int MAX_MAGNITUDE = InputLimits.MAX_EXPONENT + 18;

  private KubernetesQuantities() {}

  /**
   * The value of a quantity as a document holds it (a string, or a number, which Kubernetes also
   * reads as a quantity), or empty when it is not one.
   */
  public static Optional<BigDecimal> value(Object node) {
    if (node instanceof Integer || node instanceof Long || node instanceof Short) {
      return Optional.of(BigDecimal.valueOf(((Number) node).longValue()));
    }
    if (node instanceof BigInteger i) {
      return bounded(new BigDecimal(i));
    }
    if (node instanceof BigDecimal d) {
      return bounded(d);
    }
    if (node instanceof Double || node instanceof Float) {
      var d = ((Number) node).doubleValue();
      return Double.isFinite(d) ? bounded(BigDecimal.valueOf(d)) : Optional.empty();
    }
    if (!(node instanceof String text) || text.length() > InputLimits.MAX_QUANTITY_CHARS) {
      return Optional.empty(); // the length first: BigDecimal's parsing grows with the digits
    }
    var m = QUANTITY.matcher(text);
    if (!m.matches()) {
      return Optional.empty();
    }
    var number = new BigDecimal(m.group(1));
    var suffix = m.group(2);
    if (suffix == null) {
      return bounded(number);
    }
    var scale = SUFFIXES.get(suffix); // first: E and Ei are exa and exbi, not exponents
    if (scale != null) {
      return bounded(number.multiply(scale));
    }
    // An exponent: checked before scaling: 1e999999999 would otherwise print as a billion digits.
    var exponent = new BigDecimal(suffix.substring(1));
    if (exponent.abs().compareTo(BigDecimal.valueOf(InputLimits.MAX_EXPONENT)) > 0
        || exponent.stripTrailingZeros().scale() > 0) {
      return Optional.empty();
    }
    return bounded(number.scaleByPowerOfTen(exponent.intValueExact()));
  }

  private static Optional<BigDecimal> bounded(BigDecimal value) {
    if (value.signum() == 0) {
      return Optional.of(value);
    }
    long exponent = (long) value.precision() - value.scale() - 1;
    return Math.abs(exponent) > MAX_MAGNITUDE ? Optional.empty() : Optional.of(value);
  }
}
