package io.trainyard.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The short version of {@link AuthReadScenario}: it runs end to end against the shipped jar and
 * every request is answered, and the CPU each side spent is metered. No figure is checked (the
 * scenario's numbers belong in docs/benchmarks.md, never in a test).
 */
class AuthReadScenarioIT {
  @Test
  void runsAgainstTheShippedGateway() {
    var rounds = AuthReadScenario.run(2, Duration.ofMillis(200), Duration.ofMillis(500), 1);

    assertThat(rounds).hasSize(1);
    var round = rounds.get(0);
    for (var sample : new Sample[] {round.pingBefore(), round.job(), round.pingAfter()}) {
      assertThat(sample.errors()).as(sample.name() + ": " + sample.firstError()).isZero();
      assertThat(sample.answered()).as(sample.name()).isPositive();
      // Metered at all, from /proc: a gateway serving requests uses some CPU, as does the driver.
      assertThat(sample.serverCpuMicros()).as(sample.name()).isPositive();
      assertThat(sample.driverCpuMicros()).as(sample.name()).isPositive();
    }
  }
}
