package io.trainyard.bench.follow;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The gateway-overhead scenario, tiny: only that both paths run and are measured. */
class GatewayOverheadTest {
  @Test
  void bothPathsRunAndAreMeasured() throws Exception {
    var result = GatewayOverheadMain.run(5, 1);

    assertThat(result.gatewayMs()).hasSize(5);
    assertThat(result.directMs()).hasSize(5);
    assertThat(result.table()).contains("added by the gateway");
  }
}
