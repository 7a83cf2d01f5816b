package io.trainyard.spi;

/** Where an attempt stands on its backend, in the backend's terms mapped to a common few. */
public enum BackendPhase {
  /** Accepted, not yet running (pods pending, instances provisioning, queued by Kueue). */
  ADMITTING,
  /** Held suspended or preempted; waits again. */
  SUSPENDED,
  RUNNING,
  SUCCEEDED,
  FAILED,
  /** Stopped on request. */
  STOPPED,
  /**
   * The backend gave up on admitting the attempt (pods pending on quota, held by Kueue past the
   * backend's admission timeout) and removed it: the job fails over to its next offer.
   */
  REFUSED;

  public boolean isTerminal() {
    return this == SUCCEEDED || this == FAILED || this == STOPPED || this == REFUSED;
  }
}
