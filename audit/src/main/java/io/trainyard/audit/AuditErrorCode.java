package io.trainyard.audit;

/**
 * Why an audit operation failed. Each code says whose fault it is, which decides status and
 * alerting.
 */
public enum AuditErrorCode {
  /** The requested export range or filter cannot be served (empty, reversed, beyond the head). */
  EXPORT_RANGE_INVALID(Category.USER),
  /** A blob the caller named does not exist. */
  BLOB_NOT_FOUND(Category.USER),
  /** The blob store refused or did not answer. */
  SINK_UNAVAILABLE(Category.EXTERNAL),
  /**
   * The blob store turned the sink's credentials down (HTTP 401/403, or the token endpoint refused
   * the key): retrying will not help until the configuration or the grant is fixed.
   */
  SINK_ACCESS_DENIED(Category.EXTERNAL),
  /** The configuration of a sink or key is unusable. */
  CONFIG_INVALID(Category.INTERNAL),
  /**
   * The event source handed out a range with gaps or in the wrong order: a bug or a broken store.
   */
  SOURCE_INCONSISTENT(Category.INTERNAL),
  /** A local file (temporary export file, key file) could not be written or read. */
  IO_FAILED(Category.INTERNAL);

  /** Whose fault: the caller's (4xx), a system we depend on, or ours. */
  public enum Category {
    USER,
    EXTERNAL,
    INTERNAL
  }

  private final Category category;

  AuditErrorCode(Category category) {
    this.category = category;
  }

  public Category category() {
    return category;
  }
}
