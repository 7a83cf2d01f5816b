package io.trainyard.gateway.metrics;

import io.trainyard.spi.spec.FieldError;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The bounds of what a job may report: a batch of at most {@value #MAX_POINTS} points; names of
 * 1-128 letters, digits and {@code _ . : / -}; finite values within ±{@value #MAX_ABS_VALUE}; step
 * and epoch 0 to {@value #MAX_COUNTER} (at least one of them); a time no earlier than {@code
 * 2000-01-01} and at most a day ahead of the gateway's clock.
 */
public final class MetricBatch {
  public static final int MAX_POINTS = 1000;
  public static final double MAX_ABS_VALUE = 1e15;
  public static final long MAX_COUNTER = 1_000_000_000_000L;
  static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.:/-]{1,128}");
  private static final Instant EARLIEST = Instant.parse("2000-01-01T00:00:00Z");
  private static final Duration AHEAD = Duration.ofDays(1);

  private MetricBatch() {}

  /** What is wrong with {@code point}, field names relative to it; empty when it is fine. */
  public static List<FieldError> problems(MetricPoint point, Instant now) {
    var errors = new ArrayList<FieldError>();
    if (!NAME.matcher(point.name()).matches()) {
      errors.add(
          new FieldError("name", "must be 1-128 letters, digits or _ . : / - (e.g. val_loss)"));
    }
    if (!Double.isFinite(point.value()) || Math.abs(point.value()) > MAX_ABS_VALUE) {
      errors.add(new FieldError("value", "must be a finite number within ±1e15"));
    }
    if (point.step() == null && point.epoch() == null) {
      errors.add(new FieldError("step", "step or epoch is required"));
    }
    counter(errors, "step", point.step());
    counter(errors, "epoch", point.epoch());
    if (point.time().isBefore(EARLIEST) || point.time().isAfter(now.plus(AHEAD))) {
      errors.add(
          new FieldError("time", "must be an instant after 2000-01-01 and not in the future"));
    }
    return errors;
  }

  private static void counter(List<FieldError> errors, String field, Long n) {
    if (n != null && (n < 0 || n > MAX_COUNTER)) {
      errors.add(new FieldError(field, "must be between 0 and " + MAX_COUNTER));
    }
  }
}
