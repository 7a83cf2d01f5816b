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
  private final long retryAfterSeconds;

  public ApiException(ErrorCode code, String message) {
    this(code, message, List.of(), null);
  }

  /**
   * @param detail extra evidence answered beside the error, e.g. the routing decision of a job no
   *     backend can take
   */
  public ApiException(ErrorCode code, String message, List<FieldError> errors, Object detail) {
    this(code, message, errors, detail, 0);
  }

  private ApiException(
      ErrorCode code,
      String message,
      List<FieldError> errors,
      Object detail,
      long retryAfterSeconds) {
    super(message, null, false, false);
    this.code = code;
    // A hostile document can hold hundreds of thousands of errors: list the first ones, count all.
    this.errors = List.copyOf(errors.subList(0, Math.min(errors.size(), MAX_LISTED)));
    this.errorCount = errors.size();
    this.detail = detail;
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** A refusal for a limit, answered with {@code Retry-After: seconds}. */
  public static ApiException tooMany(String field, String message, long retryAfterSeconds) {
    return new ApiException(
        ErrorCode.TOO_MANY_REQUESTS,
        message,
        List.of(new FieldError(field, message)),
        null,
        Math.max(1, retryAfterSeconds));
  }

  /** Seconds the caller should wait before trying again; 0 when the error does not say. */
  public long retryAfterSeconds() {
    return retryAfterSeconds;
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
