package io.trainyard.kubeflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.trainyard.spi.spec.InputLimits;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Kubernetes resource quantities ({@code 500m}, {@code 8}, {@code 32Gi}, {@code 1e3}) as exact
 * numbers, and the forms this module writes them back in. The grammar is the one the operator's
 * CRDs check quantities against.
 */
final class KubernetesQuantity {
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

  private KubernetesQuantity() {}

  /** The value of a quantity node (a number or a string), or empty when it is not a quantity. */
  static Optional<BigDecimal> value(JsonNode node) {
    if (node == null) {
      return Optional.empty();
    }
    if (node.isNumber()) {
      return bounded(node.decimalValue());
    }
    // The length first: BigDecimal's parsing is quadratic in the digits (900,000 took 25 s).
    if (!node.isTextual() || node.textValue().length() > InputLimits.MAX_QUANTITY_CHARS) {
      return Optional.empty();
    }
    var m = QUANTITY.matcher(node.textValue());
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

  /** Quantities beyond 1e±30 (plus a suffix's 1e18) are refused as not being quantities. */
  private static Optional<BigDecimal> bounded(BigDecimal value) {
    if (value.signum() == 0) {
      return Optional.of(value);
    }
    long exponent = (long) value.precision() - value.scale() - 1;
    return Math.abs(exponent) > InputLimits.MAX_EXPONENT + 18
        ? Optional.empty()
        : Optional.of(value);
  }

  /** The text of a quantity node, as the spec keeps memory ({@code 32Gi}, or bytes as digits). */
  static String text(JsonNode node) {
    return node.isTextual() ? node.textValue() : node.decimalValue().toPlainString();
  }

  /** CPUs as Kubernetes writes them: whole cores as a number, fractions in millicores. */
  static JsonNode cpu(double cpus) {
    var value = BigDecimal.valueOf(cpus).stripTrailingZeros();
    if (value.scale() <= 0 && value.compareTo(BigDecimal.valueOf(Integer.MAX_VALUE)) <= 0) {
      return IntNode.valueOf(value.intValueExact());
    }
    var millis = value.movePointRight(3).stripTrailingZeros();
    return millis.scale() <= 0
        ? TextNode.valueOf(millis.toPlainString() + "m")
        : TextNode.valueOf(value.toPlainString());
  }
}
