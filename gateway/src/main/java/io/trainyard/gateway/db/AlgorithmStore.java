package io.trainyard.gateway.db;

import io.trainyard.gateway.algorithms.Algorithm;
import io.trainyard.gateway.algorithms.AlgorithmDefinition;
import io.trainyard.gateway.algorithms.AlgorithmResolver;
import io.trainyard.gateway.algorithms.AlgorithmVersion;
import io.trainyard.gateway.algorithms.VersionStatus;
import io.trainyard.gateway.algorithms.Visibility;
import io.trainyard.gateway.audit.AuditEntry;
import io.trainyard.gateway.audit.AuditLog;
import io.trainyard.gateway.jobs.StoredJson;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;

/**
 * The algorithm registry's rows: algorithms and their published versions, on H2 and PostgreSQL.
 * Every change is one transaction that ends with its audit event (see {@link AuditLog#append}), so
 * a change is never stored unaudited. A published version's definition is never updated: only its
 * status moves. Thread-safe.
 */
public final class AlgorithmStore implements AlgorithmResolver.Catalog {
  /** What publishing a version did. */
  public enum Published {
    /** Stored now. */
    CREATED,
    /** Already published with the same definition: nothing changed. */
    SAME,
    /** Already published with another definition: refused, nothing changed. */
    DIFFERENT,
    /** No such algorithm. */
    NO_ALGORITHM
  }

  private static final String ALGORITHM_COLUMNS =
      "team, name, description, visibility, default_version, created_by, created_at, updated_at";
  private static final String VERSION_COLUMNS =
      "team, name, version, definition_json, definition_hash, status, published_by, published_at";

  private final Jdbi jdbi;
  private final AuditLog audit;
  private final StoredJson json = new StoredJson();

  public AlgorithmStore(Jdbi jdbi, AuditLog audit) {
    this.jdbi = jdbi;
    this.audit = audit;
  }

  @Override
  public Optional<Algorithm> find(String team, String name) {
    return jdbi.withHandle(h -> find(h, team, name));
  }

  /**
   * Algorithms of {@code teams} and every team's {@code everyone} ones, by team and name; {@code
   * null} teams: all of them.
   */
  public List<Algorithm> list(Collection<String> teams) {
    return jdbi.withHandle(
        h -> {
          var sql = "SELECT " + ALGORITHM_COLUMNS + " FROM algorithms";
          if (teams != null) {
            sql +=
                " WHERE visibility = 'everyone'" + (teams.isEmpty() ? "" : " OR team IN (<teams>)");
          }
          var query = h.createQuery(sql + " ORDER BY team, name");
          if (teams != null && !teams.isEmpty()) {
            query.bindList("teams", List.copyOf(teams));
          }
          return query.map((rs, ctx) -> algorithm(rs)).list();
        });
  }

  /** Every published version, oldest first. */
  public List<AlgorithmVersion> versions(String team, String name) {
    return jdbi.withHandle(
        h ->
            h.createQuery(
                    "SELECT "
                        + VERSION_COLUMNS
                        + " FROM algorithm_versions WHERE team = :team AND name = :name"
                        + " ORDER BY version")
                .bind("team", team)
                .bind("name", name)
                .map((rs, ctx) -> version(rs))
                .list());
  }

  @Override
  public Optional<AlgorithmVersion> version(String team, String name, int version) {
    return jdbi.withHandle(h -> version(h, team, name, version));
  }

  /**
   * Stores a new algorithm with its first version as the default.
   *
   * @return false when the team already has an algorithm of that name (nothing stored)
   */
  public boolean create(Algorithm algorithm, AlgorithmVersion first, AuditEntry event) {
    try {
      return jdbi.inTransaction(
          h -> {
            if (find(h, algorithm.team(), algorithm.name()).isPresent()) {
              return false;
            }
            h.createUpdate(
                    "INSERT INTO algorithms ("
                        + ALGORITHM_COLUMNS
                        + ") VALUES (:team, :name, :description, :visibility, :defaultVersion,"
                        + " :createdBy, :createdAt, :updatedAt)")
                .bind("team", algorithm.team())
                .bind("name", algorithm.name())
                .bind("description", algorithm.description())
                .bind("visibility", algorithm.visibility().wireName())
                .bind("defaultVersion", first.version())
                .bind("createdBy", algorithm.createdBy())
                .bind("createdAt", JobColumns.utc(algorithm.createdAt()))
                .bind("updatedAt", JobColumns.utc(algorithm.updatedAt()))
                .execute();
            insertVersion(h, first);
            audit.append(h, List.of(event));
            return true;
          });
    } catch (JdbiException e) {
      if (JobInsertion.isUniqueViolation(e)) {
        return false; // a concurrent create of the same name won
      }
      throw e;
    }
  }

  /**
   * Publishes {@code version} unless it is published already; an algorithm without a default gets
   * this one.
   */
  public Published publish(AlgorithmVersion version, AuditEntry event) {
    try {
      return jdbi.inTransaction(h -> tryPublish(h, version, event));
    } catch (JdbiException e) {
      if (!JobInsertion.isUniqueViolation(e)) {
        throw e;
      }
      // A concurrent publish of the same number committed first: compare with what it stored.
      return jdbi.withHandle(
          h -> compare(version(h, version.team(), version.name(), version.version()), version));
    }
  }

