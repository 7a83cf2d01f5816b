package io.trainyard.gateway.db;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the schema up to date with {@code db/changelog.xml} at start, so the zero-config gateway
 * needs no manual step. Safe to run on every start and from several replicas at once: Liquibase
 * applies only the changesets not applied yet.
 *
 * <p>Liquibase's own lock is a row in {@code DATABASECHANGELOGLOCK}; a gateway killed while holding
 * it leaves it set, and every later start then waits five minutes and fails. So replicas are
 * serialised by a lock that dies with its holder instead — a session-level PostgreSQL advisory lock
 * (H2: the file admits one process; a JVM-wide monitor covers several gateways in one JVM) — and
 * whoever holds that lock knows a set Liquibase lock is stale and releases it.
 *
 * <p>A start on a current schema boots no Liquibase: {@link SchemaCheck} compares the changelog's
 * changeSets with {@code DATABASECHANGELOG} in one query, before taking any lock and again after (a
 * replica that waited for another's migration finds it done). Only a schema found behind is handed
 * to Liquibase.
 */
public final class DatabaseMigrator {
  private static final Logger LOG = LoggerFactory.getLogger(DatabaseMigrator.class);

  /** The advisory lock's key: any constant the gateway owns in its database. */
  private static final long ADVISORY_LOCK_KEY = 0x7472_6169_6e79_6172L; // "trainyar"

  /** How long a start waits for another live replica's migration. */
  private static final Duration LOCK_WAIT = Duration.ofMinutes(5);

  private static final Object IN_PROCESS = new Object();

  /** The changelog on the class path (also what the {@code db migrate} command should use). */
  public static final String CHANGELOG = "db/changelog.xml";

  /**
   * Liquibase 4.30+ reports usage to liquibase.com unless told not to; a gateway must not phone out
   * on start. Its console output goes to the log instead of stdout. In a holder of its own, so that
   * a start on a current schema does not initialise Liquibase's configuration (its arguments' class
   * initialisers scan for services) only to build this.
   */
  private static final class Quiet {
    static final Map<String, Object> SCOPE =
        Map.of(
            AnalyticsArgs.ENABLED.getKey(), false,
            Scope.Attr.ui.name(), new LoggerUIService(),
            Scope.Attr.resourceAccessor.name(),
                new ClassLoaderResourceAccessor(DatabaseMigrator.class.getClassLoader()));
  }

  /** What a start found: a schema already current (no Liquibase), or one Liquibase updated. */
  public enum Outcome {
    /** Every changeSet was applied already; Liquibase was not started. */
    CURRENT,
    /** Liquibase ran (it may still have found nothing to apply). */
    UPDATED
  }

  private final String changelog;
  private final SchemaCheck check;

  public DatabaseMigrator() {
    this(CHANGELOG);
  }

  /** With another changelog on the class path: tests of an old schema brought up to date. */
  DatabaseMigrator(String changelog) {
    this.changelog = changelog;
    this.check = new SchemaCheck(changelog);
  }

  public Outcome migrate(DataSource dataSource) {
    return migrate(Jdbi.create(dataSource));
  }

  /**
   * @throws IllegalStateException when the changelog cannot be applied; the gateway must not start
   *     on a schema it does not know
   */
  public Outcome migrate(Jdbi jdbi) {
    try {
      return jdbi.withHandle(
          handle -> {
            Connection connection = handle.getConnection();
            // Liquibase turns auto-commit off; the connection goes back to a pool afterwards.
            boolean autoCommit = connection.getAutoCommit();
            boolean postgres =
                "PostgreSQL".equals(connection.getMetaData().getDatabaseProductName());
            try {
              connection.setAutoCommit(true);
              var current = check.currentCount(connection);
              if (current.isPresent()) {
                LOG.info(
                    "schema up to date: nothing to apply ({} changeSets, checked without Liquibase)",
                    current.get());
                return Outcome.CURRENT;
              }
              if (postgres) {
                lockAcrossReplicas(connection);
              }
              try {
                synchronized (IN_PROCESS) {
                  if (postgres || !sharedH2(connection)) {
                    releaseStaleLock(connection);
                  }
                  // Another replica may have migrated while this one waited for the lock.
                  var migratedMeanwhile = check.currentCount(connection);
                  if (migratedMeanwhile.isPresent()) {
                    LOG.info(
                        "schema up to date: nothing to apply ({} changeSets)",
                        migratedMeanwhile.get());
                    return Outcome.CURRENT;
                  }
                  int before = appliedChangeSets(connection);
                  update(connection, changelog);
                  int after = appliedChangeSets(connection);
                  // Replicas started together prove from these lines that one migrated
                  // (ReplicasIT).
                  if (after > before) {
                    LOG.info(
                        "schema migrated: applied {} changeSets ({} in all)",
                        after - before,
                        after);
                  } else {
                    LOG.info("schema up to date: nothing to apply ({} changeSets)", after);
                  }
                  return Outcome.UPDATED;
                }
              } finally {
                if (postgres) {
                  connection.setAutoCommit(true);
                  unlockAcrossReplicas(connection);
                }
              }
            } finally {
              connection.setAutoCommit(autoCommit);
            }
          });
    } catch (Exception e) {
      throw new IllegalStateException("could not bring the database schema up to date", e);
    }
  }

  /**
   * Waits for the advisory lock. PostgreSQL drops a session's advisory locks when its connection
   * ends, so a replica that was killed cannot hold it; one that is alive and migrating is waited
   * for.
   */
  private static void lockAcrossReplicas(Connection connection) throws SQLException {
    long started = System.nanoTime();
    var deadline = started + LOCK_WAIT.toNanos();
    boolean waited = false;
    try (var s = connection.prepareStatement("SELECT pg_try_advisory_lock(?)")) {
      s.setLong(1, ADVISORY_LOCK_KEY);
      while (true) {
        try (var r = s.executeQuery()) {
          r.next();
          if (r.getBoolean(1)) {
            if (waited) {
              LOG.info(
                  "took the schema migration lock after waiting {} ms",
                  (System.nanoTime() - started) / 1_000_000);
            }
            return;
          }
        }
        if (!waited) {
          LOG.info("waiting for the schema migration lock: another gateway holds it");
          waited = true;
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              "another gateway has been migrating the schema for over "
                  + LOCK_WAIT.toMinutes()
                  + " minutes (it holds the migration lock); not starting on a half-migrated"
                  + " schema");
        }
        try {
          Thread.sleep(250);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while waiting for the migration lock", e);
        }
      }
    }
  }

  private static void unlockAcrossReplicas(Connection connection) throws SQLException {
    try (var s = connection.prepareStatement("SELECT pg_advisory_unlock(?)")) {
      s.setLong(1, ADVISORY_LOCK_KEY);
      s.execute();
    }
  }

  /**
   * An H2 file opened with AUTO_SERVER may have other processes: their lock is not ours to free.
   */
  private static boolean sharedH2(Connection connection) throws SQLException {
    return connection.getMetaData().getURL().toUpperCase(Locale.ROOT).contains("AUTO_SERVER=TRUE");
  }

  /**
   * Called holding the lock that excludes every other migrator: a set Liquibase lock can only be
   * left over by one that died.
   */
  private static void releaseStaleLock(Connection connection) throws SQLException {
    if (!lockTableExists(connection)) {
      return; // a new database: Liquibase creates the table
    }
    try (var s = connection.createStatement()) {
      var stale = new StringBuilder();
      try (var r =
          s.executeQuery("SELECT LOCKEDBY FROM DATABASECHANGELOGLOCK WHERE LOCKED = TRUE")) {
        while (r.next()) {
          stale.append(r.getString(1));
        }
      }
      int released =
          s.executeUpdate(
              "UPDATE DATABASECHANGELOGLOCK SET LOCKED = FALSE, LOCKGRANTED = NULL, LOCKEDBY = NULL"
                  + " WHERE LOCKED = TRUE");
      if (released > 0) {
        LOG.warn(
            "released the schema migration lock left by a gateway that stopped while migrating"
                + " (locked by {})",
            stale);
      }
    }
  }

  /** Rows in Liquibase's log of applied changeSets; 0 before the first migration. */
  private static int appliedChangeSets(Connection connection) throws SQLException {
    if (!tableExists(connection, "DATABASECHANGELOG")) {
      return 0;
    }
    try (var s = connection.createStatement();
        var r = s.executeQuery("SELECT COUNT(*) FROM DATABASECHANGELOG")) {
      r.next();
      return r.getInt(1);
    }
  }

  private static boolean tableExists(Connection connection, String upperCaseName)
      throws SQLException {
    var meta = connection.getMetaData();
    for (var name : new String[] {upperCaseName, upperCaseName.toLowerCase(Locale.ROOT)}) {
      try (var tables = meta.getTables(null, null, name, new String[] {"TABLE"})) {
        if (tables.next()) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean lockTableExists(Connection connection) throws SQLException {
    var meta = connection.getMetaData();
    for (var name : new String[] {"DATABASECHANGELOGLOCK", "databasechangeloglock"}) {
      try (var tables = meta.getTables(null, null, name, new String[] {"TABLE"})) {
        if (tables.next()) {
          return true;
        }
      }
    }
    return false;
  }

  private static void update(Connection connection, String changelog) throws Exception {
    var database =
        DatabaseFactory.getInstance()
            .findCorrectDatabaseImplementation(new JdbcConnection(connection));
    Scope.child(
        Quiet.SCOPE,
        () ->
            new CommandScope(UpdateCommandStep.COMMAND_NAME)
                .addArgumentValue(DbUrlConnectionArgumentsCommandStep.DATABASE_ARG, database)
                .addArgumentValue(UpdateCommandStep.CHANGELOG_FILE_ARG, changelog)
                .execute());
  }
}
