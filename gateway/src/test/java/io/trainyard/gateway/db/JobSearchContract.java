package io.trainyard.gateway.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.spi.JobState;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code GET /v1/jobs}'s filtered, keyset-paged reads, the algorithm columns kept by {@link
 * JobAlgorithms}, and {@code GET /v1/spend}'s runs; run on H2 and PostgreSQL.
 */
abstract class JobSearchContract extends JobStoreFixture {

  private JobSearch search() {
    return new JobSearch(db.jdbi());
  }

  private JobStore algorithmStore() {
    return new JobStore(db.jdbi(), clock, new JobAlgorithms(JobAudit.NONE));
  }

  private JobRow insertWith(JobStore s, JobRow job) {
    var result = s.insert(job, submitted(job), null);
    assertThat(result).isInstanceOf(InsertResult.Created.class);
    return ((InsertResult.Created) result).job();
  }

  private static List<String> ids(List<JobRow> rows) {
    return rows.stream().map(JobRow::id).toList();
  }

  private static JobFilter filter() {
    return JobFilter.ALL;
  }

  @Test
  void eachFilterAloneAndCombinedSelectsExactlyItsJobsNewestFirst() {
    var s = algorithmStore();
    var a = insertWith(s, newJob("nlp", "a"));
    clock.advance(Duration.ofSeconds(1));
    var b =
        insertWith(
            s,
            newJob("nlp", "b").toBuilder()
                .backendId("eks")
                .ownerUsername("bob")
                .specJson("{\"spec\":{\"algorithm\":\"nlp/bert@2\"}}")
                .build());
    clock.advance(Duration.ofSeconds(1));
    var c =
        insertWith(
            s,
            newJob("vision", "c").toBuilder()
                .specJson("{\"spec\":{\"algorithm\":\"nlp/bert@3\"}}")
                .build());
    clock.advance(Duration.ofSeconds(1));
    var d = insertWith(s, newJob("vision", "d").toBuilder().backendId("eks").build());
    endAs(b, JobState.FAILED);

    var all = filter();
    assertThat(ids(search().page(all, null, 10))).containsExactly(d.id(), c.id(), b.id(), a.id());
    assertThat(ids(search().page(all.withTeams(Set.of("nlp")), null, 10)))
        .containsExactly(b.id(), a.id());
    assertThat(ids(search().page(all.withTeams(Set.of("nlp", "vision")), null, 10)))
        .containsExactly(d.id(), c.id(), b.id(), a.id());
    assertThat(search().page(all.withTeams(Set.of()), null, 10)).isEmpty();
    assertThat(ids(search().page(with(all, "backend", "eks"), null, 10)))
        .containsExactly(d.id(), b.id());
    assertThat(ids(search().page(with(all, "owner", "bob"), null, 10))).containsExactly(b.id());
    assertThat(ids(search().page(algorithm(all, "nlp/bert", null), null, 10)))
        .containsExactly(c.id(), b.id());
    assertThat(ids(search().page(algorithm(all, "nlp/bert", 2), null, 10))).containsExactly(b.id());
    assertThat(search().page(algorithm(all, "nlp/other", null), null, 10)).isEmpty();
    assertThat(ids(search().page(states(all, JobState.FAILED), null, 10))).containsExactly(b.id());
    // since inclusive, until exclusive, on the creation time.
    assertThat(ids(search().page(window(all, b.createdAt(), d.createdAt()), null, 10)))
        .containsExactly(c.id(), b.id());
    // Combined: AND.
    var combined = with(all.withTeams(Set.of("vision")), "backend", "eks");
    assertThat(ids(search().page(combined, null, 10))).containsExactly(d.id());
    assertThat(search().page(algorithm(all.withTeams(Set.of("vision")), "nlp/bert", 2), null, 10))
        .isEmpty();
  }

  @Test
  void theBackfillFillsInTheAlgorithmOfJobsStoredBeforeTheColumnsExisted() throws Exception {
    var old =
        insert(
            newJob("nlp", "old").toBuilder()
                .specJson("{\"spec\":{\"algorithm\":\"nlp/bert@4\"}}")
                .build());
    insert(newJob("nlp", "none"));
    assertThat(search().page(algorithm(filter(), "nlp/bert", 4), null, 10)).isEmpty();

    db.jdbi()
        .useTransaction(
            h ->
                new JobAlgorithmsBackfill()
                    .execute(
                        liquibase.database.DatabaseFactory.getInstance()
                            .findCorrectDatabaseImplementation(
                                new liquibase.database.jvm.JdbcConnection(h.getConnection()))));

    assertThat(ids(search().page(algorithm(filter(), "nlp/bert", 4), null, 10)))
        .containsExactly(old.id());
  }

