package io.trainyard.cost;

import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.Quantities;

/**
 * A spot offer for a long job needs somewhere to resume from: when the job's expected run time
 * ({@code estimatedHours}, never past {@code maxRuntime}, else {@code maxRuntime}: the hours the
 * router's whole-job totals are for) exceeds {@code placement.spotNeedsCheckpointAfter} (default
 * 1h) and the spec has no {@code checkpoint}, every backend's spot offer is refused (its on-demand
 * offer stays). A job that states neither an estimate nor a limit is not judged: nothing says it is
 * long. One rule for every backend, applied by the {@link Router}. Pure; thread-safe.
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
    var limit = Router.hours(Quantities.duration(limitText));
    // The hours a whole-job total is for: the same expectation ranks and refuses offers.
    var expected = Router.totalHours(spec);
    if (expected == null || expected.compareTo(limit) <= 0) {
      return null;
    }
    var source =
        spec.estimatedHours() == null
            ? "maxRuntime"
            : expected.compareTo(spec.estimatedHours()) < 0
                ? "estimatedHours, stopped at maxRuntime"
                : "estimatedHours";
    return "spot capacity for a job expected to run "
        + expected.stripTrailingZeros().toPlainString()
        + "h ("
        + source
        + ")"
        + ", longer than spec.placement.spotNeedsCheckpointAfter "
        + limitText
        + ", needs spec.checkpoint to resume from after an interruption";
  }
}
