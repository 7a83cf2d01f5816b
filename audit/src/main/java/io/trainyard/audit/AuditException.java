package io.trainyard.audit;

import java.util.Objects;

/** An audit operation failed; {@link #code()} says why and whose fault it is. */
public final class AuditException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final AuditErrorCode code;

  public AuditException(AuditErrorCode code, String message) {
    this(code, message, null);
  }

  public AuditException(AuditErrorCode code, String message, Throwable cause) {
    super(Objects.requireNonNull(code, "code") + ": " + message, cause);
    this.code = code;
  }

  public AuditErrorCode code() {
    return code;
  }
}
