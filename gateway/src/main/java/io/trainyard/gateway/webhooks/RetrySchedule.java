package io.trainyard.gateway.webhooks;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.DoubleSupplier;

/**
 * When a failed delivery is tried again: after {@code initial}, doubling each time up to {@code
 * max}, each wait drawn between half and all of that ("equal jitter", so replicas retrying many
 * deliveries for one receiver spread out); never beyond {@code maxAttempts} attempts or an event
 * older than {@code maxAge}. Thread-safe.
 */
public record RetrySchedule(
    int maxAttempts, Duration maxAge, Duration initial, Duration max, DoubleSupplier random) {
  public RetrySchedule {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1");
    }
    Objects.requireNonNull(maxAge, "maxAge");
    Objects.requireNonNull(initial, "initial");
    Objects.requireNonNull(max, "max");
    Objects.requireNonNull(random, "random");
  }

  /**
   * The time of the attempt after failed attempt {@code attempt} (1-based) of an event created at
   * {@code createdAt}, or null when there is none: the delivery has failed for good.
   */
  public Instant next(int attempt, Instant createdAt, Instant now) {
    if (attempt >= maxAttempts) {
      return null;
    }
    var doubled = initial.toMillis() << Math.min(attempt - 1, 30);
    var capped = Math.min(Math.max(doubled, 0), max.toMillis());
    var wait = (long) (capped * (0.5 + 0.5 * random.getAsDouble()));
    var at = now.plusMillis(wait);
    return at.isAfter(createdAt.plus(maxAge)) ? null : at;
  }

  /** Whether an event created at {@code createdAt} is too old for any attempt now. */
  public boolean expired(Instant createdAt, Instant now) {
    return now.isAfter(createdAt.plus(maxAge));
  }
}
