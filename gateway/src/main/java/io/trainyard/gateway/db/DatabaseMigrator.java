package io.trainyard.gateway.db;

import java.sql.Connection;
import java.util.Map;
import javax.sql.DataSource;
import liquibase.Scope;
import liquibase.analytics.configuration.AnalyticsArgs;
import liquibase.command.CommandScope;
import liquibase.command.core.UpdateCommandStep;
import liquibase.command.core.helpers.DbUrlConnectionArgumentsCommandStep;
import liquibase.database.DatabaseFactory;
import liquibase.database.jvm.JdbcConnection;
import liquibase.resource.ClassLoaderResourceAccessor;
import liquibase.ui.LoggerUIService;
import org.jdbi.v3.core.Jdbi;

/**
 * Brings the schema up to date with {@code db/changelog.xml} at start, so the zero-config gateway
 * needs no manual step. Safe to run on every start and from several replicas at once: Liquibase
 * applies only the changesets not applied yet, under its own lock table.
 */
public final class DatabaseMigrator {
  /** The changelog on the class path (also what the {@code db migrate} command should use). */
  public static final String CHANGELOG = "db/changelog.xml";

  /**
   * Liquibase 4.30+ reports usage to liquibase.com unless told not to; a gateway must not phone out
   * on start. Its console output goes to the log instead of stdout.
   */
  private static final Map<String, Object> QUIET =
      Map.of(
          AnalyticsArgs.ENABLED.getKey(), false,
          Scope.Attr.ui.name(), new LoggerUIService(),
          Scope.Attr.resourceAccessor.name(),
              new ClassLoaderResourceAccessor(DatabaseMigrator.class.getClassLoader()));

  public void migrate(DataSource dataSource) {
    migrate(Jdbi.create(dataSource));
  }

  /**
   * @throws IllegalStateException when the changelog cannot be applied; the gateway must not start
   *     on a schema it does not know
   */
  public void migrate(Jdbi jdbi) {
    try {
      jdbi.useHandle(
          handle -> {
            Connection connection = handle.getConnection();
            // Liquibase turns auto-commit off; the connection goes back to a pool afterwards.
            boolean autoCommit = connection.getAutoCommit();
            try {
              update(connection);
            } finally {
              connection.setAutoCommit(autoCommit);
            }
          });
    } catch (Exception e) {
      throw new IllegalStateException("could not bring the database schema up to date", e);
    }
  }

  private static void update(Connection connection) throws Exception {
    var database =
        DatabaseFactory.getInstance()
            .findCorrectDatabaseImplementation(new JdbcConnection(connection));
    Scope.child(
        QUIET,
        () ->
            new CommandScope(UpdateCommandStep.COMMAND_NAME)
                .addArgumentValue(DbUrlConnectionArgumentsCommandStep.DATABASE_ARG, database)
                .addArgumentValue(UpdateCommandStep.CHANGELOG_FILE_ARG, CHANGELOG)
                .execute());
  }
}
