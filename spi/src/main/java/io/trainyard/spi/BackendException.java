package io.trainyard.spi;

/**
 * The typed errors of the SPI, so the reconciler decides retry vs failover vs fail without matching
 * strings. Backends translate their SDK's exceptions into these at their edge; messages are the
 * backend's own words, safe to show (no secrets, no stack traces).
 */
public abstract sealed class BackendException extends RuntimeException
    permits BackendException.Retryable,
        BackendException.CapacityUnavailable,
        BackendException.Rejected,
        BackendException.NotFound,
        BackendException.Unauthenticated {

  private BackendException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Transient trouble (throttling, a timeout): the same call may succeed later. */
  public static final class Retryable extends BackendException {
    public Retryable(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** Refused for capacity or quota: fail over to the next offer. */
  public static final class CapacityUnavailable extends BackendException {
    public CapacityUnavailable(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** Refused for good: the job fails with this reason. */
  public static final class Rejected extends BackendException {
    public Rejected(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** The object is not there. */
  public static final class NotFound extends BackendException {
    public NotFound(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** The backend's own credentials failed: mark it unhealthy. */
  public static final class Unauthenticated extends BackendException {
    public Unauthenticated(String message, Throwable cause) {
      super(message, cause);
    }
  }
}
