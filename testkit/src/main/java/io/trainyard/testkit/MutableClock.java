package io.trainyard.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that stands still until a test moves it; always UTC, thread-safe. Starts at the real time
 * (as an API server stamps objects) or at a given instant.
 */
public final class MutableClock extends Clock {
  private final AtomicReference<Instant> now;

  public MutableClock() {
    this(Instant.now());
  }

  public MutableClock(Instant start) {
    this.now = new AtomicReference<>(start);
  }

  public void advance(Duration d) {
    now.updateAndGet(t -> t.plus(d));
  }

  public void set(Instant t) {
    now.set(t);
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  /** The same clock: a test clock stays in UTC, and moving it must move every user. */
  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
