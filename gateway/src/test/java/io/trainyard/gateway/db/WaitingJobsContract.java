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

    assertThat(new WaitingJobs(db.jdbi(), clock).byBackend())
        .containsExactlyInAnyOrderEntriesOf(Map.of("local", 2L, "k8s", 1L));
  }

  @Test
  void countsAreReadAgainAfterThisReplicasWritesAndWithinMaxAgeOfAnothers() {
    var ours = new JobStore(db.jdbi(), clock);
    var another = new JobStore(db.jdbi(), clock);
    var first = newJob("nlp", "first");
    ours.insert(first, submitted(first), null);
    assertThat(ours.waitingByBackend()).isEqualTo(Map.of("local", 1L));

    // This replica's own insert shows at once.
    var second = newJob("nlp", "second");
    ours.insert(second, submitted(second), null);
    assertThat(ours.waitingByBackend()).isEqualTo(Map.of("local", 2L));

    // Another replica's shows once the counts are MAX_AGE old.
    var theirs = newJob("nlp", "theirs");
    another.insert(theirs, submitted(theirs), null);
    assertThat(ours.waitingByBackend()).isEqualTo(Map.of("local", 2L));
    clock.set(T0.plus(WaitingJobs.MAX_AGE));
    assertThat(ours.waitingByBackend()).isEqualTo(Map.of("local", 3L));

    // A job this replica ends stops waiting at once.
    var leased =
        ours.claim("test", java.time.Duration.ofMinutes(1), 100).stream()
            .filter(r -> r.id().equals(first.id()))
            .findFirst()
            .orElseThrow();
    assertThat(
            ours.update(
                leased.withState(JobState.FAILED, "test", clock.instant()),
                leased.version(),
                "test",
                java.util.List.of()))
        .isTrue();
    assertThat(ours.waitingByBackend()).isEqualTo(Map.of("local", 2L));
  }

  @Test
  void noJobsNoEntries() {
    assertThat(new WaitingJobs(db.jdbi(), clock).byBackend()).isEmpty();
  }
}
