package io.trainyard.gateway.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.Placement;
import io.trainyard.spi.PlacementLine;
import io.trainyard.spi.WaitingAhead;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * What waits ahead of a new job, the backend's figure with the gateway's own (its jobs placed there
 * and not started): the larger stands, so the pods of our own submitted jobs are not counted twice;
 * an unknown or missing figure is replaced by ours, and the source says which.
 */
class GatewayQueueAheadTest {

  @ParameterizedTest(name = "backend {0}, ours {1} → {2} {3}")
  @CsvSource(
      delimiter = '|',
      value = {
        // backend reports (count or - for unknown, none for no report) | ours | count | unit |
        // source starts
        "3    | 1 | 3 | pods | pending pods; 1 job(s) of this gateway's jobs",
        "1    | 2 | 2 | jobs | 2 job(s) of this gateway's jobs placed there and not started (PENDING, SUBMITTED); the backend reports 1",
        "-    | 0 | 0 | jobs | 0 job(s) of this gateway's jobs placed there and not started (PENDING, SUBMITTED); the backend's own figure is unknown: no API",
        "none | 4 | 4 | jobs | 4 job(s) of this gateway's jobs placed there and not started (PENDING, SUBMITTED); the backend reports no queue",
      })
  void theLargerFigureStandsAndTheSourceSaysWhose(
      String reported, int ours, int count, String unit, String source) {
    WaitingAhead ahead =
        switch (reported) {
          case "none" -> null;
          case "-" -> WaitingAhead.unknown("no API");
          default -> WaitingAhead.of(Integer.parseInt(reported), "pods", "pending pods");
        };
    var placement =
        new Placement(
            "b",
            "aws",
            "ec2",
            "us-east-1",
            false,
            List.of(new PlacementLine(List.of("worker"), "m5.2xlarge", 1, null, 0)),
            null,
            null,
            null,
            null,
            ahead);
    var combined = GatewayQueueAhead.combine(placement, ours);
    assertThat(combined.count()).isEqualTo(count);
    assertThat(combined.unit()).isEqualTo(unit);
    assertThat(combined.source()).startsWith(source);
  }
}
