package io.trainyard.cost.refresh;

/** Why a refresh failed. Each code says whose fault it is, which decides health and alerting. */
public enum PriceRefreshErrorCode {
  /** The price API answered with an error: bad credentials, no permission, throttled, 5xx. */
  API_REFUSED(Category.EXTERNAL),
  /** The price API did not answer: connection refused, DNS, timeout. */
  API_UNREACHABLE(Category.EXTERNAL),
  /** The price API answered, but not in the format it documents. */
  RESPONSE_UNREADABLE(Category.EXTERNAL),
  /** No token could be had for the configured credentials. */
  CREDENTIALS_REFUSED(Category.EXTERNAL),
  /** The refresher's configuration is unusable (e.g. an unreadable credentials file). */
  CONFIG_INVALID(Category.INTERNAL),
  /** A refresher failed in a way it did not expect: a bug. */
  REFRESHER_FAILED(Category.INTERNAL);

  /** Whose fault: the caller's, a system we depend on, or ours. */
  public enum Category {
    USER,
    EXTERNAL,
    INTERNAL
  }

  private final Category category;

  PriceRefreshErrorCode(Category category) {
    this.category = category;
  }

  public Category category() {
    return category;
  }
}
