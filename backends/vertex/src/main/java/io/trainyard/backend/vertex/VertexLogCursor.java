package io.trainyard.backend.vertex;

import java.time.Instant;

/**
 * A position in a job's entries, which Cloud Logging returns by timestamp and, within one
 * timestamp, by insert id ({@code ListLogEntriesRequest.order_by},
 * google/logging/v2/logging.proto). The next read asks for what comes after it, as gcloud's log
 * streaming does (LogPosition in googlecloudsdk/command_lib/logs/stream.py).
 *
 * @param timestamp the last entry's timestamp, or the {@code since} of a first read
 * @param insertId the last entry's insert id; null for a first read, which includes {@code
 *     timestamp} itself
 */
record VertexLogCursor(Instant timestamp, String insertId) {

  static VertexLogCursor since(Instant since) {
    return since == null ? null : new VertexLogCursor(since, null);
  }

  /** The filter term for entries after this position. */
  String lowerBound() {
    var at = VertexLogFilter.quote(timestamp.toString());
    if (insertId == null) {
      return "timestamp>=" + at;
    }
    return "(timestamp>"
        + at
        + " OR (timestamp="
        + at
        + " AND insertId>"
        + VertexLogFilter.quote(insertId)
        + "))";
  }

  /** Whether an entry at {@code at} with {@code id} comes after this position. */
  boolean admits(Instant at, String id) {
    int order = at.compareTo(timestamp);
    if (order != 0) {
      return order > 0;
    }
    return insertId == null || id.compareTo(insertId) > 0;
  }
}
