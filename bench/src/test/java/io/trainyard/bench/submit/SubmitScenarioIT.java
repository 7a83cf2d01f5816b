package io.trainyard.bench.submit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The short version of {@link SubmitScenario}: both modes run end to end against the shipped jar
 * with the stub plugin on a throw-away PostgreSQL, and every submission is accepted. No figure is
 * checked (they belong in docs/benchmarks.md, never in a test).
 */
class SubmitScenarioIT {
  @Test
  void runsBothModesAgainstTheShippedGateway() {
    var options =
        new SubmitScenario.Options(
            List.of(2),
            Duration.ofMillis(500),
            Duration.ofSeconds(2),
            1,
            Path.of("/usr/lib/postgresql/15/bin"),
            false,
            null);

    var points = SubmitScenario.run(options);

    assertThat(points).hasSize(2);
    assertThat(points.stream().map(SubmitScenario.Point::groupCommit)).containsExactly(false, true);
    for (var point : points) {
      var sample = point.sample();
      assertThat(sample.errors()).as(sample.name() + ": " + sample.firstError()).isZero();
      assertThat(sample.answered()).as(sample.name()).isPositive();
    }
    assertThat(SubmitScenario.summary(points, List.of(2))).contains("| 2 |");
  }
}
