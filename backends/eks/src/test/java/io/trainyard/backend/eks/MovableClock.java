package io.trainyard.backend.eks;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock tests move by hand; starts at the given instant (the real time by default). */
final class MovableClock extends Clock {
  private volatile Instant now;

  MovableClock() {
    this(Instant.now());
  }

  MovableClock(Instant start) {
    now = start;
  }

  void advance(Duration d) {
    now = now.plus(d);
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
    return this;
  }
}