  @Test
  void pagesFollowEachOtherWithoutGapsOrDuplicatesWhileJobsAreAdded() {
    var inserted = new ArrayList<String>();
    for (int i = 0; i < 7; i++) {
      inserted.add(insert(newJob("nlp", "j" + i)).id());
      // Two jobs in the same microsecond: the id breaks the tie.
      if (i % 2 == 0) {
        clock.advance(Duration.ofSeconds(1));
      }
    }
    var seen = new ArrayList<String>();
    JobFilter.Position after = null;
    int added = 0;
    while (true) {
      var page = search().page(filter(), after, 3);
      page.forEach(r -> seen.add(r.id()));
      // Newer jobs arrive between pages; they belong before the first page, never in later ones.
      clock.advance(Duration.ofSeconds(1));
      insert(newJob("nlp", "late" + added++));
      if (page.size() < 3) {
        break;
      }
      var last = page.get(page.size() - 1);
      after = new JobFilter.Position(last.createdAt(), last.id());
    }
    assertThat(seen).hasSize(7).doesNotHaveDuplicates();
    assertThat(new HashSet<>(seen)).isEqualTo(new HashSet<>(inserted));
  }

  @Test
  void runsOverlappingAWindowAreReadWithTheirEvidence() {
    var from = T0.plusSeconds(3600);
    var to = from.plusSeconds(3600);
    insert(
        newJob("nlp", "before").toBuilder()
            .state(JobState.SUCCEEDED)
            .startedAt(T0)
            .endedAt(from.minusSeconds(1))
            .build());
    var across =
        insert(
            newJob("nlp", "across").toBuilder()
                .state(JobState.SUCCEEDED)
                .startedAt(from.minusSeconds(60))
                .endedAt(from.plusSeconds(60))
                .build());
    var live =
        insert(
            newJob("vision", "live").toBuilder()
                .state(JobState.RUNNING)
                .startedAt(to.minusSeconds(1))
                .build());
    insert(newJob("nlp", "never-started"));
    insert(newJob("nlp", "after").toBuilder().state(JobState.RUNNING).startedAt(to).build());
    var runs = new JobRuns(db.jdbi());

    assertThat(runs.overlapping(null, from, to))
        .extracting(JobRuns.Run::id)
        .containsExactly(across.id(), live.id());
    assertThat(runs.overlapping(Set.of("nlp"), from, to))
        .extracting(JobRuns.Run::id)
        .containsExactly(across.id());
    assertThat(runs.overlapping(Set.of(), from, to)).isEmpty();
    var read = runs.overlapping(Set.of("nlp"), from, to).get(0);
    assertThat(read.decisionJson()).isEqualTo(across.decisionJson());
    assertThat(read.hourlyUsd()).isEqualByComparingTo("1.25");
    assertThat(read.startedAt()).isEqualTo(across.startedAt());
  }

  private void endAs(JobRow job, JobState state) {
    db.jdbi()
        .useHandle(
            h ->
                h.createUpdate("UPDATE jobs SET state = :s, live_name = NULL WHERE id = :id")
                    .bind("s", state.name())
                    .bind("id", job.id())
                    .execute());
  }

  private static JobFilter with(JobFilter f, String what, String value) {
    return new JobFilter(
        f.teams(),
        f.states(),
        what.equals("backend") ? value : f.backend(),
        f.algorithm(),
        f.algorithmVersion(),
        what.equals("owner") ? value : f.owner(),
        f.since(),
        f.until());
  }

  private static JobFilter algorithm(JobFilter f, String name, Integer version) {
    return new JobFilter(
        f.teams(), f.states(), f.backend(), name, version, f.owner(), f.since(), f.until());
  }

  private static JobFilter states(JobFilter f, JobState... states) {
    return new JobFilter(
        f.teams(),
        Set.of(states),
        f.backend(),
        f.algorithm(),
        f.algorithmVersion(),
        f.owner(),
        f.since(),
        f.until());
  }

  private static JobFilter window(JobFilter f, Instant since, Instant until) {
    return new JobFilter(
        f.teams(),
        f.states(),
        f.backend(),
        f.algorithm(),
        f.algorithmVersion(),
        f.owner(),
        since,
        until);
  }
}
