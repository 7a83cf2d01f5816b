package io.trainyard.gateway.errors;

/** The gateway's error codes, each with its HTTP status and who is at fault. */
public enum ErrorCode {
  MALFORMED(400, Category.USER),
  UNAUTHENTICATED(401, Category.USER),
  FORBIDDEN(403, Category.USER),
  NOT_FOUND(404, Category.USER),
  METHOD_NOT_ALLOWED(405, Category.USER),
  NOT_ACCEPTABLE(406, Category.USER),
  CONFLICT(409, Category.USER),
  PAYLOAD_TOO_LARGE(413, Category.USER),
  UNSUPPORTED_MEDIA_TYPE(415, Category.USER),
  INVALID_SPEC(422, Category.USER),
  NO_OFFER(422, Category.USER),
  OVER_BUDGET(422, Category.USER),
  /** A per-caller or per-replica limit is reached; the answer carries {@code Retry-After}. */
  TOO_MANY_REQUESTS(429, Category.USER),
  BACKEND_UNAVAILABLE(503, Category.EXTERNAL),
  /** The audit log cannot be written, so the request was refused (audit.failClosed). */
  AUDIT_UNAVAILABLE(503, Category.INTERNAL),
  /** The database cannot be reached (down, restarting, failing over): retry later. */
  DATABASE_UNAVAILABLE(503, Category.INTERNAL),
  INTERNAL(500, Category.INTERNAL);

  /** Whose fault an error is: the caller's, a backend's or cloud's, or ours. */
  public enum Category {
    USER,
    EXTERNAL,
    INTERNAL
  }

  private final int status;
  private final Category category;

  ErrorCode(int status, Category category) {
    this.status = status;
    this.category = category;
  }

  public int status() {
    return status;
  }

  public Category category() {
    return category;
  }

  /** The code for a plain HTTP status that Jersey raised (unknown path, wrong method ...). */
  public static ErrorCode forStatus(int status) {
    for (var c : values()) {
      if (c.status == status && c != NO_OFFER && c != OVER_BUDGET) {
        return c;
      }
    }
    return status >= 500 ? INTERNAL : MALFORMED;
  }
}
