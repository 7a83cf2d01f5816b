package io.trainyard.backend.gke;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that starts at the real now and moves only when the test moves it. */
final class MovableClock extends Clock {
  private volatile Instant now = Instant.now();

  void advance(Duration by) {
    now = now.plus(by);
  }

  void set(Instant instant) {
    now = instant;
  }

  @Override
  public Instant instant() {
    return now;
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
