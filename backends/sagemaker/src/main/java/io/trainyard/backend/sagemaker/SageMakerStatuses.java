package io.trainyard.backend.sagemaker;

import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.BackendStatus;
import java.util.List;
import java.util.Set;
import software.amazon.awssdk.services.sagemaker.model.DescribeTrainingJobResponse;
import software.amazon.awssdk.services.sagemaker.model.SecondaryStatusTransition;

/**
 * Maps a training job's status and secondary status onto Trainyard's phases. Pure.
 *
 * <table>
 *   <tr><th>TrainingJobStatus</th><th>SecondaryStatus</th><th>phase</th></tr>
 *   <tr><td>InProgress</td><td>Starting, Pending, LaunchingMLInstances, PreparingTrainingStack,
 *       Downloading, DownloadingTrainingImage</td><td>ADMITTING</td></tr>
 *   <tr><td>InProgress</td><td>Training, Uploading, Updating, Restarting</td><td>RUNNING</td></tr>
 *   <tr><td>InProgress</td><td>Interrupted (spot capacity reclaimed)</td><td>SUSPENDED</td></tr>
 *   <tr><td>Stopping</td><td>any</td><td>RUNNING once started, else ADMITTING</td></tr>
 *   <tr><td>Completed</td><td>any</td><td>SUCCEEDED</td></tr>
 *   <tr><td>Failed</td><td>any</td><td>FAILED, with FailureReason</td></tr>
 *   <tr><td>Stopped</td><td>MaxWaitTimeExceeded, never started</td><td>REFUSED: managed spot found
 *       no capacity in time, so the job fails over to its next offer</td></tr>
 *   <tr><td>Stopped</td><td>MaxRuntimeExceeded, MaxWaitTimeExceeded</td><td>FAILED: nobody asked
 *       for the stop</td></tr>
 *   <tr><td>Stopped</td><td>other</td><td>STOPPED</td></tr>
 * </table>
 *
 * <p>A spot interruption (secondary status {@code Interrupted}) is a restart: SageMaker resumes the
 * job on new capacity from its checkpoint, as it retries an internal error under the job's restart
 * policy ({@code RetryStrategy}), so both count in {@code restarts} and a job that ends after
 * interruptions says how many there were.
 */
final class SageMakerStatuses {
  private static final Set<String> ADMITTING =
      Set.of(
          "Starting",
          "Pending",
          "LaunchingMLInstances",
          "PreparingTrainingStack",
          "Downloading",
          "DownloadingTrainingImage");
  private static final Set<String> LIMITS = Set.of("MaxRuntimeExceeded", "MaxWaitTimeExceeded");

  private SageMakerStatuses() {}

  static BackendStatus of(DescribeTrainingJobResponse job) {
    var status = job.trainingJobStatusAsString();
    var secondary = job.secondaryStatusAsString();
    var started = job.trainingStartTime();
    var restarts = restarts(job.secondaryStatusTransitions());
    var phase =
        switch (status == null ? "" : status) {
          case "Completed" -> BackendPhase.SUCCEEDED;
          case "Failed" -> BackendPhase.FAILED;
          case "Stopped" ->
              "MaxWaitTimeExceeded".equals(secondary) && started == null
                  ? BackendPhase.REFUSED
                  : LIMITS.contains(secondary) ? BackendPhase.FAILED : BackendPhase.STOPPED;
          case "Stopping" -> started != null ? BackendPhase.RUNNING : BackendPhase.ADMITTING;
          default -> inProgress(secondary);
        };
    var ended = phase.isTerminal() ? job.trainingEndTime() : null;
    var reason = reason(job, phase);
    var interruptions = interruptions(job.secondaryStatusTransitions());
    if (phase == BackendPhase.REFUSED) {
      reason = "no managed spot capacity within MaxWaitTimeInSeconds";
    } else if (interruptions > 0
        && (phase == BackendPhase.FAILED || phase == BackendPhase.SUSPENDED)) {
      reason =
          "spot capacity reclaimed "
              + interruptions
              + (interruptions == 1 ? " time" : " times")
              + (reason == null ? "" : "; " + reason);
    }
    return new BackendStatus(phase, reason, restarts, started, ended);
  }

  private static int interruptions(List<SecondaryStatusTransition> transitions) {
    return (int) transitions.stream().filter(t -> "Interrupted".equals(t.statusAsString())).count();
  }

  private static BackendPhase inProgress(String secondary) {
    if (secondary == null || ADMITTING.contains(secondary)) {
      return BackendPhase.ADMITTING;
    }
    return "Interrupted".equals(secondary) ? BackendPhase.SUSPENDED : BackendPhase.RUNNING;
  }

  /** FailureReason when there is one, else the latest secondary status's own message. */
  private static String reason(DescribeTrainingJobResponse job, BackendPhase phase) {
    if (job.failureReason() != null && !job.failureReason().isBlank()) {
      return job.failureReason();
    }
    var transitions = job.secondaryStatusTransitions();
    var last = transitions.isEmpty() ? null : transitions.get(transitions.size() - 1);
    if (phase == BackendPhase.FAILED && last == null) {
      return job.secondaryStatusAsString();
    }
    if (last == null) {
      return null;
    }
    var message = last.statusMessage();
    return phase == BackendPhase.FAILED
        ? last.statusAsString() + (message == null ? "" : ": " + message)
        : message;
  }

  private static int restarts(List<SecondaryStatusTransition> transitions) {
    return (int)
        transitions.stream()
            .filter(
                t ->
                    "Restarting".equals(t.statusAsString())
                        || "Interrupted".equals(t.statusAsString()))
            .count();
  }
}
