package io.trainyard.cost;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.Placement;
import io.trainyard.spi.PlacementLine;
import io.trainyard.spi.Proposals;
import io.trainyard.spi.Rejection;
import io.trainyard.spi.spec.Checkpoint;
import io.trainyard.spi.spec.Framework;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.PlacementSpec;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A spot offer for a long job needs a checkpoint; the on-demand offer is never affected. */
class SpotCheckpointRuleTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      nullValues = "-",
      textBlock =
          """
          # what                                 | estimatedHours | maxRuntime | after | checkpoint        | spot offered
          short estimate, no checkpoint          | 0.5            | -          | -     | -                 | true
          exactly the limit                      | 1              | -          | -     | -                 | true
          long estimate, no checkpoint           | 3              | -          | -     | -                 | false
          long estimate, checkpoint              | 3              | -          | -     | s3://b/ckpt       | true
          estimate wins over a long maxRuntime   | 0.5            | 24h        | -     | -                 | true
          a long estimate stops at maxRuntime    | 6              | 45m        | -     | -                 | true
          no estimate: maxRuntime over the limit | -              | 2h         | -     | -                 | false
          no estimate: maxRuntime under it       | -              | 45m        | -     | -                 | true
          a raised limit                         | 3              | -          | 4h    | -                 | true
          a lowered limit                        | 0.5            | -          | 10m   | -                 | false
          neither estimate nor limit             | -              | -          | -     | -                 | true
          """)
  void spotOfferTable(
      String what,
      BigDecimal estimatedHours,
      String maxRuntime,
      String after,
      String checkpoint,
      boolean spotOffered) {
    var spec = spec(estimatedHours, maxRuntime, after, checkpoint);
    var decision = new Router(PriceBook.OPERATOR, BigDecimal.ONE).route(spec, List.of(quote()));

    var onDemand = decision.candidates().stream().filter(c -> !c.spot()).findFirst().orElseThrow();
    var spot = decision.candidates().stream().filter(Candidate::spot).findFirst().orElseThrow();
    assertThat(onDemand.isOffer()).isTrue();
    assertThat(spot.isOffer()).isEqualTo(spotOffered);
    if (!spotOffered) {
      assertThat(spot.rejected())
          .contains("longer than spec.placement.spotNeedsCheckpointAfter")
          .contains("needs spec.checkpoint");
      assertThat(spot.rejectedKind()).isEqualTo(Rejection.Kind.NEVER);
      assertThat(decision.chosen()).isEqualTo("managed");
    }
  }

  @Test
  void theReasonNamesTheRunTimeAndTheLimit() {
    assertThat(SpotCheckpointRule.reasonAgainstSpot(spec(new BigDecimal("3"), null, null, null)))
        .isEqualTo(
            "spot capacity for a job expected to run 3h (estimatedHours), longer than"
                + " spec.placement.spotNeedsCheckpointAfter 1h, needs spec.checkpoint to resume"
                + " from after an interruption");
    assertThat(SpotCheckpointRule.reasonAgainstSpot(spec(null, "2h", "90m", null)))
        .contains("run 2h (maxRuntime)")
        .contains("spotNeedsCheckpointAfter 90m");
  }

  private static BackendQuote quote() {
    return new BackendQuote(
        "managed",
        "sagemaker",
        "us-east-1",
        false,
        null,
        new Proposals(List.of(placement(false, "2.0"), placement(true, "0.8")), List.of()),
        null);
  }

  private static Placement placement(boolean spot, String usd) {
    return new Placement(
        "managed",
        "aws",
        "sagemaker",
        "us-east-1",
        spot,
        List.of(new PlacementLine(List.of("worker"), "ml.g5.xlarge", 1, null, 0)),
        new BigDecimal(usd),
        null,
        null,
        null);
  }

  private static JobSpec spec(
      BigDecimal estimatedHours, String maxRuntime, String after, String checkpoint) {
    return new JobSpec(
        Framework.PYTORCH,
        "img",
        List.of("python3"),
        null,
        null,
        null,
        null,
        null,
        Map.of("worker", 1),
        null,
        null,
        null,
        estimatedHours,
        maxRuntime,
        null,
        null,
        checkpoint == null ? null : new Checkpoint(checkpoint),
        null,
        null,
        null,
        null,
        new PlacementSpec(null, null, null, null, null, null, after),
        null,
        null);
  }
}
