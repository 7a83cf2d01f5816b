package io.trainyard.gateway.db;

import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Commits concurrent submissions together: one transaction, one audit-chain head lock and one WAL
 * flush for a batch of {@link JobStore#insert}s instead of one each (README "Group commit").
 *
 * <p>Callers queue their {@link JobInsertion}. A caller that finds no batch being committed commits
 * what is queued (its own item, and whatever came with it) on its own thread, so an idle gateway
 * commits batches of one with no hand-off to another thread and back: on two cores each such
 * hand-off is a wait for a core. A caller that finds a batch being committed waits, and wakes the
 * store's committer thread, which takes whatever is queued (up to {@code maxBatch}) as soon as that
 * batch committed, and keeps taking while more queue. There is no timer: a batch grows only while
 * the one before it is being flushed. In the batch's transaction it first locks the rows of the
 * teams whose budget or quotas the items check, in sorted order (two committers, in this or another
 * replica, never wait for each other in a cycle), then runs each item under its own savepoint, in
 * queue order, so each item sees the earlier ones exactly as a later transaction would: a repeated
 * idempotency key or live name answers {@link InsertResult.SameKey} / {@link
 * InsertResult.NameTaken}, a budget counts the earlier jobs of the team. An item that fails (a
 * unique key taken meanwhile by another replica, or any other error) is rolled back to its
 * savepoint and answered alone; the others go on. The first audit append of the batch takes the
 * chain head's lock, which the later items then already hold, until the commit.
 *
 * <p>Every caller is answered only after the commit returned: if the commit (or the transaction)
 * fails, every caller of the batch gets that failure and nothing of the batch is stored, so audit
 * stays fail-closed. What an item registers to run after the commit ({@link AfterCommit}) runs only
 * if the item was kept. A deadlock or serialization failure (two replicas' committers) retries the
 * whole batch. Thread-safe.
 */
public final class GroupCommit implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GroupCommit.class);
  private static final String SAVEPOINT = "group_commit_item";
  private static final int MAX_TRIES = 8;

  /** The gateway's batch limit: a few flushes' worth of submissions at the rates measured. */
  public static final int MAX_BATCH = 256;

  /** An item that must run alone after all, in a transaction of its own (see {@link #insert}). */
  private static final Object ALONE = new Object();

  private final Jdbi jdbi;
  private final int maxBatch;
  private final BatchScope scope;
  private final LinkedBlockingQueue<Queued> queue = new LinkedBlockingQueue<>();

  /** Held by whoever commits a batch now: a caller on its own thread, or the committer. */
  private final ReentrantLock committingNow = new ReentrantLock();

  /** A permit for each caller that found a batch being committed: the committer's wake-up. */
  private final Semaphore wanted = new Semaphore(0);

  private final Object startLock = new Object();
  private Thread committer;
  private volatile boolean closed;
  private volatile int committing;
  private final AtomicLong batches = new AtomicLong();
  private final AtomicLong items = new AtomicLong();

  /**
   * @param maxBatch the most items in one transaction; at least 1
   */
  public GroupCommit(Jdbi jdbi, int maxBatch) {
    this(jdbi, maxBatch, BatchScope.NONE);
  }

  /**
   * @param scope told when a batch's transaction begins and is about to commit (the audit chain's
   *     head keeps its place in memory for the batch and writes it once)
   */
  public GroupCommit(Jdbi jdbi, int maxBatch, BatchScope scope) {
    if (maxBatch < 1) {
      throw new IllegalArgumentException("maxBatch must be at least 1, not " + maxBatch);
    }
    this.jdbi = jdbi;
    this.maxBatch = maxBatch;
    this.scope = Objects.requireNonNull(scope, "scope");
  }

  /**
   * What else takes part in a batch's transaction: {@link #begin} before its first item, {@link
   * #beforeCommit} after its last (a failure there fails the batch), {@link #end} always, last.
   */
  public interface BatchScope {
    BatchScope NONE =
        new BatchScope() {
          @Override
          public void begin(Handle h) {}

          @Override
          public void beforeCommit(Handle h) {}

          @Override
          public void end(Handle h) {}
        };

    void begin(Handle h);

    /**
     * What an item's savepoint is about to cover: given back to {@link #rolledBack} when the item
     * is rolled back to its savepoint, so state kept in memory for the batch goes back with the
     * database.
     */
    default Object mark(Handle h) {
      return null;
    }

    /** The item begun at {@code mark} was rolled back to its savepoint. */
    default void rolledBack(Handle h, Object mark) {}

    void beforeCommit(Handle h);

    void end(Handle h);
  }

  /**
   * @param context the caller's MDC (request id, trace id, the job's fields), set while its item
   *     runs on the committer's thread so what it logs or registers carries it
   */
  private record Queued(
      JobInsertion item, CompletableFuture<InsertResult> answer, Map<String, String> context) {}

  /**
   * Runs {@code item} in the next batch and answers once that batch committed.
   *
   * @throws RuntimeException what the batch's transaction or commit threw, or what the item threw
   */
  InsertResult insert(JobInsertion item, Supplier<Instant> now) {
    var answer = new CompletableFuture<InsertResult>();
    var context = MDC.getCopyOfContextMap();
    var queued = new Queued(item, answer, context == null ? Map.of() : context);
    queue.add(queued);
    if (committingNow.tryLock()) {
      try {
        commitUntilAnswered(queued, now);
      } finally {
        committingNow.unlock();
      }
    } else if (startCommitter(now)) {
      // Whoever commits now may have looked at the queue before this item joined it; the
      // committer takes it once they are done (at the latest).
      wanted.release();
    } else if (queue.remove(queued)) {
      return item.run(now); // closed: no committer comes for it, so it commits alone
    }
    InsertResult result;
    try {
      result = answer.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the group commit", e);
    } catch (ExecutionException e) {
      throw unwrap(e.getCause());
    }
    // A unique key was taken by a transaction the batch could not see yet (H2 may say so before
    // the other commits): the item's own transaction retries until it sees the winner.
    return result == null ? item.run(now) : result;
  }

  private static RuntimeException unwrap(Throwable t) {
    if (t instanceof CompletionException && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof RuntimeException r) {
      return r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    return new IllegalStateException(t);
  }

  /** Starts the committer unless it runs; false once closed, when none will run again. */
  private boolean startCommitter(Supplier<Instant> now) {
    synchronized (startLock) {
      if (closed) {
        return false;
      }
      if (committer == null) {
        committer = new Thread(() -> commitForever(now), "group-commit");
        committer.setDaemon(true);
        committer.start();
      }
      return true;
    }
  }

  /**
   * Stops the committer thread once the batch it may be committing is done (woken, never
   * interrupted: an interrupt inside H2's file I/O closes the embedded database for every
   * connection). An insert from then on commits on its caller's thread, and so does one still
   * queued here. The gateway closes it as it stops, before the database pool.
   */
  @Override
  public void close() {
    Thread thread;
    synchronized (startLock) {
      closed = true;
      thread = committer;
    }
    if (thread != null) {
      wanted.release();
      try {
        thread.join(TimeUnit.SECONDS.toMillis(30));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (thread.isAlive()) {
        LOG.warn("the group-commit thread is still committing a batch after 30 s; left to end");
      }
    }
    // Queued after the committer's last look: each caller commits its own item.
    for (Queued left; (left = queue.poll()) != null; ) {
      left.answer().complete(null);
    }
  }

  /** Commits queued batches on the caller's thread until its own item is answered. */
  private void commitUntilAnswered(Queued own, Supplier<Instant> now) {
    var context = MDC.getCopyOfContextMap();
    var batch = new ArrayList<Queued>(Math.min(maxBatch, 16));
    try {
      // The item is either answered or still queued: only the holder of the lock takes items.
      while (!own.answer().isDone() && queue.drainTo(batch, maxBatch) > 0) {
        commitTaken(batch, now);
      }
    } finally {
      MDC.setContextMap(context == null ? Map.of() : context);
    }
  }

  private void commitForever(Supplier<Instant> now) {
    var batch = new ArrayList<Queued>(maxBatch);
    while (!closed) {
      try {
        wanted.acquire();
        wanted.drainPermits();
        if (closed) {
          return;
        }
        committingNow.lockInterruptibly();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      try {
        while (queue.drainTo(batch, maxBatch) > 0) {
          commitTaken(batch, now);
        }
      } finally {
        committingNow.unlock();
        MDC.clear();
      }
    }
  }

  /** Commits {@code batch}, answers each of its callers, and empties it. */
  private void commitTaken(List<Queued> batch, Supplier<Instant> now) {
    try {
      committing = batch.size();
      commit(batch, now);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      batch.forEach(q -> q.answer().completeExceptionally(e));
    } catch (RuntimeException | Error e) {
      // Never leave a caller waiting, whatever went wrong.
      LOG.error("group commit failed outside a batch", e);
      batch.forEach(q -> q.answer().completeExceptionally(e));
    } finally {
      committing = 0;
      batch.clear();
    }
  }

  private void commit(List<Queued> batch, Supplier<Instant> now) throws InterruptedException {
    for (int attempt = 1; ; attempt++) {
      List<Object> outcomes;
      try {
        outcomes = jdbi.inTransaction(h -> runBatch(h, batch, now.get(), scope));
      } catch (RuntimeException e) {
        if (attempt < MAX_TRIES && isRetryable(e)) {
          LOG.debug("group commit of {} retried after {}", batch.size(), e.toString());
          Thread.sleep(attempt * 5L);
          continue;
        }
        batch.forEach(q -> q.answer().completeExceptionally(e));
        return;
      }
      // Committed: now, and only now, every caller learns its outcome.
      batches.incrementAndGet();
      items.addAndGet(batch.size());
      for (int i = 0; i < batch.size(); i++) {
        var outcome = outcomes.get(i);
        if (outcome instanceof RuntimeException e) {
          batch.get(i).answer().completeExceptionally(e);
        } else if (outcome == ALONE) {
          batch.get(i).answer().complete(null);
        } else {
          batch.get(i).answer().complete((InsertResult) outcome);
        }
      }
      return;
    }
  }

  /** Batches committed so far. */
  public long batches() {
    return batches.get();
  }

  /** Items of the committed batches so far: with {@link #batches()}, the mean batch size. */
  public long items() {
    return items.get();
  }

  /** Items of the batch being committed now. */
  int committing() {
    return committing;
  }

  /** The committer thread, once started (tests). */
  Thread committerThread() {
    synchronized (startLock) {
      return committer;
    }
  }

  /** Items waiting for the next batch. */
  int queued() {
    return queue.size();
  }

  /** Each item's result, or the exception that rolled it back to its savepoint. */
  private static List<Object> runBatch(
      Handle h, List<Queued> batch, Instant now, BatchScope scope) {
    scope.begin(h);
    try {
      var outcomes = runItems(h, batch, now, scope);
      scope.beforeCommit(h);
      return outcomes;
    } finally {
      scope.end(h);
    }
  }

  private static List<Object> runItems(
      Handle h, List<Queued> batch, Instant now, BatchScope scope) {
    var teams = new TreeSet<String>();
    for (var q : batch) {
      var team = q.item().teamToLock();
      if (team != null) {
        teams.add(team);
      }
    }
    for (var team : teams) {
      TeamLedger.lock(h, team);
    }
    var outcomes = new ArrayList<>(batch.size());
    for (var q : batch) {
      h.savepoint(SAVEPOINT);
      var mark = scope.mark(h);
      Object outcome;
      try {
        MDC.setContextMap(q.context());
        outcome = AfterCommit.holdingHooks(h, () -> q.item().tryInsert(h, now, true));
        h.releaseSavepoint(SAVEPOINT);
      } catch (RuntimeException e) {
        h.rollbackToSavepoint(SAVEPOINT);
        scope.rolledBack(h, mark);
        if (isRetryable(e)) {
          throw e; // the whole batch: its locks may be what another committer waits for
        }
        outcome =
            JobInsertion.isUniqueViolation(e)
                ? q.item().conflict(h, now).<Object>map(r -> r).orElse(ALONE)
                : e;
      }
      outcomes.add(outcome);
    }
    return outcomes;
  }

  /** Deadlock or serialization failure (PostgreSQL 40P01/40001; H2 40001), or H2's lock timeout. */
  static boolean isRetryable(Throwable e) {
    for (var t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLException sql && sql.getSQLState() != null) {
        var state = sql.getSQLState();
        if (state.equals("40P01") || state.equals("40001") || state.equals("HYT00")) {
          return true;
        }
      }
    }
    return false;
  }
}