  private Published tryPublish(Handle h, AlgorithmVersion version, AuditEntry event) {
    var algorithm = find(h, version.team(), version.name());
    if (algorithm.isEmpty()) {
      return Published.NO_ALGORITHM;
    }
    var existing = version(h, version.team(), version.name(), version.version());
    if (existing.isPresent()) {
      return compare(existing, version);
    }
    insertVersion(h, version);
    if (algorithm.get().defaultVersion() == null) {
      updateAlgorithm(
          h,
          version.team(),
          version.name(),
          "default_version",
          version.version(),
          version.publishedAt());
    }
    audit.append(h, List.of(event));
    return Published.CREATED;
  }

  private static Published compare(Optional<AlgorithmVersion> existing, AlgorithmVersion wanted) {
    if (existing.isEmpty()) {
      return Published.NO_ALGORITHM;
    }
    return existing.get().definitionHash().equals(wanted.definitionHash())
        ? Published.SAME
        : Published.DIFFERENT;
  }

  /** Moves the default to a published {@code version}; false when the algorithm is gone. */
  public boolean setDefault(String team, String name, int version, Instant at, AuditEntry event) {
    return change(h -> updateAlgorithm(h, team, name, "default_version", version, at), event);
  }

  public boolean setVisibility(
      String team, String name, Visibility visibility, Instant at, AuditEntry event) {
    return change(
        h -> updateAlgorithm(h, team, name, "visibility", visibility.wireName(), at), event);
  }

  /** Deprecates, withdraws or restores a published version; false when there is none. */
  public boolean setStatus(
      String team, String name, int version, VersionStatus status, AuditEntry event) {
    return change(
        h ->
            h.createUpdate(
                        "UPDATE algorithm_versions SET status = :status"
                            + " WHERE team = :team AND name = :name AND version = :version")
                    .bind("status", status.wireName())
                    .bind("team", team)
                    .bind("name", name)
                    .bind("version", version)
                    .execute()
                == 1,
        event);
  }

  private boolean change(java.util.function.Predicate<Handle> update, AuditEntry event) {
    return jdbi.inTransaction(
        h -> {
          if (!update.test(h)) {
            return false;
          }
          audit.append(h, List.of(event));
          return true;
        });
  }

  private static boolean updateAlgorithm(
      Handle h, String team, String name, String column, Object value, Instant at) {
    // column is one of this class's constants, never caller input.
    return h.createUpdate(
                "UPDATE algorithms SET "
                    + column
                    + " = :value, updated_at = :at WHERE team = :team AND name = :name")
            .bind("value", value)
            .bind("at", JobColumns.utc(at))
            .bind("team", team)
            .bind("name", name)
            .execute()
        == 1;
  }

  private void insertVersion(Handle h, AlgorithmVersion v) {
    h.createUpdate(
            "INSERT INTO algorithm_versions ("
                + VERSION_COLUMNS
                + ") VALUES (:team, :name, :version, :definition, :hash, :status, :by, :at)")
        .bind("team", v.team())
        .bind("name", v.name())
        .bind("version", v.version())
        .bind("definition", json.write(v.definition()))
        .bind("hash", v.definitionHash())
        .bind("status", v.status().wireName())
        .bind("by", v.publishedBy())
        .bind("at", JobColumns.utc(v.publishedAt()))
        .execute();
  }

  private static Optional<Algorithm> find(Handle h, String team, String name) {
    return h.createQuery(
            "SELECT " + ALGORITHM_COLUMNS + " FROM algorithms WHERE team = :team AND name = :name")
        .bind("team", team)
        .bind("name", name)
        .map((rs, ctx) -> algorithm(rs))
        .findOne();
  }

  private Optional<AlgorithmVersion> version(Handle h, String team, String name, int version) {
    return h.createQuery(
            "SELECT "
                + VERSION_COLUMNS
                + " FROM algorithm_versions"
                + " WHERE team = :team AND name = :name AND version = :version")
        .bind("team", team)
        .bind("name", name)
        .bind("version", version)
        .map((rs, ctx) -> version(rs))
        .findOne();
  }

  private static Algorithm algorithm(ResultSet rs) throws SQLException {
    var stored = rs.getInt("default_version");
    var defaultVersion = rs.wasNull() ? null : stored;
    return new Algorithm(
        rs.getString("team"),
        rs.getString("name"),
        rs.getString("description"),
        Visibility.fromWireName(rs.getString("visibility")),
        defaultVersion,
        rs.getString("created_by"),
        JobColumns.instant(rs, "created_at"),
        JobColumns.instant(rs, "updated_at"));
  }

  private AlgorithmVersion version(ResultSet rs) throws SQLException {
    return new AlgorithmVersion(
        rs.getString("team"),
        rs.getString("name"),
        rs.getInt("version"),
        json.read(rs.getString("definition_json"), AlgorithmDefinition.class),
        rs.getString("definition_hash"),
        VersionStatus.valueOf(rs.getString("status").toUpperCase(Locale.ROOT)),
        rs.getString("published_by"),
        JobColumns.instant(rs, "published_at"));
  }
}
