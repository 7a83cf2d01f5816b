package io.trainyard.gateway.errors;

import io.trainyard.spi.spec.FieldError;
import io.trainyard.spi.spec.InputLimits;
import java.util.List;

/**
 * An error answered to the caller in the error shape of DESIGN.md. The message is shown to the
 * caller as is, so it must not carry secrets or internals.
 *
 * @see ApiExceptionMapper
 */
public final class ApiException extends RuntimeException {
  private final ErrorCode code;
  private final List<FieldError> errors;
  private final int errorCount;
  private final transient Object detail;

  public ApiException(ErrorCode code, String message) {
    this(code, message, List.of(), null);
  }

  /**
   * @param detail extra evidence answered beside the error, e.g. the routing decision of a job no
   *     backend can take
   */
  public ApiException(ErrorCode code, String message, List<FieldError> errors, Object detail) {
    super(message, null, false, false);
    this.code = code;
    // A hostile document can hold hundreds of thousands of errors: list the first ones, count all.
    this.errors = List.copyOf(errors.subList(0, Math.min(errors.size(), MAX_LISTED)));
    this.errorCount = errors.size();
    this.detail = detail;
  }

  /** Field errors listed in an answer; the rest are only counted ({@link #errorCount}). */
  public static final int MAX_LISTED = InputLimits.MAX_ERRORS;

  public static ApiException field(ErrorCode code, String field, String message) {
    return new ApiException(
        code, field + " " + message, List.of(new FieldError(field, message)), null);
  }

  public ErrorCode code() {
    return code;
  }

  /** At most {@link #MAX_LISTED} field errors, the first ones found. */
  public List<FieldError> errors() {
    return errors;
  }

  /** How many field errors there were, listed or not. */
  public int errorCount() {
    return errorCount;
  }

  public Object detail() {
    return detail;
  }
}
