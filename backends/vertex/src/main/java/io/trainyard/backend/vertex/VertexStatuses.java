package io.trainyard.backend.vertex;

import com.google.cloud.aiplatform.v1.CustomJob;
import com.google.protobuf.Timestamp;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.BackendStatus;
import java.time.Instant;
import java.util.Locale;

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
 *   <tr><td>FAILED by a Spot VM preemption, job may restart</td><td>REFUSED, one restart: the
 *       gateway runs the job again as its next attempt</td></tr>
 *   <tr><td>FAILED by a Spot VM preemption, restartPolicy Never</td><td>FAILED, saying
 *       so</td></tr>
 * </table>
 *
 * <p><b>Spot preemption.</b> A job on Spot VMs ({@code scheduling.strategy: SPOT}) can lose a
 * worker's VM at any time. While the job runs, Vertex restarts the worker itself when {@code
 * scheduling.restartJobOnWorkerRestart} is set — which the job mapper sets exactly when the spec's
 * {@code restartPolicy} is not {@code Never} — and the job stays RUNNING
 * (https://cloud.google.com/vertex-ai/docs/training/understanding-training-service, "Restart
 * workers during the training job"). When the job fails because of it (its error's code is {@code
 * UNAVAILABLE} (14) or its message says preempted), the failure is the capacity's, not the job's:
 * under a restart policy that restarts (OnFailure, ExitCode — a preemption's SIGTERM is a retryable
 * exit — Always) the attempt ends REFUSED and counts one restart, so the gateway runs the job again
 * as its next attempt, as SageMaker's interruption counts as a restart; under {@code Never} the job
 * fails and the reason says it was preempted.
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
    if (phase == BackendPhase.FAILED && preempted(job)) {
      var restarts = job.getJobSpec().getScheduling().getRestartJobOnWorkerRestart();
      var why = "Spot VM preempted (" + reason(job, phase) + ")";
      return restarts
          ? new BackendStatus(
              BackendPhase.REFUSED,
              why + ": counts as a restart under the job's restartPolicy, run again",
              1,
              started,
              ended)
          : new BackendStatus(
              BackendPhase.FAILED, why + "; restartPolicy Never: not run again", 0, started, ended);
    }
    return new BackendStatus(phase, reason(job, phase), 0, started, ended);
  }

  /** A Spot VM job whose failure is its VM's preemption (UNAVAILABLE, or the message says so). */
  static boolean preempted(CustomJob job) {
    if (job.getJobSpec().getScheduling().getStrategy()
            != com.google.cloud.aiplatform.v1.Scheduling.Strategy.SPOT
        || !job.hasError()) {
      return false;
    }
    var error = job.getError();
    return error.getCode() == com.google.rpc.Code.UNAVAILABLE_VALUE
        || error.getMessage().toLowerCase(Locale.ROOT).contains("preempt");
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
