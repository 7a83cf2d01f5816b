package io.trainyard.kubeflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.trainyard.spi.spec.KubernetesQuantities;
import java.math.BigDecimal;
import java.util.Optional;

/**
 * Kubernetes resource quantities ({@code 500m}, {@code 8}, {@code 32Gi}, {@code 1e3}) as exact
 * numbers ({@link KubernetesQuantities}), and the forms this module writes them back in.
 */
final class KubernetesQuantity {
  private KubernetesQuantity() {}

  /** The value of a quantity node (a number or a string), or empty when it is not a quantity. */
  static Optional<BigDecimal> value(JsonNode node) {
    if (node == null) {
      return Optional.empty();
    }
    return node.isNumber()
        ? KubernetesQuantities.value(node.decimalValue())
        : node.isTextual() ? KubernetesQuantities.value(node.textValue()) : Optional.empty();
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
