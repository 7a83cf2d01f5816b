package io.trainyard.gateway.db;

import io.trainyard.spi.JobState;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.Collectors;
import org.jdbi.v3.core.argument.Argument;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.SqlStatement;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * The {@code jobs} columns and how a {@link JobRow} goes in and out of them.
 *
 * <p>Times are bound and read as {@link OffsetDateTime} in UTC, the JDBC 4.2 type of {@code
 * TIMESTAMP WITH TIME ZONE} on both H2 and PostgreSQL. The older {@code java.sql.Timestamp} route
 * passes through the JVM's default time zone and, on H2, reads back differently from PostgreSQL;
 * doing it here rather than by registering mappers on the {@code Jdbi} keeps the shared {@code
 * Jdbi}'s configuration untouched.
 */
final class JobColumns implements RowMapper<JobRow> {
  static final JobColumns MAPPER = new JobColumns();

  /** Every column, in the order of {@link JobRow}'s components. */
  static final List<String> ALL =
      List.of(
          "id",
          "team",
          "owner_subject",
          "owner_username",
          "name",
          "live_name",
          "state",
          "attempt",
          "spec_json",
          "spec_hash",
          "decision_json",
          "offer_index",
          "backend_id",
          "external_ref_json",
          "hourly_usd",
          "estimated_usd",
          "reason",
          "restarts",
          "cancel_requested",
          "created_at",
          "updated_at",
          "submitted_at",
          "started_at",
          "ended_at",
          "lease_owner",
          "lease_until",
          "version");

  /** What a fenced update may change: never identity, owner, spec or lease. */
  static final List<String> MUTABLE =
      List.of(
          "live_name",
          "state",
          "attempt",
          "decision_json",
          "offer_index",
          "backend_id",
          "external_ref_json",
          "hourly_usd",
          "estimated_usd",
          "reason",
          "restarts",
          "updated_at",
          "submitted_at",
          "started_at",
          "ended_at");

  static final String SELECT = "SELECT " + String.join(", ", ALL) + " FROM jobs";

  static final String INSERT =
      "INSERT INTO jobs ("
          + String.join(", ", ALL)
          + ") VALUES ("
          + ALL.stream().map(c -> ":" + c).collect(Collectors.joining(", "))
          + ")";

  static final String SET_MUTABLE =
      MUTABLE.stream().map(c -> c + " = :" + c).collect(Collectors.joining(", "));

  private JobColumns() {}

  @Override
  public JobRow map(ResultSet rs, StatementContext ctx) throws SQLException {
    return new JobRow(
        rs.getString("id"),
        rs.getString("team"),
        rs.getString("owner_subject"),
        rs.getString("owner_username"),
        rs.getString("name"),
        rs.getString("live_name"),
        JobState.valueOf(rs.getString("state")),
        rs.getInt("attempt"),
        rs.getString("spec_json"),
        rs.getString("spec_hash"),
        rs.getString("decision_json"),
        rs.getInt("offer_index"),
        rs.getString("backend_id"),
        rs.getString("external_ref_json"),
        rs.getBigDecimal("hourly_usd"),
        rs.getBigDecimal("estimated_usd"),
        rs.getString("reason"),
        rs.getInt("restarts"),
        rs.getBoolean("cancel_requested"),
        instant(rs, "created_at"),
        instant(rs, "updated_at"),
        instant(rs, "submitted_at"),
        instant(rs, "started_at"),
        instant(rs, "ended_at"),
        rs.getString("lease_owner"),
        instant(rs, "lease_until"),
        rs.getLong("version"));
  }

  /** Binds every column of {@code row} to the parameter of the same name. */
  static <S extends SqlStatement<S>> S bindAll(S statement, JobRow row) {
    return statement
        .bind("id", row.id())
        .bind("team", row.team())
        .bind("owner_subject", row.ownerSubject())
        .bind("owner_username", row.ownerUsername())
        .bind("name", row.name())
        .bind("live_name", row.liveName())
        .bind("state", row.state().name())
        .bind("attempt", row.attempt())
        .bind("spec_json", row.specJson())
        .bind("spec_hash", row.specHash())
        .bind("decision_json", row.decisionJson())
        .bind("offer_index", row.offerIndex())
        .bind("backend_id", row.backendId())
        .bind("external_ref_json", row.externalRefJson())
        .bind("hourly_usd", row.hourlyUsd())
        .bind("estimated_usd", row.estimatedUsd())
        .bind("reason", row.reason())
        .bind("restarts", row.restarts())
        .bind("cancel_requested", row.cancelRequested())
        .bind("created_at", utc(row.createdAt()))
        .bind("updated_at", utc(row.updatedAt()))
        .bind("submitted_at", utc(row.submittedAt()))
        .bind("started_at", utc(row.startedAt()))
        .bind("ended_at", utc(row.endedAt()))
        .bind("lease_owner", row.leaseOwner())
        .bind("lease_until", utc(row.leaseUntil()))
        .bind("version", row.version());
  }

  /**
   * A {@code TIMESTAMP WITH TIME ZONE} parameter holding {@code t} in UTC (or NULL), cut to the
   * microseconds the column keeps, so that a comparison with a stored time means the same on both
   * databases.
   */
  static Argument utc(Instant t) {
    return (position, statement, ctx) -> {
      if (t == null) {
        statement.setNull(position, Types.TIMESTAMP_WITH_TIMEZONE);
      } else {
        statement.setObject(position, t.truncatedTo(ChronoUnit.MICROS).atOffset(ZoneOffset.UTC));
      }
    };
  }

  static Instant instant(ResultSet rs, String column) throws SQLException {
    var t = rs.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }
}
