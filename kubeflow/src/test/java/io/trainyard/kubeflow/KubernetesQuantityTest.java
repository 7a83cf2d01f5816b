package io.trainyard.kubeflow;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.math.BigDecimal;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KubernetesQuantityTest {
  @ParameterizedTest
  @CsvSource({
    "500m, 0.5",
    "8, 8",
    "1.5, 1.5",
    "32Gi, 34359738368",
    "1k, 1000",
    "1e3, 1000",
    "2E-3, 0.002",
    "100n, 0.0000001",
    ".5, 0.5",
    // Exa and exbi: a suffix, not an exponent (these answered 500).
    "1E, 1000000000000000000",
    "+1E, 1000000000000000000",
    ".5E, 500000000000000000",
    "1Ei, 1152921504606846976",
    "0.5Ei, 576460752303423488",
    "1E3, 1000"
  })
  void readsKubernetesQuantities(String text, String value) {
    assertThat(KubernetesQuantity.value(TextNode.valueOf(text)))
        .hasValueSatisfying(v -> assertThat(v).isEqualByComparingTo(new BigDecimal(value)));
  }

  @ParameterizedTest
  @CsvSource({"lots", "1.5.2", "Gi", "1 Gi", "0x10"})
  void refusesWhatIsNoQuantity(String text) {
    assertThat(KubernetesQuantity.value(TextNode.valueOf(text))).isEmpty();
  }

  @ParameterizedTest
  @CsvSource({"16, 16", "0.5, 500m", "0.25, 250m", "2.5, 2500m", "0.0005, 0.0005"})
  void writesCpusAsKubernetesDoes(double cpus, String written) {
    var node = KubernetesQuantity.cpu(cpus);
    if (node instanceof IntNode) {
      assertThat(node.asText()).isEqualTo(written);
    } else {
      assertThat(node.textValue()).isEqualTo(written);
    }
  }
}
