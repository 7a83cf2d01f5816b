package io.trainyard.cost.refresh;

import java.util.Objects;

/** A refresh failed as a whole; {@link #code()} says why. The last good catalog stays in use. */
public final class PriceRefreshException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final PriceRefreshErrorCode code;

  public PriceRefreshException(PriceRefreshErrorCode code, String message) {
    this(code, message, null);
  }

  public PriceRefreshException(PriceRefreshErrorCode code, String message, Throwable cause) {
    super(Objects.requireNonNull(code, "code") + ": " + message, cause);
    this.code = code;
  }

  public PriceRefreshErrorCode code() {
    return code;
  }
}
