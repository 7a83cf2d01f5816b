package io.trainyard.backend.vertex;

import java.time.Instant;
import java.util.List;

/**
 * Cloud Logging filters for Vertex custom jobs' entries. What the entries carry is what gcloud's
 * own {@code ai custom-jobs stream-logs} asks for (googlecloudsdk/command_lib/ai/log_util.py,
 * {@code _LogFilters}, in google-cloud-sdk-unofficial/google-cloud-sdk at 01f043c): {@code
 * resource.type="ml_job"}, {@code resource.labels.job_id} = the custom job's numeric id (the last
 * part of its resource name), and {@code resource.labels.task_name} = {@code
 * workerpool<pool>-<index>} for one replica. Values are always quoted and escaped, so a value
 * cannot change the expression.
 */
final class VertexLogFilter {
  static final String RESOURCE_TYPE = "ml_job";

  /**
   * ListLogEntriesRequest.filter is limited to 20,000 characters (google/logging/v2/logging.proto);
   * the poller splits larger ORs over several calls.
   */
  static final int MAX_CHARS = 20_000;

  private static final String PREFIX = "resource.type=" + quote(RESOURCE_TYPE) + " AND ";

  private VertexLogFilter() {}

  /**
   * One job's entries: of one task when {@code task} is given, after {@code after} when given, and
   * before {@code before} (exclusive) when given.
   */
  static String clause(String jobId, String task, VertexLogCursor after, Instant before) {
    var clause = new StringBuilder("resource.labels.job_id=").append(quote(jobId));
    if (task != null) {
      clause.append(" AND resource.labels.task_name=").append(quote(task));
    }
    if (after != null) {
      clause.append(" AND ").append(after.lowerBound());
    }
    if (before != null) {
      clause.append(" AND timestamp<").append(quote(before.toString()));
    }
    return clause.toString();
  }

  /** The whole filter for clauses from {@link #clause}: any of them, of the job resource type. */
  static String of(List<String> clauses) {
    if (clauses.size() == 1) {
      return PREFIX + clauses.get(0);
    }
    return PREFIX + "((" + String.join(") OR (", clauses) + "))";
  }

  /**
   * A string literal of the Logging query language: double quotes, with backslash escapes for
   * backslashes, quotes and control characters.
   */
  static String quote(String value) {
    var quoted = new StringBuilder(value.length() + 2).append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> quoted.append("\\\"");
        case '\\' -> quoted.append("\\\\");
        case '\n' -> quoted.append("\\n");
        case '\r' -> quoted.append("\\r");
        case '\t' -> quoted.append("\\t");
        default -> {
          if (c < 0x20) {
            quoted.append(String.format("\\u%04x", (int) c));
          } else {
            quoted.append(c);
          }
        }
      }
    }
    return quoted.append('"').toString();
  }
}
