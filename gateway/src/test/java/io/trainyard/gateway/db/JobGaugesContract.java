package io.trainyard.gateway.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.JobState;
import java.time.Duration;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The scrape-time reads of the Prometheus gauges; run on H2 and PostgreSQL. */
abstract class JobGaugesContract extends JobStoreFixture {

  private JobGauges gauges() {
    return new JobGauges(db.jdbi());
  }

  @Test
  void queuedJobsAreCountedPerTeamAndBackendWithTheOldestSubmission() {
    var first = insert(queued("nlp", "a", null));
    clock.advance(Duration.ofSeconds(5));
    insert(queued("vision", "b", "k8s"));
    clock.advance(Duration.ofSeconds(5));
    insert(queued("nlp", "c", null));
    insert(newJob("nlp", "placed"));

    assertThat(gauges().queued())
        .containsExactlyInAnyOrder(
            new JobGauges.QueuedGroup("nlp", null, 2, first.createdAt()),
            new JobGauges.QueuedGroup("vision", "k8s", 1, first.createdAt().plusSeconds(5)));
  }

  @Test
  void placedJobsAreTheSubmittedRunningAndCancellingOnesWithTheirSpecs() {
    var running = insert(newJob("nlp", "running").toBuilder().state(JobState.RUNNING).build());
    var submitted = insert(newJob("nlp", "sub").toBuilder().state(JobState.SUBMITTED).build());
    var cancelling =
        insert(
            newJob("vision", "c").toBuilder().state(JobState.CANCELLING).backendId("k8s").build());
    insert(newJob("nlp", "pending"));
    insert(newJob("nlp", "done").toBuilder().state(JobState.SUCCEEDED).endedAt(T0).build());

    assertThat(gauges().placed())
        .containsExactlyInAnyOrder(
            new JobGauges.PlacedJob(running.id(), "nlp", "local"),
            new JobGauges.PlacedJob(submitted.id(), "nlp", "local"),
            new JobGauges.PlacedJob(cancelling.id(), "vision", "k8s"));
    var specs = gauges().specs(List.of(running.id(), cancelling.id()));
    assertThat(specs)
        .containsEntry(running.id(), running.specJson())
        .containsEntry(cancelling.id(), cancelling.specJson())
        .hasSize(2);
    assertThat(gauges().specs(List.of())).isEmpty();
  }

  @Test
  void everyTeamsSpendIsTheOneBudgetsCount() {
    // 2 h at $1.25 last month and this month, one live job, one QUEUED that counts nothing.
    var ran =
        newJob("nlp", "ran").toBuilder()
            .state(JobState.SUCCEEDED)
            .startedAt(T0.minus(Duration.ofDays(3)))
            .endedAt(T0.plus(Duration.ofHours(2)))
            .build();
    insert(ran);
    insert(newJob("nlp", "live").toBuilder().state(JobState.RUNNING).startedAt(T0).build());
    insert(newJob("vision", "v").toBuilder().state(JobState.RUNNING).startedAt(T0).build());
    insert(queued("audio", "q", null));
    clock.advance(Duration.ofHours(3));
    var now = clock.instant();

    var spend = gauges().spendThisMonth(now);

    var month = YearMonth.from(now.atZone(ZoneOffset.UTC));
    assertThat(spend.keySet()).containsExactly("nlp", "vision");
    assertThat(spend.get("nlp")).isEqualTo(store.spend("nlp", month));
    assertThat(spend.get("vision")).isEqualTo(store.spend("vision", month));
    assertThat(spend.get("nlp").accruedUsd()).isPositive();
  }

  @Test
  void leftAttemptsAreCountedPerBackendUntilForgotten() {
    assertThat(gauges().leftAttempts()).isEmpty();
    var job = insert(newJob("nlp", "moving"));
    var leased = store.claimOne(job.id(), "r", Duration.ofSeconds(30)).orElseThrow();
    var moved = leased.toBuilder().attempt(2).offerIndex(1).backendId("eks").build();
    assertThat(store.update(moved, leased.version(), "r", List.of())).isTrue();

    assertThat(gauges().leftAttempts()).containsExactly(Map.entry("local", 1L));

    var left = store.staleAttempts().list(10).get(0);
    assertThat(store.staleAttempts().forget(left, true, "cancelled", "r")).isTrue();
    assertThat(gauges().leftAttempts()).isEmpty();
  }

  private JobRow queued(String team, String name, String backend) {
    return newJob(team, name).toBuilder().state(JobState.QUEUED).backendId(backend).build();
  }
}
