package io.trainyard.gateway.resources;

import io.trainyard.gateway.errors.ApiException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Concurrent {@code logs?follow=true} streams on this replica, per caller and in total. Each follow
 * holds a request thread while it lasts; unbounded, 1,100 follows of one job starved every other
 * team's requests (issue #13). Thread-safe.
 */
public final class FollowLimits {
  /**
   * @param perCaller follows one caller (token subject) may hold at once
   * @param total follows all callers together may hold at once
   * @param maxDuration how long one follow lasts before it ends and the client resumes
   * @param retryAfter what a refused caller is told to wait
   * @param heartbeat how long a follow stays silent before it writes a line saying it is still
   *     there (and so finds out whether its reader is)
   */
  public record Settings(
      int perCaller, int total, Duration maxDuration, Duration retryAfter, Duration heartbeat) {
    public Settings {
      if (perCaller < 1 || total < 1) {
        throw new IllegalArgumentException("follow limits must be at least 1");
      }
    }

    public Settings(int perCaller, int total, Duration maxDuration, Duration retryAfter) {
      this(perCaller, total, maxDuration, retryAfter, Duration.ofSeconds(15));
    }
  }

  /** One follow's place; closing it (once) gives the place back. */
  public interface Permit extends AutoCloseable {
    @Override
    void close();
  }

  private final Settings settings;
  private final AtomicInteger total = new AtomicInteger();
  // compute() is atomic per key, so counting and forgetting an idle caller cannot race.
  private final Map<String, Integer> byCaller = new ConcurrentHashMap<>();

  public FollowLimits(Settings settings) {
    this.settings = settings;
  }

  public Settings settings() {
    return settings;
  }

  /**
   * Takes a place for {@code caller}'s follow.
   *
   * @throws ApiException 429 with Retry-After when the caller or the replica is at its limit
   */
  public Permit acquire(String caller) {
    int mine = byCaller.merge(caller, 1, Integer::sum);
    if (mine > settings.perCaller()) {
      release(caller);
      throw ApiException.tooMany(
          "follow",
          "you already follow "
              + settings.perCaller()
              + " log streams on this gateway, the most one caller may; close one or read"
              + " without follow",
          settings.retryAfter().toSeconds());
    }
    if (total.incrementAndGet() > settings.total()) {
      total.decrementAndGet();
      release(caller);
      throw ApiException.tooMany(
          "follow",
          "this gateway already serves "
              + settings.total()
              + " followed log streams, the most it allows; try again later",
          settings.retryAfter().toSeconds());
    }
    var closed = new java.util.concurrent.atomic.AtomicBoolean();
    return () -> {
      if (closed.compareAndSet(false, true)) {
        total.decrementAndGet();
        release(caller);
      }
    };
  }

  /** Follows held now, all callers together; for tests and metrics. */
  public int held() {
    return total.get();
  }

  private void release(String caller) {
    // An idle caller is forgotten, so the map does not grow with every caller ever seen.
    byCaller.computeIfPresent(caller, (c, n) -> n <= 1 ? null : n - 1);
  }
}
