package io.trainyard.bench.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.trainyard.audit.AuditActions;
import io.trainyard.audit.AuditActor;
import io.trainyard.audit.AuditChain;
import io.trainyard.audit.CanonicalJson;
import io.trainyard.audit.ChainedEvent;
import io.trainyard.audit.Outcome;
import io.trainyard.gateway.audit.AuditAppender;
import io.trainyard.gateway.audit.AuditEntry;
import io.trainyard.gateway.audit.AuditRows;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * The other ordering way of DESIGN.md "Audit", built only to be measured against {@link
 * io.trainyard.gateway.audit.AuditChainHead}: requests write events unchained into {@code
 * audit_outbox} (an identity column numbers them; no lock is shared), and one sealer (in a gateway,
 * the holder of a lease) chains them in that order into {@code audit_events}, in large batches. An
 * identity value that has not committed yet is a hole: the sealer waits for it, and after {@code
 * grace} gives up and records an {@code audit.gap} event for it, so the chain says that a number
 * never committed rather than skip it silently.
 */
final class OutboxSealer implements AuditAppender {
  static final List<String> DDL =
      List.of(
          "CREATE TABLE audit_outbox (id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
              + " event_time TIMESTAMPTZ NOT NULL, actor_subject VARCHAR(255),"
              + " actor_username VARCHAR(255), actor_client VARCHAR(255),"
              + " actor_source_ip VARCHAR(64), actor_request_id VARCHAR(64),"
              + " action VARCHAR(64) NOT NULL, resource VARCHAR(255) NOT NULL,"
              + " outcome VARCHAR(16) NOT NULL, team VARCHAR(128), backend VARCHAR(128),"
              + " details TEXT NOT NULL)",
          "CREATE TABLE audit_outbox_mark (id INT PRIMARY KEY, last_id BIGINT NOT NULL)",
          "INSERT INTO audit_outbox_mark VALUES (1, 0)");

  private static final ObjectMapper JSON = new ObjectMapper();

  private final int batch;
  private final Duration grace;
  private long holeSince = -1;

  OutboxSealer(int batch, Duration grace) {
    this.batch = batch;
    this.grace = grace;
  }

  /** The request side: unchained rows, no shared lock. */
  @Override
  public List<ChainedEvent> append(Handle h, List<AuditEntry> entries) {
    var insert =
        h.prepareBatch(
            "INSERT INTO audit_outbox (event_time, actor_subject, actor_username, actor_client,"
                + " actor_source_ip, actor_request_id, action, resource, outcome, team, backend,"
                + " details) VALUES (:time, :subject, :username, :client, :ip, :rid, :action,"
                + " :resource, :outcome, :team, :backend, :details)");
    for (var e : entries) {
      insert
          .bind("time", e.time().atOffset(ZoneOffset.UTC))
          .bind("subject", e.actor().subject())
          .bind("username", e.actor().username())
          .bind("client", e.actor().client())
          .bind("ip", e.actor().sourceIp())
          .bind("rid", e.actor().requestId())
          .bind("action", e.action())
          .bind("resource", e.resource())
          .bind("outcome", e.outcome().wireName())
          .bind("team", e.team())
          .bind("backend", e.backend())
          .bind("details", CanonicalJson.text(e.details()))
          .add();
    }
    insert.execute();
    return List.of();
  }

  /** One sealing pass: chains the committed run after the mark; returns how many it chained. */
  int sealOnce(Jdbi jdbi) {
    return jdbi.inTransaction(
        h -> {
          long mark =
              h.createQuery("SELECT last_id FROM audit_outbox_mark WHERE id = 1 FOR UPDATE")
                  .mapTo(Long.class)
                  .one();
          var rows = pending(h, mark);
          var entries = new ArrayList<AuditEntry>();
          long next = mark + 1;
          for (var row : rows) {
            if (row.id() != next) {
              if (!holeExpired()) {
                break;
              }
              entries.add(gap(next, row.id() - 1));
            }
            holeSince = -1;
            entries.add(row.entry());
            next = row.id() + 1;
          }
          if (entries.isEmpty()) {
            return 0;
          }
          chain(h, entries);
          h.createUpdate("DELETE FROM audit_outbox WHERE id < :next").bind("next", next).execute();
          h.createUpdate("UPDATE audit_outbox_mark SET last_id = :last WHERE id = 1")
              .bind("last", next - 1)
              .execute();
          return entries.size();
        });
  }

  private boolean holeExpired() {
    long now = System.nanoTime();
    if (holeSince < 0) {
      holeSince = now;
      return false;
    }
    return now - holeSince > grace.toNanos();
  }

  private static void chain(Handle h, List<AuditEntry> entries) {
    var chain =
        h.createQuery("SELECT last_seq, last_hash FROM audit_head WHERE id = 1 FOR UPDATE")
            .map((rs, ctx) -> AuditChain.resumeAfter(rs.getLong(1), rs.getString(2).trim()))
            .one();
    var chained = new ArrayList<ChainedEvent>(entries.size());
    for (var entry : entries) {
      chained.add(chain.append(entry.at(chain.nextSeq())));
    }
    AuditRows.insert(h, chained);
    h.createUpdate("UPDATE audit_head SET last_seq = :seq, last_hash = :hash WHERE id = 1")
        .bind("seq", chain.lastSeq())
        .bind("hash", chain.lastHash())
        .execute();
  }

  private static AuditEntry gap(long from, long to) {
    return AuditEntry.builder(
            Instant.now(), AuditActor.system("sealer"), AuditActions.AUDIT_GAP, "audit/outbox")
        .outcome(Outcome.FAILURE)
        .details(Map.of("fromId", from, "toId", to, "why", "never committed"))
        .build();
  }

  private record Pending(long id, AuditEntry entry) {}

  private List<Pending> pending(Handle h, long mark) {
    return h.createQuery("SELECT * FROM audit_outbox WHERE id > :mark ORDER BY id LIMIT " + batch)
        .bind("mark", mark)
        .map(
            (rs, ctx) -> {
              var actor =
                  new AuditActor(
                      rs.getString("actor_subject"),
                      rs.getString("actor_username"),
                      rs.getString("actor_client"),
                      rs.getString("actor_source_ip"),
                      rs.getString("actor_request_id"));
              try {
                var entry =
                    AuditEntry.builder(
                            rs.getObject("event_time", OffsetDateTime.class).toInstant(),
                            actor,
                            rs.getString("action"),
                            rs.getString("resource"))
                        .outcome(Outcome.fromWireName(rs.getString("outcome")))
                        .team(rs.getString("team"))
                        .backend(rs.getString("backend"))
                        .details(JSON.readTree(rs.getString("details")))
                        .build();
                return new Pending(rs.getLong("id"), entry);
              } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
              }
            })
        .list();
  }
}
