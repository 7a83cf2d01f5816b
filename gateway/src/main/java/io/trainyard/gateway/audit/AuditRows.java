package io.trainyard.gateway.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trainyard.audit.AuditActor;
import io.trainyard.audit.AuditDigest;
import io.trainyard.audit.AuditEvent;
import io.trainyard.audit.CanonicalJson;
import io.trainyard.audit.ChainedEvent;
import io.trainyard.audit.Outcome;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.argument.Argument;
import org.jdbi.v3.core.mapper.RowMapper;

/**
 * How events and digests go in and out of {@code audit_events} and {@code audit_digests}. An event
 * read back must hash as it did when written: times keep microseconds (as {@link AuditEvent} does),
 * details are stored as their RFC 8785 text, and CHAR columns are trimmed.
 */
public final class AuditRows {
  static final String EVENT_COLUMNS =
      "seq, event_time, actor_subject, actor_username, actor_client, actor_source_ip,"
          + " actor_request_id, action, resource, outcome, team, backend, details, event_hash, hash";

  static final String DIGEST_COLUMNS =
      "from_seq, to_seq, last_hash, previous_signature, signed_at, key_id, signature";

  private static final ObjectMapper JSON = new ObjectMapper();

  static final RowMapper<ChainedEvent> EVENT = (rs, ctx) -> event(rs);
  static final RowMapper<AuditDigest> DIGEST = (rs, ctx) -> digest(rs);

  private AuditRows() {}

  /** Inserts chained events in one batch. */
  public static void insert(Handle h, List<ChainedEvent> events) {
    var batch =
        h.prepareBatch(
            "INSERT INTO audit_events ("
                + EVENT_COLUMNS
                + ") VALUES (:seq, :time, :subject, :username, :client, :sourceIp, :requestId,"
                + " :action, :resource, :outcome, :team, :backend, :details, :eventHash, :hash)");
    for (var chained : events) {
      var e = chained.event();
      var actor = e.actor();
      batch
          .bind("seq", e.seq())
          .bind("time", utc(e.time()))
          .bind("subject", actor.subject())
          .bind("username", actor.username())
          .bind("client", actor.client())
          .bind("sourceIp", actor.sourceIp())
          .bind("requestId", actor.requestId())
          .bind("action", e.action())
          .bind("resource", e.resource())
          .bind("outcome", e.outcome().wireName())
          .bind("team", e.team())
          .bind("backend", e.backend())
          .bind("details", CanonicalJson.text(e.details()))
          .bind("eventHash", chained.eventHash())
          .bind("hash", chained.hash())
          .add();
    }
    batch.execute();
  }

  static void insert(Handle h, AuditDigest d) {
    h.createUpdate(
            "INSERT INTO audit_digests ("
                + DIGEST_COLUMNS
                + ") VALUES (:from, :to, :lastHash, :previous, :time, :keyId, :signature)")
        .bind("from", d.fromSeq())
        .bind("to", d.toSeq())
        .bind("lastHash", d.lastHash())
        .bind("previous", d.previousDigestSignature())
        .bind("time", utc(d.time()))
        .bind("keyId", d.keyId())
        .bind("signature", d.signature())
        .execute();
  }

  private static ChainedEvent event(ResultSet rs) throws SQLException {
    var actor =
        new AuditActor(
            rs.getString("actor_subject"),
            rs.getString("actor_username"),
            rs.getString("actor_client"),
            rs.getString("actor_source_ip"),
            rs.getString("actor_request_id"));
    AuditEvent event;
    try {
      event =
          new AuditEvent(
              rs.getLong("seq"),
              instant(rs, "event_time"),
              actor,
              rs.getString("action"),
              rs.getString("resource"),
              Outcome.fromWireName(rs.getString("outcome")),
              rs.getString("team"),
              rs.getString("backend"),
              JSON.readTree(rs.getString("details")));
    } catch (JsonProcessingException e) {
      // Stored by us as canonical JSON: unreadable means the row was altered outside the gateway.
      throw new SQLException("audit event " + rs.getLong("seq") + " has unreadable details", e);
    }
    return new ChainedEvent(event, rs.getString("event_hash").trim(), rs.getString("hash").trim());
  }

  private static AuditDigest digest(ResultSet rs) throws SQLException {
    return new AuditDigest(
        rs.getLong("from_seq"),
        rs.getLong("to_seq"),
        rs.getString("last_hash").trim(),
        rs.getString("previous_signature"),
        instant(rs, "signed_at"),
        rs.getString("key_id").trim(),
        rs.getString("signature"));
  }

  /** A TIMESTAMP WITH TIME ZONE parameter in UTC, cut to microseconds, or NULL. */
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
