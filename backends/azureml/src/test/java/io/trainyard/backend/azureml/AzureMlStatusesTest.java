package io.trainyard.backend.azureml;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.BackendPhase;
import java.time.Instant;
import java.util.HashSet;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AzureMlStatusesTest {
  private static final String MODIFIED = "2026-01-01T11:00:00Z";

  /** Every JobStatus value of the API, and the phase it means. */
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "NotStarted, ADMITTING",
    "Starting, ADMITTING",
    "Provisioning, ADMITTING",
    "Preparing, ADMITTING",
    "Queued, ADMITTING",
    "Scheduled, ADMITTING",
    "Running, RUNNING",
    "Finalizing, RUNNING",
    "CancelRequested, RUNNING",
    "Paused, SUSPENDED",
    "Completed, SUCCEEDED",
    "Failed, FAILED",
    "NotResponding, FAILED",
    "Canceled, STOPPED",
    "Unknown, ADMITTING",
  })
  void everyStatusMapsOntoAPhase(String status, BackendPhase phase) {
    var mapped = AzureMlStatuses.of(job(status));

    assertThat(mapped.phase()).isEqualTo(phase);
    assertThat(mapped.endedAt()).isEqualTo(phase.isTerminal() ? Instant.parse(MODIFIED) : null);
  }

  /** The table above leaves no value of the API out. */
  @Test
  void theTableCoversEveryKnownStatus() throws Exception {
    var source =
        getClass().getDeclaredMethod("everyStatusMapsOntoAPhase", String.class, BackendPhase.class);
    var rows = source.getAnnotation(CsvSource.class).value();
    var tested = new HashSet<String>();
    for (var row : rows) {
      tested.add(row.split(",")[0].trim());
    }

    assertThat(tested).containsExactlyInAnyOrderElementsOf(AzureMlStatuses.KNOWN);
  }

  @Test
  void aFailureSaysWhereToLookAndAnUnknownStatusIsShown() {
    assertThat(AzureMlStatuses.of(job("Failed")).reason()).contains("user_logs/std_log");
    assertThat(AzureMlStatuses.of(job("Unknown")).reason()).isEqualTo("Azure ML status Unknown");
    assertThat(AzureMlStatuses.of(job("Hibernating")).reason())
        .isEqualTo("Azure ML status Hibernating");
    assertThat(AzureMlStatuses.of(job("Running")).reason()).isNull();
  }

  private static Map<String, Object> job(String status) {
    return Map.of(
        "name",
        "ty-x-a1",
        "properties",
        Map.of("jobType", "Command", "status", status),
        "systemData",
        Map.of("lastModifiedAt", MODIFIED));
  }
}
