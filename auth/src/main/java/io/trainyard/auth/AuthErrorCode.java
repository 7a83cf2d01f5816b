package io.trainyard.auth;

/**
 * Why authentication failed. Each code says whose fault it is, which decides status and alerting.
 */
public enum AuthErrorCode {
  TOKEN_MALFORMED(Category.USER),
  TOKEN_ALGORITHM_REFUSED(Category.USER),
  TOKEN_TYPE_REFUSED(Category.USER),
  TOKEN_KEY_UNKNOWN(Category.USER),
  TOKEN_SIGNATURE_INVALID(Category.USER),
  TOKEN_ISSUER_MISMATCH(Category.USER),
  TOKEN_AUDIENCE_MISMATCH(Category.USER),
  TOKEN_EXPIRED(Category.USER),
  TOKEN_NOT_YET_VALID(Category.USER),
  TOKEN_CLAIM_MISSING(Category.USER),
  /** The issuer's keys could not be fetched: the IdP is down or unreachable, not the caller. */
  KEY_SOURCE_UNAVAILABLE(Category.EXTERNAL);

  /** Whose fault: the caller's (4xx), a system we depend on, or ours. */
  public enum Category {
    USER,
    EXTERNAL,
    INTERNAL
  }

  private final Category category;

  AuthErrorCode(Category category) {
    this.category = category;
  }

  public Category category() {
    return category;
  }
}
