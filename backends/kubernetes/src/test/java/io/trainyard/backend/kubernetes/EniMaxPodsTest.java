package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.trainyard.cost.PriceCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Pods per EKS node from the instance's ENIs, capped as EKS does. Sources: eni-max-pods.txt of
 * awslabs/amazon-eks-ami (templates/shared/runtime, at 0254c5b4) for the ENI column, the rule
 * {@code ENIs × (IPv4 per ENI − 1) + 2} with EC2's ENI limits
 * (docs.aws.amazon.com/AWSEC2/latest/UserGuide/using-eni.html#AvailableIpPerENI), and
 * max-pods-calculator.sh of the same repository for the caps (110 at 30 vCPUs or fewer, else 250).
 */
class EniMaxPodsTest {

  @ParameterizedTest(name = "{0} ({1} vCPUs): {2} by ENIs → {3} pods")
  @CsvSource({
    // type, vCPUs, eni-max-pods.txt, expected, how
    "m5.2xlarge,   8,  58,  58, 4 ENIs × (15 − 1) + 2; under the 110 cap",
    "m5.4xlarge,   16, 234, 110, 8 ENIs × (30 − 1) + 2 = 234; 16 vCPUs → capped at 110",
    "c5.4xlarge,   16, 234, 110, 8 × 29 + 2; capped at 110",
    "g4dn.xlarge,  4,  29,  29, 3 ENIs × (10 − 1) + 2",
    "g4dn.12xlarge, 48, 234, 234, over 30 vCPUs: the 250 cap does not bite",
    "g5.xlarge,    4,  58,  58, 4 × 14 + 2",
    "g5.2xlarge,   8,  58,  58, 4 × 14 + 2",
    "g5.12xlarge,  48, 737, 250, 15 ENIs × 49 + 2 = 737; capped at 250",
    "g5.48xlarge,  192, 345, 250, capped at 250",
    "g6.xlarge,    4,  58,  58, 4 × 14 + 2",
    "p3.2xlarge,   8,  58,  58, 4 × 14 + 2",
    "p3.8xlarge,   32, 234, 234, 8 × 29 + 2",
    "p3.16xlarge,  64, 234, 234, 8 × 29 + 2",
    "p4d.24xlarge, 96, 737, 250, 15 × 49 + 2 = 737 on network card 0; capped at 250",
    "p5.48xlarge,  192, 100, 100, network card 0 only (the file's note on multi-card types)",
  })
  void theCatalogsInstanceTypesGetTheirEniLimitCapped(
      String type, double vcpus, int byEni, int expected, String how) {
    assertThat(EniMaxPods.BY_ENI.get(type)).as(how).isEqualTo(byEni);
    assertThat(EniMaxPods.of(type, vcpus)).hasValue(expected);
  }

  @Test
  void everyEc2TypeOfTheEmbeddedCatalogIsInTheTable() {
    var catalog = PriceCatalog.embedded();
    var missing =
        catalog.rows().stream()
            .filter(r -> r.provider().equals("aws") && r.service().equals("ec2"))
            .map(r -> r.instanceType())
            .filter(t -> !EniMaxPods.BY_ENI.containsKey(t))
            .distinct()
            .toList();
    assertThat(missing).isEmpty();
  }

  @Test
  void aTypeNotInTheTableGetsTheKubeletDefaultAndThePoolsMaxPodsWins() {
    assertThat(EniMaxPods.of("x9.huge", 8)).isEmpty();
    var unknown = pool("x9.huge", null);
    assertThat(NodeReserve.maxPods(unknown, "aws", 8)).isEqualTo(110);
    assertThat(NodeReserve.maxPods(pool("m5.2xlarge", null), "aws", 8)).isEqualTo(58);
    assertThat(NodeReserve.maxPods(pool("m5.2xlarge", 20), "aws", 8)).isEqualTo(20);
    // A small instance keeps less memory back: 255 + 11 × 29 + 100 MiB, not 255 + 11 × 110 + 100.
    var small =
        NodeReserve.kubelet("aws", 4, 16, NodeReserve.maxPods(pool("g4dn.xlarge", null), "aws", 4));
    assertThat(small.memoryGiB()).isCloseTo((255 + 11 * 29 + 100) / 1024.0, within(1e-9));
  }

  private static NodePool pool(String type, Integer maxPods) {
    return new NodePool(
        "p", type, null, null, null, null, null, null, 1, null, null, null, null, maxPods, null);
  }
}
