package io.trainyard.backend.vertex;

import com.google.cloud.aiplatform.v1.CustomJob;
import com.google.protobuf.Timestamp;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.BackendStatus;
import java.time.Instant;

/**
 * Maps every {@code JobState} onto Trainyard's phases. Pure.
 *
 * <table>
 *   <tr><th>JobState</th><th>phase</th></tr>
 *   <tr><td>QUEUED, PENDING</td><td>ADMITTING</td></tr>
 *   <tr><td>RUNNING, UPDATING</td><td>RUNNING</td></tr>
 *   <tr><td>CANCELLING</td><td>RUNNING once started, else ADMITTING</td></tr>
 *   <tr><td>PAUSED</td><td>SUSPENDED</td></tr>
 *   <tr><td>SUCCEEDED</td><td>SUCCEEDED</td></tr>
 *   <tr><td>FAILED</td><td>FAILED, with the job's error</td></tr>
 *   <tr><td>EXPIRED</td><td>FAILED: it never got resources in time</td></tr>
 *   <tr><td>PARTIALLY_SUCCEEDED</td><td>FAILED: a training job that partly ran did not finish</td></tr>
 *   <tr><td>CANCELLED</td><td>STOPPED</td></tr>
 *   <tr><td>UNSPECIFIED, unknown</td><td>RUNNING once started, else ADMITTING: never ended on a
 *       state we cannot read</td></tr>
 * </table>
 */
final class VertexStatuses {
  private VertexStatuses() {}

  static BackendStatus of(CustomJob job) {
    var started = job.hasStartTime() ? instant(job.getStartTime()) : null;
    var live = started != null ? BackendPhase.RUNNING : BackendPhase.ADMITTING;
    var phase =
        switch (job.getState()) {
          case JOB_STATE_QUEUED, JOB_STATE_PENDING -> BackendPhase.ADMITTING;
          case JOB_STATE_RUNNING, JOB_STATE_UPDATING -> BackendPhase.RUNNING;
          case JOB_STATE_PAUSED -> BackendPhase.SUSPENDED;
          case JOB_STATE_SUCCEEDED -> BackendPhase.SUCCEEDED;
          case JOB_STATE_FAILED, JOB_STATE_EXPIRED, JOB_STATE_PARTIALLY_SUCCEEDED ->
              BackendPhase.FAILED;
          case JOB_STATE_CANCELLED -> BackendPhase.STOPPED;
          case JOB_STATE_CANCELLING, JOB_STATE_UNSPECIFIED, UNRECOGNIZED -> live;
        };
    var ended = phase.isTerminal() && job.hasEndTime() ? instant(job.getEndTime()) : null;
    return new BackendStatus(phase, reason(job, phase), 0, started, ended);
  }

  private static String reason(CustomJob job, BackendPhase phase) {
    if (job.hasError() && !job.getError().getMessage().isBlank()) {
      return job.getError().getMessage();
    }
    return switch (job.getState()) {
      case JOB_STATE_EXPIRED -> "Vertex expired the job before it could run (JOB_STATE_EXPIRED)";
      case JOB_STATE_PARTIALLY_SUCCEEDED -> "Vertex reports the job partially succeeded";
      default -> phase == BackendPhase.FAILED ? job.getState().name() : null;
    };
  }

  private static Instant instant(Timestamp t) {
    return Instant.ofEpochSecond(t.getSeconds(), t.getNanos());
  }
}
