package io.trainyard.backend.kubernetes;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock tests move by hand; starts at the real time (as the API server stamps objects) or at a
 * given instant.
 */
public final class TestClock extends Clock {
  private volatile Instant now;

  public TestClock() {
    this(Instant.now());
  }

  public TestClock(Instant start) {
    now = start;
  }

  public void set(Instant instant) {
    now = instant;
  }

  public void advance(Duration d) {
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
