package io.trainyard.gateway.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.dropwizard.jackson.Jackson;
import io.trainyard.spi.Placement;
import io.trainyard.spi.PlacementLine;
import java.math.BigDecimal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code routing:}: spot interruption rates per backend, refused by key when they are nonsense. */
class RoutingConfigTest {
  private static RoutingConfig bind(String yaml) throws Exception {
    return Jackson.newObjectMapper(new YAMLFactory()).readValue(yaml, RoutingConfig.class);
  }

  @Test
  void aBandOrAFractionPerBackendFeedsTheEstimate() throws Exception {
    var estimator =
        bind("spotInterruption: {eks: \">20%\", gke: \"0\"}\ncheckpointIntervalHours: 1\n")
            .estimator();
    var eks = estimator.estimate("eks", spot("eks"), BigDecimal.ONE, BigDecimal.TEN, false);
    var gke = estimator.estimate("gke", spot("gke"), BigDecimal.ONE, BigDecimal.TEN, false);
    assertThat(eks.notes()).anyMatch(n -> n.startsWith("spot: 25% interruptions"));
    assertThat(eks.rerunHours()).isPositive();
    assertThat(gke.rerunHours()).isZero();
  }

  @Test
  void nonsenseIsRefusedNamingTheKey() {
    for (var bad : new String[] {"often", "30-40%", "2"}) {
      assertThatThrownBy(() -> bind("spotInterruption: {eks: \"" + bad + "\"}\n"))
          .as(bad)
          .hasMessageContaining("routing.spotInterruption.eks");
    }
  }

  private static Placement spot(String backend) {
    return new Placement(
        backend,
        "aws",
        "ec2",
        "us-east-1",
        true,
        List.of(new PlacementLine(List.of("worker"), "m5.2xlarge", 1, null, 0)),
        null,
        null,
        null,
        null);
  }
}
