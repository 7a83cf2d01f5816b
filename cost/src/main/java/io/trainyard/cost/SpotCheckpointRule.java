package io.trainyard.cost;

import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.Quantities;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;

/**
 * A spot offer for a long job needs somewhere to resume from: when the job's expected run time
 * ({@code estimatedHours}, else {@code maxRuntime}) exceeds {@code
 * placement.spotNeedsCheckpointAfter} (default 1h) and the spec has no {@code checkpoint}, every
 * backend's spot offer is refused (its on-demand offer stays). A job that states neither an
 * estimate nor a limit is not judged: nothing says it is long. One rule for every backend, applied
 * by the {@link Router}. Pure; thread-safe.
 */
public final class SpotCheckpointRule {
  private SpotCheckpointRule() {}

  /** Why a spot offer cannot take this job; null when it can. Call only on a valid spec. */
  public static String reasonAgainstSpot(JobSpec spec) {
    if (spec.checkpoint() != null
        && spec.checkpoint().uri() != null
        && !spec.checkpoint().uri().isBlank()) {
      return null;
    }
    var limitText = spec.effectivePlacement().effectiveSpotNeedsCheckpointAfter();
    var limit = Quantities.duration(limitText);
    var expected = expectedRunTime(spec);
    if (expected == null || expected.compareTo(limit) <= 0) {
      return null;
    }
    return "spot capacity for a job expected to run "
        + (spec.estimatedHours() != null
            ? spec.estimatedHours().stripTrailingZeros().toPlainString() + "h (estimatedHours)"
            : spec.maxRuntime() + " (maxRuntime)")
        + ", longer than spec.placement.spotNeedsCheckpointAfter "
        + limitText
        + ", needs spec.checkpoint to resume from after an interruption";
  }

  /** {@code estimatedHours}, else {@code maxRuntime}; null when the spec states neither. */
  static Duration expectedRunTime(JobSpec spec) {
    if (spec.estimatedHours() != null) {
      var seconds =
          spec.estimatedHours().multiply(BigDecimal.valueOf(3600)).setScale(0, RoundingMode.UP);
      return Duration.ofSeconds(seconds.longValueExact());
    }
    return spec.maxRuntimeDuration().orElse(null);
  }
}
