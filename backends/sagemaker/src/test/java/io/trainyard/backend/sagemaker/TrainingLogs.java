package io.trainyard.backend.sagemaker;

import io.trainyard.spi.LogLine;
import io.trainyard.spi.LogStream;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.cloudwatchlogs.model.InputLogEvent;
import software.amazon.awssdk.services.cloudwatchlogs.model.ResourceAlreadyExistsException;

/** Writes hosts' log streams the way SageMaker does, and reads a whole {@link LogStream}. */
final class TrainingLogs {
  private TrainingLogs() {}

  /** Writes {@code (epochMillis, text)} pairs to one stream of the training-jobs group. */
  static void write(CloudWatchLogsClient logs, String stream, Object... timeAndText) {
    try {
      logs.createLogGroup(r -> r.logGroupName(SageMakerLogStream.GROUP));
    } catch (ResourceAlreadyExistsException e) {
      // made by an earlier test
    }
    logs.createLogStream(r -> r.logGroupName(SageMakerLogStream.GROUP).logStreamName(stream));
    var events = new ArrayList<InputLogEvent>();
    for (int i = 0; i < timeAndText.length; i += 2) {
      events.add(
          InputLogEvent.builder()
              .timestamp((Long) timeAndText[i])
              .message((String) timeAndText[i + 1])
              .build());
    }
    logs.putLogEvents(
        r -> r.logGroupName(SageMakerLogStream.GROUP).logStreamName(stream).logEvents(events));
  }

  static List<LogLine> read(LogStream stream) throws InterruptedException {
    try (stream) {
      var lines = new ArrayList<LogLine>();
      for (var line = stream.next(); line.isPresent(); line = stream.next()) {
        lines.add(line.get());
      }
      return lines;
    }
  }
}
