package io.trainyard.gateway.errors;

import io.trainyard.spi.spec.FieldError;
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
    this.errors = List.copyOf(errors);
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

  public static ApiException field(ErrorCode code, String field, String message) {
    return new ApiException(
        code, field + " " + message, List.of(new FieldError(field, message)), null);
  }

  public ErrorCode code() {
    return code;
  }

  public List<FieldError> errors() {
    return errors;
  }

  public Object detail() {
    return detail;
  }
}
