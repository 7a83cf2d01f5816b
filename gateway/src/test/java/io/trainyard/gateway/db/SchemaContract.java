package io.trainyard.gateway.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.gateway.testing.TestDatabase;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** The changelog on a fresh database; run on H2 and PostgreSQL. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SchemaContract {
  private TestDatabase db;

  @BeforeAll
  void database(TestDatabase database) {
    db = database;
  }

  @Test
  void migratingTwiceChangesNothingTheSecondTime() {
    new DatabaseMigrator().migrate(db.jdbi());
    int applied = count("databasechangelog");
    assertThat(applied).isPositive();

    new DatabaseMigrator().migrate(db.dataSource());

    assertThat(count("databasechangelog")).isEqualTo(applied);
    assertThat(count("jobs") + count("job_events") + count("idempotency_keys")).isZero();
  }

  @Test
  void everyTimestampKeepsItsTimeZone() {
    new DatabaseMigrator().migrate(db.jdbi());
    var types =
        db.jdbi()
            .withHandle(
                h ->
                    h.createQuery(
                            "SELECT LOWER(data_type) FROM information_schema.columns"
                                + " WHERE LOWER(table_name) IN ('jobs', 'job_events',"
                                + " 'idempotency_keys') AND (LOWER(column_name) LIKE '%_at'"
                                + " OR LOWER(column_name) IN ('at', 'lease_until'))")
                        .mapTo(String.class)
                        .list());
    assertThat(types).hasSize(8).containsOnly("timestamp with time zone");
  }

  private int count(String table) {
    return db.jdbi()
        .withHandle(h -> h.createQuery("SELECT COUNT(*) FROM " + table).mapTo(Integer.class).one());
  }
}
