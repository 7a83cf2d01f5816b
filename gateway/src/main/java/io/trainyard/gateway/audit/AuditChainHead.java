package io.trainyard.gateway.audit;

import io.trainyard.audit.AuditChain;
import io.trainyard.audit.ChainedEvent;
import io.trainyard.gateway.db.GroupCommit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.jdbi.v3.core.Handle;

/**
 * The chain's order, the locked-head way (DESIGN.md "Audit", the first of the two ways): the one
 * row of {@code audit_head} is locked ({@code SELECT ... FOR UPDATE}) as the last statement of a
 * transaction that writes events; the events take the seqs after it, chained to its hash, and the
 * row moves on. The lock is held until the commit, so the next writer reads the head only after
 * this transaction committed or rolled back: seqs are gap-free and in commit order across every
 * replica, and an event never exists without the change it records.
 *
 * <p>Why this way and not the other one DESIGN.md names (requests write unchained rows, one leased
 * sealer chains them in batches): measured on a durable PostgreSQL with 8 writers
 * (bench/AuditAppendBenchmark, docs/benchmarks.md "Audit appends"), this way chains a median 391
 * events/s at one event per transaction, 4,186 at 10 and 18,369 at 100; the sealer 3,640, 12,498
 * and 7,999. The sealer wins only for unbatched writers, by committing them in parallel; but a
 * gateway transaction writes 1 to 4 events and a few hundred such transactions per second are far
 * above what a training gateway produces, while the sealer would add a second write and a delete
 * per event, a leased singleton that can stop chaining while requests succeed, chaining lag (an
 * event is not in the chain, an export or a digest when its request returns) and gap events for
 * numbers that never commit. Here an event's place is taken in the transaction of its change, which
 * is what fail-closed promises. Both reach the 10,000 events/s goal with batching.
 *
 * <p>No deadlock is possible: a transaction takes the head lock last and waits for nothing after it
 * (a group-committed batch is the one exception, see {@link #BATCHES}). Works the same on H2 (row
 * locks of MVStore).
 */
public final class AuditChainHead implements AuditAppender {
  /**
   * A {@link GroupCommit} batch's transactions: the head is locked and read at the batch's first
   * append and then kept in memory, each item's events chained after the previous item's, and the
   * row is written once, just before the commit, instead of locked, read and written per item. The
   * lock is still held from the first append to the commit, so the order argument above holds; a
   * batch takes it after its team locks, and waits for nothing after it but its items' own inserts
   * (a unique key another replica's open batch holds: PostgreSQL finds such a cycle and the batch
   * is retried).
   */
  public static final GroupCommit.BatchScope BATCHES =
      new GroupCommit.BatchScope() {
        @Override
        public void begin(Handle h) {
          OPEN.put(h, new OpenHead());
        }

        @Override
        public Object mark(Handle h) {
          var open = OPEN.get(h);
          return open == null ? null : open.copy();
        }

        @Override
        public void rolledBack(Handle h, Object mark) {
          // The item's events and, had it taken it, the head's lock went with its savepoint.
          if (mark instanceof OpenHead before) {
            OPEN.put(h, before);
          }
        }

        @Override
        public void beforeCommit(Handle h) {
          var open = OPEN.get(h);
          if (open != null && open.locked) {
            moveHead(h, open.lastSeq, open.lastHash);
          }
        }

        @Override
        public void end(Handle h) {
          OPEN.remove(h);
        }
      };

  /** The head as a batch's transaction left it: only set once it holds the row's lock. */
  private static final class OpenHead {
    boolean locked;
    long lastSeq;
    String lastHash;

    OpenHead copy() {
      var copy = new OpenHead();
      copy.locked = locked;
      copy.lastSeq = lastSeq;
      copy.lastHash = lastHash;
      return copy;
    }
  }

  private static final Map<Handle, OpenHead> OPEN =
      Collections.synchronizedMap(new IdentityHashMap<>());

  @Override
  public List<ChainedEvent> append(Handle h, List<AuditEntry> entries) {
    if (entries.isEmpty()) {
      return List.of();
    }
    var open = OPEN.get(h);
    var chain =
        open != null && open.locked
            ? AuditChain.resumeAfter(open.lastSeq, open.lastHash)
            : h.createQuery("SELECT last_seq, last_hash FROM audit_head WHERE id = 1 FOR UPDATE")
                .map((rs, ctx) -> AuditChain.resumeAfter(rs.getLong(1), rs.getString(2).trim()))
                .one();
    var chained = new ArrayList<ChainedEvent>(entries.size());
    for (var entry : entries) {
      chained.add(chain.append(entry.at(chain.nextSeq())));
    }
    AuditRows.insert(h, chained);
    if (open == null) {
      moveHead(h, chain.lastSeq(), chain.lastHash());
    } else {
      // Only now: had the insert failed, the item's savepoint would have undone the lock too.
      open.locked = true;
      open.lastSeq = chain.lastSeq();
      open.lastHash = chain.lastHash();
    }
    return chained;
  }

  private static void moveHead(Handle h, long seq, String hash) {
    h.createUpdate("UPDATE audit_head SET last_seq = :seq, last_hash = :hash WHERE id = 1")
        .bind("seq", seq)
        .bind("hash", hash)
        .execute();
  }
}
