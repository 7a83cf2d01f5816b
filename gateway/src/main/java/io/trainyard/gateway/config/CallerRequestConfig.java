package io.trainyard.gateway.config;

import io.dropwizard.util.Duration;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

/**
 * How many requests one caller may have in progress at once on a gateway replica ({@code
 * callerRequests:}). Each holds a request thread until it is answered (a follow, until it ends), so
 * without a bound one token could take every thread, e.g. with hundreds of trickled bodies. A
 * caller past it is answered 429 with {@code Retry-After}; unauthenticated requests never count.
 */
public class CallerRequestConfig {
  @Min(1)
  private int maxConcurrent = 64;

  @NotNull private Duration retryAfter = Duration.seconds(1);

  /** Requests one caller (token subject) may have in progress on this replica at once. */
  public int getMaxConcurrent() {
    return maxConcurrent;
  }

  public void setMaxConcurrent(int maxConcurrent) {
    this.maxConcurrent = maxConcurrent;
  }

  /** What a refused caller is told to wait. */
  public Duration getRetryAfter() {
    return retryAfter;
  }

  public void setRetryAfter(Duration retryAfter) {
    this.retryAfter = retryAfter;
  }
}
