package io.trainyard.backend.vertex;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.api.MonitoredResource;
import com.google.logging.v2.LogEntry;
import com.google.protobuf.Struct;
import com.google.protobuf.Timestamp;
import com.google.protobuf.Value;
import io.trainyard.spi.LogLine;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class VertexLogEntriesTest {
  private static final Instant T = Instant.parse("2026-12-01T10:15:30.5Z");

  private static LogEntry.Builder entry(String task) {
    var resource = MonitoredResource.newBuilder().setType("ml_job").putLabels("job_id", "1");
    if (task != null) {
      resource.putLabels("task_name", task);
    }
    return LogEntry.newBuilder()
        .setResource(resource)
        .setTimestamp(Timestamp.newBuilder().setSeconds(T.getEpochSecond()).setNanos(500_000_000));
  }

  @Test
  void aTextPayloadGivesOneLineALineOfItsOwnTask() {
    var lines =
        VertexLogEntries.lines(
            entry("workerpool1-0").setTextPayload("loss 0.3\n").build(), t -> "worker-0");

    assertThat(lines).containsExactly(new LogLine("worker-0", T, "loss 0.3"));
  }

  @Test
  void aJsonPayloadGivesItsMessageAndWithoutOneItsJson() {
    var message =
        Struct.newBuilder()
            .putFields("message", Value.newBuilder().setStringValue("epoch 2").build())
            .putFields("levelname", Value.newBuilder().setStringValue("INFO").build());
    var other = Struct.newBuilder().putFields("step", Value.newBuilder().setNumberValue(7).build());

    assertThat(
            VertexLogEntries.lines(entry("workerpool0-0").setJsonPayload(message).build(), t -> t))
        .extracting(LogLine::text)
        .containsExactly("epoch 2");
    assertThat(VertexLogEntries.lines(entry("workerpool0-0").setJsonPayload(other).build(), t -> t))
        .extracting(LogLine::text)
        .containsExactly("{\"step\":7.0}");
  }

  @Test
  void severalLinesInOneEntryAreSeveralLines() {
    var lines =
        VertexLogEntries.lines(
            entry("workerpool0-0").setTextPayload("Traceback:\r\n  x\n\nError").build(), t -> t);

    assertThat(lines).extracting(LogLine::text).containsExactly("Traceback:", "  x", "", "Error");
  }

  @Test
  void theTaskComesFromTheResourceElseFromOlderLabels() {
    var legacy =
        entry(null).putLabels("ml.googleapis.com/task_name", "workerpool1-1").setTextPayload("x");

    assertThat(VertexLogEntries.task(legacy.build())).isEqualTo("workerpool1-1");
    assertThat(VertexLogEntries.task(entry(null).setTextPayload("x").build())).isNull();
    assertThat(VertexLogEntries.lines(entry(null).setTextPayload("Job queued").build(), t -> t))
        .extracting(LogLine::replica)
        .containsExactly("vertex");
  }

  @Test
  void anAuditEntryIsNotALine() {
    assertThat(
            VertexLogEntries.lines(
                entry(null).setProtoPayload(com.google.protobuf.Any.getDefaultInstance()).build(),
                t -> t))
        .isEmpty();
  }
}
