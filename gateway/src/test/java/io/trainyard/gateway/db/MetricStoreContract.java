package io.trainyard.gateway.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.gateway.metrics.MetricPoint;
import io.trainyard.gateway.testing.TestDatabase;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Storing and reading jobs' metrics and token hashes; run on H2 and PostgreSQL. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class MetricStoreContract {
  private static final Instant T0 = Instant.parse("2030-01-02T03:04:05.123456789Z");
  private TestDatabase db;
  private MetricStore store;

  @BeforeAll
  void migrate(TestDatabase database) {
    db = database;
    new DatabaseMigrator().migrate(db.jdbi());
    store = new MetricStore(db.jdbi());
  }

  @BeforeEach
  void empty() {
    db.jdbi()
        .useTransaction(
            h -> {
              h.execute("DELETE FROM job_metrics");
              h.execute("DELETE FROM metric_tokens");
            });
  }

  @Test
  void pointsReadBackInStepOrderPerName() {
    var stored =
        store.add(
            "job-1",
            List.of(
                new MetricPoint("loss", 0.5, 20L, 2L, T0.plusSeconds(2)),
                new MetricPoint("loss", 0.9, 10L, 1L, T0),
                new MetricPoint("accuracy", 0.7, null, 1L, T0),
                new MetricPoint("loss", -1e15, 30L, null, T0.plusSeconds(3))),
            MetricStore.Source.POST);
    assertThat(stored).isEqualTo(4);
    store.add("job-2", List.of(new MetricPoint("loss", 7, 1L, null, T0)), MetricStore.Source.LOG);

    var points = store.points("job-1", null);
    assertThat(points)
        .extracting(MetricPoint::name, MetricPoint::value)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("accuracy", 0.7),
            org.assertj.core.groups.Tuple.tuple("loss", 0.9),
            org.assertj.core.groups.Tuple.tuple("loss", 0.5),
            org.assertj.core.groups.Tuple.tuple("loss", -1e15));
    // Microseconds, as every time the gateway stores.
    assertThat(points.get(1).time()).isEqualTo("2030-01-02T03:04:05.123456Z");
    assertThat(points.get(0).step()).isNull();
    assertThat(points.get(0).epoch()).isEqualTo(1L);
    assertThat(store.points("job-1", "accuracy")).hasSize(1);
    assertThat(store.points("job-2", null)).hasSize(1);
    assertThat(store.points("job-3", null)).isEmpty();
  }

  @Test
  void theSamePointIsStoredOnceWhateverReadsIt() {
    var line = new MetricPoint("loss", 0.42, 3L, 1L, T0);
    assertThat(store.add("job-1", List.of(line), MetricStore.Source.LOG)).isEqualTo(1);
    // Read again at archive (a later time), posted again, twice in one batch: all known.
    var again = new MetricPoint("loss", 0.42, 3L, 1L, T0.plusSeconds(60));
    assertThat(store.add("job-1", List.of(again, again), MetricStore.Source.LOG)).isZero();
    assertThat(store.add("job-1", List.of(line), MetricStore.Source.POST)).isZero();
    // Another step, epoch or name is another point.
    assertThat(
            store.add(
                "job-1",
                List.of(
                    new MetricPoint("loss", 0.42, 3L, 2L, T0),
                    new MetricPoint("loss", 0.42, 3L, null, T0),
                    new MetricPoint("val_loss", 0.42, 3L, 1L, T0)),
                MetricStore.Source.POST))
        .isEqualTo(3);
    assertThat(store.points("job-1", null)).hasSize(4);
    assertThat(store.points("job-1", "loss").get(0).time())
        .isEqualTo(line.time().truncatedTo(java.time.temporal.ChronoUnit.MICROS));
  }

  @Test
  void aTokenHashLeadsToItsJobOnly() {
    store.addToken("a".repeat(64), "job-1", 1, T0);
    store.addToken("b".repeat(64), "job-1", 2, T0);

    assertThat(store.jobOfToken("a".repeat(64))).contains("job-1");
    assertThat(store.jobOfToken("b".repeat(64))).contains("job-1");
    assertThat(store.jobOfToken("c".repeat(64))).isEmpty();
  }
}
