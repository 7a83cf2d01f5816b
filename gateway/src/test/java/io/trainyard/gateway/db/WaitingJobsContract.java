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
    var leased = leased(ours, first.id());
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
  void thisReplicasMovesFollowTheKeptCountsWithoutReadingThemAgain() {
    var ours = new JobStore(db.jdbi(), clock);
    var another = new JobStore(db.jdbi(), clock);
    var first = newJob("nlp", "first");
    ours.insert(first, submitted(first), null);
    assertThat(ours.waitingByBackend()).isEqualTo(Map.of("local", 1L));

    // Another replica's job is not read again for our next insert: the kept counts move by one.
    var theirs = newJob("nlp", "theirs");
    another.insert(theirs, submitted(theirs), null);
    var second = newJob("nlp", "second").toBuilder().backendId("k8s").build();
    ours.insert(second, submitted(second), null);
    assertThat(ours.waitingByBackend()).isEqualTo(Map.of("local", 1L, "k8s", 1L));

    // A failover moves a job from one backend to another: one count down, the other up.
    var leased = leased(ours, first.id());
    var movedOn = leased.toBuilder().backendId("k8s").build();
    assertThat(ours.update(movedOn, leased.version(), "test", java.util.List.of())).isTrue();
    assertThat(ours.waitingByBackend()).isEqualTo(Map.of("k8s", 2L));

    // Running is no longer waiting; a backend with none left is absent.
    var again = leased(ours, second.id());
    assertThat(
            ours.update(
                again.withState(JobState.SUBMITTED, null, clock.instant()).toBuilder()
                    .externalRefJson("{}")
                    .build(),
                again.version(),
                "test",
                java.util.List.of()))
        .isTrue();
    var submittedRow = leased(ours, second.id());
    assertThat(
            ours.update(
                submittedRow.withState(JobState.RUNNING, null, clock.instant()),
                submittedRow.version(),
                "test",
                java.util.List.of()))
        .isTrue();
    assertThat(ours.waitingByBackend()).isEqualTo(Map.of("k8s", 1L));

    // Read again once MAX_AGE has passed: the other replica's job shows.
    clock.set(T0.plus(WaitingJobs.MAX_AGE));
    assertThat(ours.waitingByBackend()).isEqualTo(Map.of("k8s", 1L, "local", 1L));
  }

  private static JobRow leased(JobStore store, String id) {
    return store.claim("test", java.time.Duration.ofMinutes(1), 100).stream()
        .filter(r -> r.id().equals(id))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void noJobsNoEntries() {
    assertThat(new WaitingJobs(db.jdbi(), clock).byBackend()).isEmpty();
  }
}
