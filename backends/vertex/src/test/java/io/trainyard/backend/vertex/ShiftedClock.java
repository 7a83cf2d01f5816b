package io.trainyard.backend.vertex;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** The system clock moved on by what a test adds, so a test can let time pass at once. */
final class ShiftedClock extends Clock {
  private final AtomicReference<Duration> shift = new AtomicReference<>(Duration.ZERO);

  void advance(Duration by) {
    shift.accumulateAndGet(by, Duration::plus);
  }

  @Override
  public Instant instant() {
    return Instant.now().plus(shift.get());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException();
  }
}
