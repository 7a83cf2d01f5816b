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

  /**
   * Each column's position in {@link #SELECT}'s results. {@link #MAPPER} reads by position: by name
   * each of the 27 reads was a case-insensitive look-up (H2 upper-cases the name every time), about
   * a tenth of a job read's time in the database. Every query mapped with it selects {@link
   * #SELECT}'s columns.
   */
  private static final class At {
    static final int ID = position("id");
    static final int TEAM = position("team");
    static final int OWNER_SUBJECT = position("owner_subject");
    static final int OWNER_USERNAME = position("owner_username");
    static final int NAME = position("name");
    static final int LIVE_NAME = position("live_name");
    static final int STATE = position("state");
    static final int ATTEMPT = position("attempt");
    static final int SPEC_JSON = position("spec_json");
    static final int SPEC_HASH = position("spec_hash");
    static final int DECISION_JSON = position("decision_json");
    static final int OFFER_INDEX = position("offer_index");
    static final int BACKEND_ID = position("backend_id");
    static final int EXTERNAL_REF_JSON = position("external_ref_json");
    static final int HOURLY_USD = position("hourly_usd");
    static final int ESTIMATED_USD = position("estimated_usd");
    static final int REASON = position("reason");
    static final int RESTARTS = position("restarts");
    static final int CANCEL_REQUESTED = position("cancel_requested");
    static final int CREATED_AT = position("created_at");
    static final int UPDATED_AT = position("updated_at");
    static final int SUBMITTED_AT = position("submitted_at");
    static final int STARTED_AT = position("started_at");
    static final int ENDED_AT = position("ended_at");
    static final int LEASE_OWNER = position("lease_owner");
    static final int LEASE_UNTIL = position("lease_until");
    static final int VERSION = position("version");

    private static int position(String column) {
      int index = ALL.indexOf(column);
      if (index < 0) {
        throw new IllegalStateException("not a jobs column: " + column);
      }
      return index + 1;
    }
  }

  @Override
  public JobRow map(ResultSet rs, StatementContext ctx) throws SQLException {
    return new JobRow(
        rs.getString(At.ID),
        rs.getString(At.TEAM),
        rs.getString(At.OWNER_SUBJECT),
        rs.getString(At.OWNER_USERNAME),
        rs.getString(At.NAME),
        rs.getString(At.LIVE_NAME),
        JobState.valueOf(rs.getString(At.STATE)),
        rs.getInt(At.ATTEMPT),
        rs.getString(At.SPEC_JSON),
        rs.getString(At.SPEC_HASH),
        rs.getString(At.DECISION_JSON),
        rs.getInt(At.OFFER_INDEX),
        rs.getString(At.BACKEND_ID),
        rs.getString(At.EXTERNAL_REF_JSON),
        rs.getBigDecimal(At.HOURLY_USD),
        rs.getBigDecimal(At.ESTIMATED_USD),
        rs.getString(At.REASON),
        rs.getInt(At.RESTARTS),
        rs.getBoolean(At.CANCEL_REQUESTED),
        instant(rs, At.CREATED_AT),
        instant(rs, At.UPDATED_AT),
        instant(rs, At.SUBMITTED_AT),
        instant(rs, At.STARTED_AT),
        instant(rs, At.ENDED_AT),
        rs.getString(At.LEASE_OWNER),
        instant(rs, At.LEASE_UNTIL),
        rs.getLong(At.VERSION));
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
    return instant(rs, rs.findColumn(column));
  }

  private static Instant instant(ResultSet rs, int column) throws SQLException {
    var t = rs.getObject(column, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }
}
