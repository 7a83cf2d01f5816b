package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.trainyard.spi.BackendPhase;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A TrainJob's status, as Kubeflow Trainer's controller leaves it (metav1.Conditions copied from
 * its JobSet, jobsStatus from the JobSet's replicatedJobsStatus), mapped to phases: a table.
 */
class TrainJobStatusTest {
  private static final String SUSPENDED =
      "{type: Suspended, status: 'True', reason: Suspended, message: TrainJob is suspended,"
          + " lastTransitionTime: '2026-01-05T10:00:00Z'}";
  private static final String RESUMED =
      "{type: Suspended, status: 'False', reason: Resumed, message: TrainJob is resumed,"
          + " lastTransitionTime: '2026-01-05T10:05:00Z'}";
  private static final String COMPLETE =
      "{type: Complete, status: 'True', reason: AllJobsCompleted, message: jobset completed"
          + " successfully, lastTransitionTime: '2026-01-05T11:00:00Z'}";
  private static final String FAILED =
      "{type: Failed, status: 'True', reason: FailedJobs, message: jobset failed due to one or"
          + " more job failures, lastTransitionTime: '2026-01-05T11:00:00Z'}";
  private static final String NO_RUNTIME =
      "{type: Failed, status: 'True', reason: TrainingRuntimeNotSupported, message: 'unsupported"
          + " runtime: ClusterTrainingRuntime.trainer.kubeflow.org', lastTransitionTime:"
          + " '2026-01-05T10:00:01Z'}";
  // Written by releases before v2.1, when building the JobSet failed.
  private static final String NOT_BUILT =
      "{type: Created, status: 'False', reason: JobsBuildFailed, message: Failed to build Jobs,"
          + " lastTransitionTime: '2026-01-05T10:00:01Z'}";

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "no status yet | {} | ADMITTING | | 0",
        "JobSet created, no child Job yet | {jobsStatus: [j0]} | ADMITTING | | 0",
        "held by Kueue | {conditions: [P], jobsStatus: [j0]} | SUSPENDED | TrainJob is suspended | 0",
        "resumed, Jobs not yet active | {conditions: [Q], jobsStatus: [j0]} | ADMITTING | | 0",
        "node Job active | {conditions: [Q], jobsStatus: [ja]} | RUNNING | jobs running: node | 0",
        "initializer done, node ready | {jobsStatus: [ji, jr]} | RUNNING | jobs running: node | 0",
        "a child Job failed and was recreated | {jobsStatus: [jx]} | RUNNING | jobs running: node"
            + " | 1",
        "complete | {conditions: [Q, S], jobsStatus: [js]} | SUCCEEDED | jobset completed"
            + " successfully | 0",
        "failed | {conditions: [F], jobsStatus: [jf]} | FAILED | jobset failed due to one or more"
            + " job failures | 1",
        "runtime not supported | {conditions: [N]} | FAILED | unsupported runtime:"
            + " ClusterTrainingRuntime.trainer.kubeflow.org | 0",
        "older controller could not build Jobs | {conditions: [B]} | ADMITTING | Failed to build"
            + " Jobs | 0",
      })
  void conditionsAndJobsMapToPhases(
      String name, String status, BackendPhase phase, String reason, int restarts) {
    var result = TrainJobStatus.of(job(status, null));
    assertThat(result.phase()).isEqualTo(phase);
    assertThat(result.reason()).isEqualTo(reason);
    assertThat(result.restarts()).isEqualTo(restarts);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "running, never suspended: since created | {jobsStatus: [ja]} | 2026-01-05T09:59:58Z | ",
        "running after Kueue let it go | {conditions: [Q], jobsStatus: [ja]}"
            + " | 2026-01-05T10:05:00Z | ",
        "complete | {conditions: [Q, S]} | 2026-01-05T10:05:00Z | 2026-01-05T11:00:00Z",
        "held: not started | {conditions: [P]} | | ",
      })
  void startAndEndTimes(String name, String status, Instant started, Instant ended) {
    var result = TrainJobStatus.of(job(status, null));
    assertThat(result.startedAt()).isEqualTo(started);
    assertThat(result.endedAt()).isEqualTo(ended);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "from creation | {} | 2026-01-05T09:59:58Z",
        "from the latest suspension | {conditions: [P]} | 2026-01-05T10:00:00Z",
        "a suspension that ended does not count | {conditions: [Q]} | 2026-01-05T09:59:58Z",
      })
  void anAttemptWaitsSince(String name, String status, Instant since) {
    assertThat(TrainJobStatus.waitingSince(job(status, null))).isEqualTo(since);
    assertThat(JobKind.TRAIN_JOB.status().waitingSince(job(status, null))).isEqualTo(since);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "a live TrainJob being deleted | {jobsStatus: [ja]} | STOPPED",
        "a finished TrainJob being deleted keeps its end | {conditions: [S]} | SUCCEEDED",
      })
  void deletion(String name, String status, BackendPhase phase) {
    assertThat(TrainJobStatus.of(job(status, "2026-01-05T13:00:00Z")).phase()).isEqualTo(phase);
  }

  private static GenericKubernetesResource job(String status, String deletionTimestamp) {
    // Child Jobs first: their tokens are lower case, the conditions' upper case.
    var expanded =
        status
            .replace("j0", jobs("node", 0, 0, 0, 0, 0))
            .replace("ja", jobs("node", 0, 0, 0, 1, 0))
            .replace("ji", jobs("dataset-initializer", 0, 1, 0, 0, 0))
            .replace("jr", jobs("node", 1, 0, 0, 1, 0))
            .replace("jx", jobs("node", 0, 0, 1, 1, 0))
            .replace("js", jobs("node", 0, 1, 0, 0, 0))
            .replace("jf", jobs("node", 0, 0, 1, 0, 0))
            .replace("[P]", "[" + SUSPENDED + "]")
            .replace("[Q", "[" + RESUMED)
            .replace(", S]", ", " + COMPLETE + "]")
            .replace("[S]", "[" + COMPLETE + "]")
            .replace("[F]", "[" + FAILED + "]")
            .replace("[N]", "[" + NO_RUNTIME + "]")
            .replace("[B]", "[" + NOT_BUILT + "]");
    var yaml =
        "apiVersion: trainer.kubeflow.org/v1alpha1\nkind: TrainJob\nmetadata: {name: j, namespace:"
            + " n, creationTimestamp: '2026-01-05T09:59:58Z'"
            + (deletionTimestamp == null ? "" : ", deletionTimestamp: '" + deletionTimestamp + "'")
            + "}\nstatus: "
            + expanded
            + "\n";
    return Serialization.unmarshal(yaml, GenericKubernetesResource.class);
  }

  private static String jobs(
      String name, int ready, int succeeded, int failed, int active, int suspended) {
    return "{name: %s, ready: %d, succeeded: %d, failed: %d, active: %d, suspended: %d}"
        .formatted(name, ready, succeeded, failed, active, suspended);
  }
}
