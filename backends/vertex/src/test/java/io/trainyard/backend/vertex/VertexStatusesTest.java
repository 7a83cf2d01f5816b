package io.trainyard.backend.vertex;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.aiplatform.v1.CustomJob;
import com.google.cloud.aiplatform.v1.JobState;
import com.google.protobuf.Timestamp;
import io.trainyard.spi.BackendPhase;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class VertexStatusesTest {
  private static final Timestamp START = Timestamp.newBuilder().setSeconds(1_767_261_600).build();
  private static final Timestamp END = Timestamp.newBuilder().setSeconds(1_767_265_200).build();

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "JOB_STATE_UNSPECIFIED, RUNNING",
    "JOB_STATE_QUEUED, ADMITTING",
    "JOB_STATE_PENDING, ADMITTING",
    "JOB_STATE_RUNNING, RUNNING",
    "JOB_STATE_SUCCEEDED, SUCCEEDED",
    "JOB_STATE_FAILED, FAILED",
    "JOB_STATE_CANCELLING, RUNNING",
    "JOB_STATE_CANCELLED, STOPPED",
    "JOB_STATE_PAUSED, SUSPENDED",
    "JOB_STATE_EXPIRED, FAILED",
    "JOB_STATE_UPDATING, RUNNING",
    "JOB_STATE_PARTIALLY_SUCCEEDED, FAILED",
  })
  void everyJobStateHasAPhase(JobState state, BackendPhase phase) {
    var job = CustomJob.newBuilder().setState(state).setStartTime(START).setEndTime(END).build();

    var status = VertexStatuses.of(job);

    assertThat(status.phase()).isEqualTo(phase);
    assertThat(status.startedAt()).isEqualTo(Instant.ofEpochSecond(START.getSeconds()));
    assertThat(status.endedAt())
        .isEqualTo(phase.isTerminal() ? Instant.ofEpochSecond(END.getSeconds()) : null);
  }

  /** A state this client version does not know must never end a job. */
  @ParameterizedTest
  @EnumSource(JobState.class)
  void noStateIsLeftUnmapped(JobState state) {
    var builder = CustomJob.newBuilder();
    if (state == JobState.UNRECOGNIZED) {
      builder.setStateValue(999);
    } else {
      builder.setState(state);
    }

    assertThat(VertexStatuses.of(builder.build()).phase()).isNotNull();
  }

  /**
   * Spot preemption onto the job's restart policy ({@code restartJobOnWorkerRestart} is set from
   * it): restartable → REFUSED with one restart (run again); Never → FAILED. Only Spot jobs, and
   * only a failure Vertex attributes to the VM (UNAVAILABLE, or "preempted" in its words).
   */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "spot, restarts, UNAVAILABLE            | SPOT     | true  | 14 | VM gone                  | REFUSED | 1",
        "spot, restarts, preempted in the words | SPOT     | true  | 13 | Worker was preempted     | REFUSED | 1",
        "spot, restartPolicy Never              | SPOT     | false | 14 | VM gone                  | FAILED  | 0",
        "spot, the job's own failure            | SPOT     | true  | 13 | exited with 1            | FAILED  | 0",
        "on demand, UNAVAILABLE                 | STANDARD | true  | 14 | VM gone                  | FAILED  | 0",
      })
  void aSpotPreemptionFollowsTheRestartPolicy(
      String rule,
      com.google.cloud.aiplatform.v1.Scheduling.Strategy strategy,
      boolean restartOnWorkerRestart,
      int code,
      String message,
      BackendPhase phase,
      int restarts) {
    var job =
        CustomJob.newBuilder()
            .setState(JobState.JOB_STATE_FAILED)
            .setStartTime(START)
            .setEndTime(END)
            .setJobSpec(
                com.google.cloud.aiplatform.v1.CustomJobSpec.newBuilder()
                    .setScheduling(
                        com.google.cloud.aiplatform.v1.Scheduling.newBuilder()
                            .setStrategy(strategy)
                            .setRestartJobOnWorkerRestart(restartOnWorkerRestart)))
            .setError(com.google.rpc.Status.newBuilder().setCode(code).setMessage(message))
            .build();
    var status = VertexStatuses.of(job);
    assertThat(status.phase()).as(rule).isEqualTo(phase);
    assertThat(status.restarts()).as(rule).isEqualTo(restarts);
    assertThat(status.reason()).as(rule).contains(message);
  }

  @Test
  void aFailureKeepsVertexsError() {
    var job =
        CustomJob.newBuilder()
            .setState(JobState.JOB_STATE_FAILED)
            .setError(
                com.google.rpc.Status.newBuilder()
                    .setCode(3)
                    .setMessage("The replica workerpool0-0 exited with a non-zero status of 1."))
            .build();

    assertThat(VertexStatuses.of(job).reason())
        .isEqualTo("The replica workerpool0-0 exited with a non-zero status of 1.");
  }

  @Test
  void aJobNotYetStartedIsAdmittingWhileCancelling() {
    var job = CustomJob.newBuilder().setState(JobState.JOB_STATE_CANCELLING).build();

    assertThat(VertexStatuses.of(job).phase()).isEqualTo(BackendPhase.ADMITTING);
  }
}
