package io.trainyard.backend.azureml;

import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.BackendStatus;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

/**
 * Maps a job's {@code properties.status} ({@code JobStatus} of API version {@value
 * AzureMlArm#API_VERSION}) onto Trainyard's phases. Pure.
 *
 * <table>
 *   <tr><th>status</th><th>phase</th></tr>
 *   <tr><td>NotStarted, Starting, Provisioning, Preparing, Queued, Scheduled</td>
 *       <td>ADMITTING</td></tr>
 *   <tr><td>Running, Finalizing</td><td>RUNNING</td></tr>
 *   <tr><td>CancelRequested</td><td>RUNNING (the job stops when Azure ML says Canceled)</td></tr>
 *   <tr><td>Paused</td><td>SUSPENDED</td></tr>
 *   <tr><td>Completed</td><td>SUCCEEDED</td></tr>
 *   <tr><td>Failed</td><td>FAILED</td></tr>
 *   <tr><td>NotResponding</td><td>FAILED: Azure ML counts it as ended</td></tr>
 *   <tr><td>Canceled</td><td>STOPPED</td></tr>
 *   <tr><td>Unknown, or a value this table lacks</td><td>ADMITTING, with the value as reason</td>
 *   </tr>
 * </table>
 */
final class AzureMlStatuses {
  /** Every value of {@code JobStatus}, for the table test. */
  static final List<String> KNOWN =
      List.of(
          "NotStarted",
          "Starting",
          "Provisioning",
          "Preparing",
          "Queued",
          "Scheduled",
          "Running",
          "Finalizing",
          "CancelRequested",
          "Completed",
          "Failed",
          "Canceled",
          "NotResponding",
          "Paused",
          "Unknown");

  private AzureMlStatuses() {}

  static BackendPhase phase(String status) {
    return switch (status == null ? "" : status) {
      case "NotStarted", "Starting", "Provisioning", "Preparing", "Queued", "Scheduled" ->
          BackendPhase.ADMITTING;
      case "Running", "Finalizing", "CancelRequested" -> BackendPhase.RUNNING;
      case "Paused" -> BackendPhase.SUSPENDED;
      case "Completed" -> BackendPhase.SUCCEEDED;
      case "Failed", "NotResponding" -> BackendPhase.FAILED;
      case "Canceled" -> BackendPhase.STOPPED;
      default -> BackendPhase.ADMITTING;
    };
  }

  /** A job GET's body as a status. */
  static BackendStatus of(Map<String, Object> job) {
    var properties = AzureJson.object(job, "properties");
    var status = AzureJson.string(properties, "status");
    var phase = phase(status);
    var modified = instant(AzureJson.string(AzureJson.object(job, "systemData"), "lastModifiedAt"));
    return new BackendStatus(
        phase, reason(status, phase), 0, null, phase.isTerminal() ? modified : null);
  }

  private static String reason(String status, BackendPhase phase) {
    return switch (phase) {
      case FAILED ->
          "Azure ML job " + status + "; its output logs (user_logs/std_log*.txt) say why";
      case ADMITTING ->
          status != null && (status.equals("Unknown") || !KNOWN.contains(status))
              ? "Azure ML status " + status
              : null;
      default -> null;
    };
  }

  private static Instant instant(String text) {
    if (text == null) {
      return null;
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      return java.time.OffsetDateTime.parse(text).toInstant();
    }
  }
}
