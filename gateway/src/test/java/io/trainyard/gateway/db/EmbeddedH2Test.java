package io.trainyard.gateway.db;

import static org.assertj.core.api.Assertions.assertThat;

import com.codahale.metrics.MetricRegistry;
import io.trainyard.spi.JobState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedH2Test {

  @Test
  void aJobOutlivesAGatewayRestart(@TempDir Path tmp) throws Exception {
    var data = tmp.resolve("data"); // not there yet, as on a first start
    var job = job("bert", "{}");

    var first = EmbeddedH2.dataSourceFactory(data).build(new MetricRegistry(), "first");
    new DatabaseMigrator().migrate(first);
    new JobStore(Jdbi.create(first), Clock.systemUTC())
        .insert(job, JobEvent.of(job.id(), job.createdAt(), JobEvent.SUBMITTED, null), null);
    first.stop();

    assertThat(Files.exists(data.resolve("trainyard.mv.db"))).isTrue();
    var second = EmbeddedH2.dataSourceFactory(data).build(new MetricRegistry(), "second");
    try {
      new DatabaseMigrator().migrate(second);
      assertThat(new JobStore(Jdbi.create(second), Clock.systemUTC()).find(job.id())).contains(job);
    } finally {
      second.stop();
    }
  }

  @Test
  void textColumnsUpTo64KiBStayInTheirRowAndLargerOnesStillRoundTrip(@TempDir Path tmp)
      throws Exception {
    var pool = EmbeddedH2.dataSourceFactory(tmp).build(new MetricRegistry(), "lobs");
    try {
      new DatabaseMigrator().migrate(pool);
      var jdbi = Jdbi.create(pool);
      assertThat(setting(jdbi, "MAX_LENGTH_INPLACE_LOB")).isEqualTo("65536");
      assertThat(setting(jdbi, "QUERY_CACHE_SIZE")).isEqualTo("64");
      var store = new JobStore(jdbi, Clock.systemUTC());
      for (int size : new int[] {300, 60_000, 200_000}) {
        var spec = "{\"pad\":\"" + "x".repeat(size) + "\"}";
        var job = job("pad-" + size, spec);
        store.insert(job, JobEvent.of(job.id(), job.createdAt(), JobEvent.SUBMITTED, null), null);
        assertThat(store.find(job.id())).contains(job);
      }
    } finally {
      pool.stop();
    }
  }

  @Test
  void aConfiguredH2UrlIsTunedTooExceptWhereItSaysOtherwise(@TempDir Path tmp) throws Exception {
    var config = new io.trainyard.gateway.config.DatabaseConfig();
    config.setUrl(
        "jdbc:h2:file:" + tmp.resolve("db") + ";DB_CLOSE_ON_EXIT=FALSE;query_cache_size=16");
    var pool = config.toDataSourceFactory(tmp).build(new MetricRegistry(), "configured");
    try {
      var jdbi = Jdbi.create(pool);
      assertThat(setting(jdbi, "MAX_LENGTH_INPLACE_LOB")).isEqualTo("65536");
      assertThat(setting(jdbi, "QUERY_CACHE_SIZE")).isEqualTo("16");
    } finally {
      pool.stop();
    }
  }

  /** A pending job whose spec and decision are {@code json}. */
  private static JobRow job(String name, String json) {
    return JobRow.builder()
        .id(JobIds.newId())
        .team("nlp")
        .ownerSubject("s")
        .ownerUsername("alice")
        .name(name)
        .state(JobState.PENDING)
        .specJson(json)
        .specHash("a".repeat(64))
        .decisionJson(json)
        .createdAt(Instant.parse("2030-01-01T00:00:00Z"))
        .build();
  }

  private static String setting(Jdbi jdbi, String name) {
    return jdbi.withHandle(
        h ->
            h.createQuery(
                    "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = :n")
                .bind("n", name)
                .mapTo(String.class)
                .one());
  }
}
