package io.trainyard.backend.vertex;

import com.google.logging.v2.LogEntry;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Value;
import com.google.protobuf.util.JsonFormat;
import io.trainyard.spi.LogLine;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Turns Cloud Logging entries of a custom job into log lines, the way gcloud's {@code ai
 * custom-jobs stream-logs} reads them (googlecloudsdk/command_lib/ai/log_util.py, {@code
 * _EntryToDict} and {@code _GetTaskName}): the text is {@code jsonPayload.message}, else {@code
 * textPayload}; the replica is {@code resource.labels.task_name}. Older entries carried the task in
 * {@code labels.task_name} or {@code labels."ml.googleapis.com/task_name"} (ml_engine's
 * log_utils.py), read as a fallback. A JSON payload without a message is shown as compact JSON; an
 * entry of several lines gives one line each, as gcloud does unless asked for multi-line output.
 */
final class VertexLogEntries {
  static final String TASK_LABEL = "task_name";
  static final String LEGACY_TASK_LABEL = "ml.googleapis.com/task_name";

  /** The replica of entries without a task: Vertex's own messages about the job. */
  static final String SERVICE_REPLICA = "vertex";

  private VertexLogEntries() {}

  /** The entry's task, e.g. {@code workerpool1-0}; null when it names none. */
  static String task(LogEntry entry) {
    var task = entry.getResource().getLabelsOrDefault(TASK_LABEL, "");
    if (task.isEmpty()) {
      task = entry.getLabelsOrDefault(TASK_LABEL, "");
    }
    if (task.isEmpty()) {
      task = entry.getLabelsOrDefault(LEGACY_TASK_LABEL, "");
    }
    return task.isEmpty() ? null : task;
  }

  static Instant timestamp(LogEntry entry) {
    var t = entry.getTimestamp();
    return Instant.ofEpochSecond(t.getSeconds(), t.getNanos());
  }

  /**
   * The entry's lines.
   *
   * @param replicaOfTask our replica name for a task, e.g. {@code workerpool1-0 -> worker-1}
   */
  static List<LogLine> lines(LogEntry entry, UnaryOperator<String> replicaOfTask) {
    var text = text(entry);
    if (text == null) {
      return List.of();
    }
    var task = task(entry);
    var replica = task == null ? SERVICE_REPLICA : replicaOfTask.apply(task);
    var at = timestamp(entry);
    var lines = new ArrayList<LogLine>();
    for (var line : text.split("\r?\n", -1)) {
      lines.add(new LogLine(replica, at, line));
    }
    // A trailing newline ends the last line; it does not start an empty one.
    if (lines.size() > 1 && lines.get(lines.size() - 1).text().isEmpty()) {
      lines.remove(lines.size() - 1);
    }
    return lines;
  }

  private static String text(LogEntry entry) {
    switch (entry.getPayloadCase()) {
      case TEXT_PAYLOAD:
        return entry.getTextPayload();
      case JSON_PAYLOAD:
        var fields = entry.getJsonPayload().getFieldsMap();
        var message = fields.get("message");
        if (message != null && message.getKindCase() == Value.KindCase.STRING_VALUE) {
          return message.getStringValue();
        }
        try {
          return JsonFormat.printer()
              .omittingInsignificantWhitespace()
              .print(entry.getJsonPayload());
        } catch (InvalidProtocolBufferException e) {
          return entry.getJsonPayload().toString();
        }
      default:
        return null; // a proto payload (audit logs) is not something a replica printed
    }
  }
}
