package io.trainyard.gateway.config;

import io.dropwizard.util.Duration;
import io.trainyard.gateway.backends.BackendRegistry;
import jakarta.validation.constraints.NotNull;

/**
 * How backends' health is watched ({@code backendHealth:}): probed in the background and cached, so
 * no request runs a probe; a backend that could not start is built again on a schedule.
 */
public class BackendHealthConfig {
  @NotNull private Duration checkEvery = Duration.seconds(30);
  @NotNull private Duration timeout = Duration.seconds(10);
  @NotNull private Duration retryStartEvery = Duration.seconds(30);
  @NotNull private Duration quoteTimeout = Duration.seconds(5);

  /** How often every backend's health is probed. */
  public Duration getCheckEvery() {
    return checkEvery;
  }

  public void setCheckEvery(Duration checkEvery) {
    this.checkEvery = checkEvery;
  }

  /** The longest one probe may take; a backend slower than that counts as unhealthy. */
  public Duration getTimeout() {
    return timeout;
  }

  public void setTimeout(Duration timeout) {
    this.timeout = timeout;
  }

  /** How often a backend whose factory failed at start (its cloud was down) is built again. */
  public Duration getRetryStartEvery() {
    return retryStartEvery;
  }

  public void setRetryStartEvery(Duration retryStartEvery) {
    this.retryStartEvery = retryStartEvery;
  }

  /**
   * The longest a backend may take to propose placements for a quote or a submission; a backend
   * slower than that is left out of that decision (unavailable for now), the others are not held.
   */
  public Duration getQuoteTimeout() {
    return quoteTimeout;
  }

  public void setQuoteTimeout(Duration quoteTimeout) {
    this.quoteTimeout = quoteTimeout;
  }

  public BackendRegistry.Settings toSettings() {
    return new BackendRegistry.Settings(
        checkEvery.toJavaDuration(), timeout.toJavaDuration(), retryStartEvery.toJavaDuration());
  }
}
