package io.trainyard.gateway.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.trainyard.gateway.db.DatabaseMigrator.Outcome;
import io.trainyard.gateway.testing.TestDatabase;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A start on a current schema boots no Liquibase; one on a schema behind is migrated by it. Run on
 * H2 and PostgreSQL. The test changelogs (test resources, schema-check/) use their own tables, so
 * the tests share the class's database in any order.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class SchemaCheckContract {
  private TestDatabase db;

  @BeforeAll
  void database(TestDatabase database) {
    db = database;
  }

  @Test
  void aCurrentSchemaStartsWithoutLiquibase() {
    new DatabaseMigrator().migrate(db.jdbi());
    int applied = count("databasechangelog");

    assertThat(new DatabaseMigrator().migrate(db.jdbi())).isEqualTo(Outcome.CURRENT);
    assertThat(new DatabaseMigrator().migrate(db.dataSource())).isEqualTo(Outcome.CURRENT);
    assertThat(count("databasechangelog")).isEqualTo(applied);
  }

  @Test
  void theGatewaysChangelogIsOneTheCheckCanJudge() {
    // Were it not (a runOnChange changeSet, an include ...), every start would boot Liquibase.
    assertThat(new SchemaCheck(DatabaseMigrator.CHANGELOG).judges()).isTrue();
  }

  @Test
  void aSchemaBehindIsMigratedByLiquibaseAndThenFoundCurrent() {
    var old = new DatabaseMigrator("schema-check/v1.xml");
    var later = new DatabaseMigrator("schema-check/v2.xml");
    assertThat(old.migrate(db.jdbi())).isEqualTo(Outcome.UPDATED);
    assertThat(old.migrate(db.jdbi())).isEqualTo(Outcome.CURRENT);
    assertThat(count("schema_check_one")).isZero();

    assertThat(later.migrate(db.jdbi())).as("one changeSet missing").isEqualTo(Outcome.UPDATED);
    assertThat(count("schema_check_two")).as("the missing changeSet applied").isZero();
    assertThat(later.migrate(db.jdbi()))
        .as("the changeSet for another database is not awaited")
        .isEqualTo(Outcome.CURRENT);
    assertThat(old.migrate(db.jdbi()))
        .as("rows of changeSets an older changelog does not know are ignored")
        .isEqualTo(Outcome.CURRENT);
  }

  @Test
  void aChangelogTheCheckCannotJudgeIsLeftToLiquibase() {
    var migrator = new DatabaseMigrator("schema-check/run-on-change.xml");
    assertThat(migrator.migrate(db.jdbi())).isEqualTo(Outcome.UPDATED);
    assertThat(migrator.migrate(db.jdbi())).isEqualTo(Outcome.UPDATED);
  }

  private int count(String table) {
    return db.jdbi()
        .withHandle(h -> h.createQuery("SELECT COUNT(*) FROM " + table).mapTo(int.class).one());
  }
}
