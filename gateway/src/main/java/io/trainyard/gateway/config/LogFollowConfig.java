package io.trainyard.gateway.config;

import io.dropwizard.util.Duration;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

/**
 * Bounds on {@code GET /v1/jobs/{id}/logs?follow=true} ({@code logFollow:}), per gateway replica:
 * each follow holds a request thread for as long as it lasts, so one caller must not be able to
 * take them all.
 */
public class LogFollowConfig {
  @Min(1)
  private int maxPerCaller = 8;

  @Min(1)
  private int maxTotal = 64;

  @NotNull private Duration maxDuration = Duration.minutes(10);

  @NotNull private Duration retryAfter = Duration.seconds(10);
  @NotNull private Duration heartbeat = Duration.seconds(15);

  /** Concurrent follows one caller (token subject) may hold on this replica. */
  public int getMaxPerCaller() {
    return maxPerCaller;
  }

  public void setMaxPerCaller(int maxPerCaller) {
    this.maxPerCaller = maxPerCaller;
  }

  /** Concurrent follows of all callers together on this replica. */
  public int getMaxTotal() {
    return maxTotal;
  }

  public void setMaxTotal(int maxTotal) {
    this.maxTotal = maxTotal;
  }

  /** How long one follow may last; the client then resumes with {@code since}. */
  public Duration getMaxDuration() {
    return maxDuration;
  }

  public void setMaxDuration(Duration maxDuration) {
    this.maxDuration = maxDuration;
  }

  /** The {@code Retry-After} a refused follow is told. */
  public Duration getRetryAfter() {
    return retryAfter;
  }

  public void setRetryAfter(Duration retryAfter) {
    this.retryAfter = retryAfter;
  }

  /**
   * How long a follow stays silent before it writes a line saying it is still following: a quiet
   * job's follow whose reader went away is noticed (and its place given back) within two of these.
   */
  public Duration getHeartbeat() {
    return heartbeat;
  }

  public void setHeartbeat(Duration heartbeat) {
    this.heartbeat = heartbeat;
  }
}
