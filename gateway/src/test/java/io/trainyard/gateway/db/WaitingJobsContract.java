package io.trainyard.gateway.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.JobState;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Jobs placed on a backend and not started, per backend; run on H2 and PostgreSQL. */
abstract class WaitingJobsContract extends JobStoreFixture {

  @Test
  void pendingAndSubmittedJobsCountPerBackendNothingElseDoes() {
    insert(newJob("nlp", "p1"));
    insert(newJob("nlp", "p2").toBuilder().state(JobState.SUBMITTED).build());
    insert(newJob("vision", "k1").toBuilder().backendId("k8s").build());
    insert(newJob("nlp", "run").toBuilder().state(JobState.RUNNING).build());
    insert(newJob("nlp", "done").toBuilder().state(JobState.SUCCEEDED).endedAt(T0).build());
    insert(
        newJob("nlp", "queued").toBuilder()
            .state(JobState.QUEUED)
            .backendId(null)
            .hourlyUsd(null)
            .estimatedUsd(null)
            .build());

    assertThat(new WaitingJobs(db.jdbi()).byBackend())
        .containsExactlyInAnyOrderEntriesOf(Map.of("local", 2L, "k8s", 1L));
  }

  @Test
  void noJobsNoEntries() {
    assertThat(new WaitingJobs(db.jdbi()).byBackend()).isEmpty();
  }
}
