package io.trainyard.backend.vertex;

import io.trainyard.spi.LogLine;
import io.trainyard.spi.LogQuery;
import io.trainyard.spi.LogStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;

/**
 * What {@code logs()} gives for a Vertex job: one line that says where the logs are, since the
 * aiplatform client library has no log API and reading Cloud Logging would need another client (and
 * another grant). The line names the Cloud Logging filter for the job (and the replica's task,
 * {@code workerpool<p>-<i>}, when one is asked for) and a console link that opens it. Not followed:
 * the stream ends after that line.
 */
final class VertexLogLink implements LogStream {
  private LogLine line;

  VertexLogLink(String project, String customJobId, String task, LogQuery query, Instant now) {
    var text =
        "Vertex AI has no log API in its client library, so Trainyard cannot stream these logs;"
            + " read them in Cloud Logging: "
            + url(project, filter(customJobId, task, query))
            + " (filter: "
            + filter(customJobId, task, query)
            + ")";
    this.line = new LogLine(query.replica() == null ? "vertex" : query.replica(), now, text);
  }

  static String filter(String customJobId, String task, LogQuery query) {
    var filter = "resource.type=\"ml_job\" AND resource.labels.job_id=\"" + customJobId + "\"";
    if (task != null) {
      filter += " AND labels.\"ml.googleapis.com/task_name\"=\"" + task + "\"";
    }
    if (query.since() != null) {
      filter += " AND timestamp>=\"" + query.since() + "\"";
    }
    return filter;
  }

  private static String url(String project, String filter) {
    return "https://console.cloud.google.com/logs/query;query="
        + URLEncoder.encode(filter, StandardCharsets.UTF_8).replace("+", "%20")
        + "?project="
        + URLEncoder.encode(project, StandardCharsets.UTF_8);
  }

  @Override
  public Optional<LogLine> next() {
    var next = Optional.ofNullable(line);
    line = null;
    return next;
  }

  @Override
  public void close() {
    line = null;
  }
}
