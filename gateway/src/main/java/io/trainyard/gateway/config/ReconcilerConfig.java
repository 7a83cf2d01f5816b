package io.trainyard.gateway.config;

import io.dropwizard.util.Duration;
import jakarta.validation.constraints.Min;

/** The background loop that moves jobs along. */
public class ReconcilerConfig {
  private Duration resyncInterval = Duration.seconds(2);
  private Duration lease = Duration.seconds(30);

  @Min(1)
  private int batchSize = 50;

  private String owner;

  private boolean targetedSteps = true;

  @Min(1)
  private int submitTries = 5;

  private Duration submitRetryDelay = Duration.seconds(2);
  private Duration submitRetryMaxDelay = Duration.minutes(1);
  private Duration submitTimeout = Duration.seconds(10);

  /**
   * How many submits of one attempt may answer Retryable (throttling, 5xx, timeouts) before it
   * gives up: the job fails over to its next offer, or fails with the backend's words.
   */
  public int getSubmitTries() {
    return submitTries;
  }

  public void setSubmitTries(int submitTries) {
    this.submitTries = submitTries;
  }

  /** The wait after the first Retryable submit; it doubles up to submitRetryMaxDelay. */
  public Duration getSubmitRetryDelay() {
    return submitRetryDelay;
  }

  public void setSubmitRetryDelay(Duration submitRetryDelay) {
    this.submitRetryDelay = submitRetryDelay;
  }

  public Duration getSubmitRetryMaxDelay() {
    return submitRetryMaxDelay;
  }

  public void setSubmitRetryMaxDelay(Duration submitRetryMaxDelay) {
    this.submitRetryMaxDelay = submitRetryMaxDelay;
  }

  /**
   * How long one submit may go unanswered before its job moves on (its backend is then marked
   * unhealthy until a probe passes); 0 for no deadline. A backend that needs longer to accept a job
   * needs a larger value.
   */
  public Duration getSubmitTimeout() {
    return submitTimeout;
  }

  public void setSubmitTimeout(Duration submitTimeout) {
    this.submitTimeout = submitTimeout;
  }

  /** How often every live job's status is read even without a pushed event (the safety net). */
  public Duration getResyncInterval() {
    return resyncInterval;
  }

  public void setResyncInterval(Duration resyncInterval) {
    this.resyncInterval = resyncInterval;
  }

  /** How long a replica holds a job after its last pass; another takes it over after that. */
  public Duration getLease() {
    return lease;
  }

  public void setLease(Duration lease) {
    this.lease = lease;
  }

  public int getBatchSize() {
    return batchSize;
  }

  public void setBatchSize(int batchSize) {
    this.batchSize = batchSize;
  }

  /** This replica's lease-owner name; defaults to host name + process id. */
  public String getOwner() {
    return owner;
  }

  public void setOwner(String owner) {
    this.owner = owner;
  }

  /**
   * Whether a pushed backend event, a submission or a cancel steps its own job at once (true), or
   * only wakes a pass over every due job (false, as before issue 19; for comparison).
   */
  public boolean isTargetedSteps() {
    return targetedSteps;
  }

  public void setTargetedSteps(boolean targetedSteps) {
    this.targetedSteps = targetedSteps;
  }
}
