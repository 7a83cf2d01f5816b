package io.trainyard.backend.sagemaker;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.BackendPhase;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.sagemaker.model.DescribeTrainingJobResponse;
import software.amazon.awssdk.services.sagemaker.model.SecondaryStatusTransition;

class SageMakerStatusesTest {
  private static final Instant START = Instant.parse("2026-01-01T10:00:00Z");
  private static final Instant END = Instant.parse("2026-01-01T11:00:00Z");

  @ParameterizedTest(name = "{0}/{1} -> {2}")
  @CsvSource({
    "InProgress, Starting, ADMITTING",
    "InProgress, Pending, ADMITTING",
    "InProgress, LaunchingMLInstances, ADMITTING",
    "InProgress, PreparingTrainingStack, ADMITTING",
    "InProgress, Downloading, ADMITTING",
    "InProgress, DownloadingTrainingImage, ADMITTING",
    "InProgress, Training, RUNNING",
    "InProgress, Uploading, RUNNING",
    "InProgress, Restarting, RUNNING",
    "InProgress, Interrupted, SUSPENDED",
    "Stopping, Stopping, RUNNING",
    "Completed, Completed, SUCCEEDED",
    "Failed, Failed, FAILED",
    "Stopped, Stopped, STOPPED",
    "Stopped, MaxRuntimeExceeded, FAILED",
    "Stopped, MaxWaitTimeExceeded, FAILED",
  })
  void statusAndSecondaryStatusMapOntoPhases(String status, String secondary, BackendPhase phase) {
    var job =
        DescribeTrainingJobResponse.builder()
            .trainingJobStatus(status)
            .secondaryStatus(secondary)
            .trainingStartTime(START)
            .trainingEndTime(END)
            .build();

    var mapped = SageMakerStatuses.of(job);

    assertThat(mapped.phase()).isEqualTo(phase);
    assertThat(mapped.startedAt()).isEqualTo(START);
    assertThat(mapped.endedAt()).isEqualTo(phase.isTerminal() ? END : null);
  }

  @Test
  void aFailureKeepsSageMakersReason() {
    var job =
        DescribeTrainingJobResponse.builder()
            .trainingJobStatus("Failed")
            .secondaryStatus("Failed")
            .failureReason("AlgorithmError: ExecuteUserScriptError: exit code 1")
            .build();

    assertThat(SageMakerStatuses.of(job).reason())
        .isEqualTo("AlgorithmError: ExecuteUserScriptError: exit code 1");
  }

  @Test
  void hittingMaxRuntimeSaysSo() {
    var job =
        DescribeTrainingJobResponse.builder()
            .trainingJobStatus("Stopped")
            .secondaryStatus("MaxRuntimeExceeded")
            .secondaryStatusTransitions(
                SecondaryStatusTransition.builder()
                    .status("MaxRuntimeExceeded")
                    .statusMessage("Job stopped because it exceeded MaxRuntimeInSeconds")
                    .build())
            .build();

    assertThat(SageMakerStatuses.of(job).reason())
        .isEqualTo("MaxRuntimeExceeded: Job stopped because it exceeded MaxRuntimeInSeconds");
  }

  @Test
  void aStopBeforeStartIsStillAdmittingAndRestartsAreCounted() {
    var job =
        DescribeTrainingJobResponse.builder()
            .trainingJobStatus("Stopping")
            .secondaryStatus("Stopping")
            .secondaryStatusTransitions(
                SecondaryStatusTransition.builder().status("Restarting").build(),
                SecondaryStatusTransition.builder().status("Restarting").build())
            .build();

    var mapped = SageMakerStatuses.of(job);
    assertThat(mapped.phase()).isEqualTo(BackendPhase.ADMITTING);
    assertThat(mapped.restarts()).isEqualTo(2);
  }

  @Test
  void aSpotInterruptionIsARestartAndSaysSo() {
    var interrupted =
        DescribeTrainingJobResponse.builder()
            .trainingJobStatus("InProgress")
            .secondaryStatus("Interrupted")
            .trainingStartTime(START)
            .secondaryStatusTransitions(
                SecondaryStatusTransition.builder().status("Training").build(),
                SecondaryStatusTransition.builder()
                    .status("Interrupted")
                    .statusMessage("The spot instance was reclaimed")
                    .build())
            .build();

    var mapped = SageMakerStatuses.of(interrupted);
    assertThat(mapped.phase()).isEqualTo(BackendPhase.SUSPENDED);
    assertThat(mapped.restarts()).isEqualTo(1);
    assertThat(mapped.reason())
        .isEqualTo("spot capacity reclaimed 1 time; The spot instance was reclaimed");
  }

  @Test
  void spotCapacityThatNeverCameFailsOverAndOneThatLeftFails() {
    var neverStarted =
        DescribeTrainingJobResponse.builder()
            .trainingJobStatus("Stopped")
            .secondaryStatus("MaxWaitTimeExceeded")
            .build();
    var refused = SageMakerStatuses.of(neverStarted);
    assertThat(refused.phase()).isEqualTo(BackendPhase.REFUSED);
    assertThat(refused.reason()).isEqualTo("no managed spot capacity within MaxWaitTimeInSeconds");

    var leftMidway =
        DescribeTrainingJobResponse.builder()
            .trainingJobStatus("Stopped")
            .secondaryStatus("MaxWaitTimeExceeded")
            .trainingStartTime(START)
            .trainingEndTime(END)
            .secondaryStatusTransitions(
                SecondaryStatusTransition.builder().status("Training").build(),
                SecondaryStatusTransition.builder().status("Interrupted").build(),
                SecondaryStatusTransition.builder().status("Training").build(),
                SecondaryStatusTransition.builder().status("Interrupted").build(),
                SecondaryStatusTransition.builder()
                    .status("MaxWaitTimeExceeded")
                    .statusMessage("Job stopped because it exceeded MaxWaitTimeInSeconds")
                    .build())
            .build();
    var failed = SageMakerStatuses.of(leftMidway);
    assertThat(failed.phase()).isEqualTo(BackendPhase.FAILED);
    assertThat(failed.restarts()).isEqualTo(2);
    assertThat(failed.reason())
        .isEqualTo(
            "spot capacity reclaimed 2 times; MaxWaitTimeExceeded: Job stopped because it"
                + " exceeded MaxWaitTimeInSeconds");
  }
}
