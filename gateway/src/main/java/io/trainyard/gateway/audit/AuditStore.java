package io.trainyard.gateway.audit;

import io.trainyard.audit.AuditChain;
import io.trainyard.audit.AuditDigest;
import io.trainyard.audit.AuditSource;
import io.trainyard.audit.ChainedEvent;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;
import org.jdbi.v3.core.Jdbi;

/**
 * Reads the audit tables: the chain's head, pages of events for {@code GET /v1/audit}, and the
 * {@link AuditSource} exports read from. Writes only digests; events are written by {@link
 * AuditAppender}s. Thread-safe; the same SQL on H2 and PostgreSQL.
 */
public final class AuditStore implements AuditSource {
  /** How many rows a streamed read fetches at a time. */
  private static final int FETCH = 1_000;

  /** The chain's last event (seq 0 and the genesis hash when empty). */
  public record Head(long seq, String hash) {}

  private final Jdbi jdbi;

  public AuditStore(Jdbi jdbi) {
    this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
  }

  public Head head() {
    return jdbi.withHandle(
        h ->
            h.createQuery("SELECT last_seq, last_hash FROM audit_head WHERE id = 1")
                .map((rs, ctx) -> new Head(rs.getLong(1), rs.getString(2).trim()))
                .one());
  }

  /**
   * Events after {@code afterSeq} that match {@code query}, in seq order, at most {@code limit}.
   */
  public List<ChainedEvent> page(AuditQuery query, long afterSeq, int limit) {
    var where = new ArrayList<String>();
    where.add("seq > :after");
    if (query.actor() != null) {
      where.add("(actor_subject = :actor OR actor_username = :actor)");
    }
    if (query.team() != null) {
      where.add("team = :team");
    }
    if (query.backend() != null) {
      where.add("backend = :backend");
    }
    if (query.action() != null) {
      where.add(query.action().endsWith(".*") ? "action LIKE :action" : "action = :action");
    }
    if (query.from() != null) {
      where.add("event_time >= :from");
    }
    if (query.to() != null) {
      where.add("event_time < :to");
    }
    var sql =
        "SELECT "
            + AuditRows.EVENT_COLUMNS
            + " FROM audit_events WHERE "
            + String.join(" AND ", where)
            + " ORDER BY seq LIMIT :limit";
    return jdbi.withHandle(
        h -> {
          var q = h.createQuery(sql).bind("after", afterSeq).bind("limit", limit);
          if (query.actor() != null) {
            q.bind("actor", query.actor());
          }
          if (query.team() != null) {
            q.bind("team", query.team());
          }
          if (query.backend() != null) {
            q.bind("backend", query.backend());
          }
          if (query.action() != null) {
            var action = query.action();
            q.bind("action", action.endsWith(".*") ? likePrefix(action) : action);
          }
          if (query.from() != null) {
            q.bind("from", AuditRows.utc(query.from()));
          }
          if (query.to() != null) {
            q.bind("to", AuditRows.utc(query.to()));
          }
          return q.map(AuditRows.EVENT).list();
        });
  }

  /**
   * The lowest and highest seq of events whose time is in {@code [from, to)}; empty when there are
   * none. Times are not monotonic along the chain (seq is commit order), so events outside the
   * window may lie between; an export's filter keeps them as stubs.
   */
  public Optional<long[]> seqRange(Instant from, Instant to) {
    return jdbi.withHandle(
        h ->
            h.createQuery(
                    "SELECT MIN(seq), MAX(seq) FROM audit_events"
                        + " WHERE event_time >= :from AND event_time < :to")
                .bind("from", AuditRows.utc(from))
                .bind("to", AuditRows.utc(to))
                .map(
                    (rs, ctx) -> {
                      long min = rs.getLong(1);
                      return rs.wasNull() ? null : new long[] {min, rs.getLong(2)};
                    })
                .findOne());
  }

  @Override
  public String hashAt(long seq) {
    if (seq == 0) {
      return AuditChain.GENESIS_HASH;
    }
    return jdbi.withHandle(
        h ->
            h.createQuery("SELECT hash FROM audit_events WHERE seq = :seq")
                .bind("seq", seq)
                .mapTo(String.class)
                .one()
                .trim());
  }

  /**
   * Streams from one transaction (a cursor on PostgreSQL, which needs auto-commit off), so memory
   * stays flat for any range; closing the stream releases the connection.
   */
  @Override
  public Stream<ChainedEvent> events(long fromSeq, long toSeq) {
    var handle = jdbi.open();
    try {
      handle.begin();
      return handle
          .createQuery(
              "SELECT "
                  + AuditRows.EVENT_COLUMNS
                  + " FROM audit_events WHERE seq BETWEEN :from AND :to ORDER BY seq")
          .bind("from", fromSeq)
          .bind("to", toSeq)
          .setFetchSize(FETCH)
          .map(AuditRows.EVENT)
          .stream()
          .onClose(
              () -> {
                handle.rollback();
                handle.close();
              });
    } catch (RuntimeException e) {
      handle.close();
      throw e;
    }
  }

  @Override
  public List<AuditDigest> digestsEndingBetween(long fromSeq, long toSeq) {
    return jdbi.withHandle(
        h ->
            h.createQuery(
                    "SELECT "
                        + AuditRows.DIGEST_COLUMNS
                        + " FROM audit_digests WHERE to_seq BETWEEN :from AND :to"
                        + " ORDER BY from_seq")
                .bind("from", fromSeq)
                .bind("to", toSeq)
                .map(AuditRows.DIGEST)
                .list());
  }

  /** Every digest, oldest first. */
  public List<AuditDigest> digests() {
    return digestsEndingBetween(0, Long.MAX_VALUE);
  }

  public Optional<AuditDigest> lastDigest() {
    return jdbi.withHandle(
        h ->
            h.createQuery(
                    "SELECT "
                        + AuditRows.DIGEST_COLUMNS
                        + " FROM audit_digests ORDER BY to_seq DESC LIMIT 1")
                .map(AuditRows.DIGEST)
                .findOne());
  }

  /** When event {@code seq} was written, if it exists. */
  public Optional<Instant> timeOf(long seq) {
    return jdbi.withHandle(
        h ->
            h.createQuery("SELECT event_time FROM audit_events WHERE seq = :seq")
                .bind("seq", seq)
                .map((rs, ctx) -> AuditRows.instant(rs, "event_time"))
                .findOne());
  }

  /**
   * Stores a digest. Digests are keyed by {@code fromSeq} (and {@code toSeq} is unique), so of two
   * signers that raced for the same range exactly one insert succeeds.
   */
  public void insertDigest(AuditDigest digest) {
    jdbi.useHandle(h -> AuditRows.insert(h, digest));
  }

  /** {@code job.*} as a LIKE pattern, with the wildcards of the name itself escaped. */
  private static String likePrefix(String action) {
    var prefix = action.substring(0, action.length() - 1);
    return prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
  }
}
