package io.trainyard.bench.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A short run of {@link QuoteScenario} against the shipped jar: it only checks that the scenario
 * works (ten backends start offline, a quote chooses one of them, and every request of each phase
 * is answered); the figures are for docs/benchmarks.md, never asserted.
 */
class QuoteScenarioIT {
  @Test
  void runsAgainstTheShippedGateway() {
    var rounds = QuoteScenario.run(2, Duration.ofMillis(200), Duration.ofMillis(500), 1);

    assertThat(rounds).hasSize(1);
    var round = rounds.get(0);
    for (var sample : new Sample[] {round.readBefore(), round.quote(), round.readAfter()}) {
      assertThat(sample.errors()).as(sample.name() + ": " + sample.firstError()).isZero();
      assertThat(sample.answered()).as(sample.name()).isPositive();
    }
  }
}
