package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.trainyard.spi.BackendPhase;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The operator's status, as its controllers leave it, mapped to phases: a table. */
class OperatorStatusTest {
  private static final String CREATED =
      "{type: Created, status: 'True', reason: PyTorchJobCreated, message: 'PyTorchJob j is"
          + " created.', lastTransitionTime: '2026-01-05T10:00:00Z'}";
  private static final String RUNNING =
      "{type: Running, status: 'True', reason: PyTorchJobRunning, message: 'PyTorchJob j is"
          + " running.', lastTransitionTime: '2026-01-05T10:01:00Z'}";
  private static final String RUN_ENDED =
      "{type: Running, status: 'False', reason: PyTorchJobRunning, message: 'PyTorchJob j is"
          + " running.', lastTransitionTime: '2026-01-05T10:01:00Z'}";
  private static final String RESTARTING =
      "{type: Restarting, status: 'True', reason: PyTorchJobRestarting, message: 'PyTorchJob j is"
          + " restarting because 1 Worker replica(s) failed.', lastTransitionTime:"
          + " '2026-01-05T10:02:00Z'}";
  private static final String SUCCEEDED =
      "{type: Succeeded, status: 'True', reason: PyTorchJobSucceeded, message: 'PyTorchJob j is"
          + " successfully completed.', lastTransitionTime: '2026-01-05T11:00:00Z'}";
  private static final String FAILED =
      "{type: Failed, status: 'True', reason: PyTorchJobFailed, message: 'PyTorchJob j is failed"
          + " because 2 Worker replica(s) failed.', lastTransitionTime: '2026-01-05T11:00:00Z'}";
  private static final String SUSPENDED =
      "{type: Suspended, status: 'True', reason: PyTorchJobSuspended, message: 'PyTorchJob j is"
          + " suspended.', lastTransitionTime: '2026-01-05T12:00:00Z'}";
  private static final String RESUMED =
      "{type: Suspended, status: 'False', reason: PyTorchJobResumed, message: 'PyTorchJob j is"
          + " resumed.', lastTransitionTime: '2026-01-05T12:05:00Z'}";

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "no status yet | {} | ADMITTING | | 0",
        "created | {conditions: [C]} | ADMITTING | PyTorchJob j is created. | 0",
        "running | {conditions: [C, R]} | RUNNING | PyTorchJob j is running. | 0",
        "restarting | {conditions: [C, X], replicaStatuses: {Worker: {failed: 1}}} | RUNNING"
            + " | PyTorchJob j is restarting because 1 Worker replica(s) failed. | 1",
        "restarting, no count yet | {conditions: [C, X]} | RUNNING"
            + " | PyTorchJob j is restarting because 1 Worker replica(s) failed. | 1",
        "succeeded | {conditions: [C, r, S], completionTime: '2026-01-05T11:00:05Z'} | SUCCEEDED"
            + " | PyTorchJob j is successfully completed. | 0",
        "failed | {conditions: [C, r, F], replicaStatuses: {Master: {active: 1}, Worker: {failed:"
            + " 2}}} | FAILED | PyTorchJob j is failed because 2 Worker replica(s) failed. | 2",
        "suspended by Kueue | {conditions: [C, P]} | SUSPENDED | PyTorchJob j is suspended. | 0",
        "resumed, not yet running | {conditions: [C, Q]} | ADMITTING"
            + " | PyTorchJob j is created. | 0",
      })
  void conditionsMapToPhases(
      String name, String status, BackendPhase phase, String reason, int restarts) {
    var result = OperatorStatus.of(job(status, null));
    assertThat(result.phase()).isEqualTo(phase);
    assertThat(result.reason()).isEqualTo(reason);
    assertThat(result.restarts()).isEqualTo(restarts);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "running | {conditions: [C, R]} | 2026-01-05T10:01:00Z | ",
        "succeeded: started when it ran | {conditions: [C, r, S], completionTime:"
            + " '2026-01-05T11:00:05Z'} | 2026-01-05T10:01:00Z | 2026-01-05T11:00:05Z",
        "failed without completionTime | {conditions: [C, r, F]} | 2026-01-05T10:01:00Z"
            + " | 2026-01-05T11:00:00Z",
        "not started | {conditions: [C]} | | ",
      })
  void startAndEndTimes(String name, String status, Instant started, Instant ended) {
    var result = OperatorStatus.of(job(status, null));
    assertThat(result.startedAt()).isEqualTo(started);
    assertThat(result.endedAt()).isEqualTo(ended);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "from creation | {conditions: [C]} | 2026-01-05T09:59:58Z",
        "from the latest suspension | {conditions: [C, r, P]} | 2026-01-05T12:00:00Z",
        "a suspension that ended does not count | {conditions: [C, Q]} | 2026-01-05T09:59:58Z",
      })
  void anAttemptWaitsSince(String name, String status, Instant since) {
    assertThat(OperatorStatus.waitingSince(job(status, null))).isEqualTo(since);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "a live job being deleted | {conditions: [C, R]} | STOPPED",
        "a finished job being deleted keeps its end | {conditions: [C, r, S]} | SUCCEEDED",
      })
  void deletion(String name, String status, BackendPhase phase) {
    assertThat(OperatorStatus.of(job(status, "2026-01-05T13:00:00Z")).phase()).isEqualTo(phase);
  }

  private static GenericKubernetesResource job(String status, String deletionTimestamp) {
    var expanded =
        status
            .replace("[C", "[" + CREATED)
            .replace(", R]", ", " + RUNNING + "]")
            .replace(", r,", ", " + RUN_ENDED + ",")
            .replace(", X]", ", " + RESTARTING + "]")
            .replace(", S]", ", " + SUCCEEDED + "]")
            .replace(", F]", ", " + FAILED + "]")
            .replace(", P]", ", " + SUSPENDED + "]")
            .replace(", Q]", ", " + RESUMED + "]");
    var yaml =
        "apiVersion: kubeflow.org/v1\nkind: PyTorchJob\nmetadata: {name: j, namespace: n,"
            + " creationTimestamp: '2026-01-05T09:59:58Z'"
            + (deletionTimestamp == null ? "" : ", deletionTimestamp: '" + deletionTimestamp + "'")
            + "}\nstatus: "
            + expanded
            + "\n";
    return Serialization.unmarshal(yaml, GenericKubernetesResource.class);
  }
}
