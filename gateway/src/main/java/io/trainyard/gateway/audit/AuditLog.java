package io.trainyard.gateway.audit;

import io.trainyard.audit.ChainedEvent;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where gateway code writes audit events, and the one place that decides what happens when it
 * cannot: with {@code failClosed} (the default, as Vault's audit devices do) the write fails, so
 * the transaction that would have changed something rolls back and the request is refused with 503
 * {@link ErrorCode#AUDIT_UNAVAILABLE}; without it the event is dropped, said loudly in the log, and
 * the change goes ahead. Thread-safe.
 */
public final class AuditLog {
  private static final Logger LOG = LoggerFactory.getLogger(AuditLog.class);
  private static final String SAVEPOINT = "audit_append";

  private final Jdbi jdbi;
  private final AuditAppender appender;
  private final boolean failClosed;
  private volatile AppendListener listener = AppendListener.NONE;

  /** Told of every append, on the appending thread: whether it stored the events, how long. */
  @FunctionalInterface
  public interface AppendListener {
    AppendListener NONE = (ok, took) -> {};

    void appended(boolean ok, Duration took);
  }

  public AuditLog(Jdbi jdbi, AuditAppender appender, boolean failClosed) {
    this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
    this.appender = Objects.requireNonNull(appender, "appender");
    this.failClosed = failClosed;
  }

  /** Tells {@code listener} of every append from now on (e.g. the gateway's metrics). */
  public void onAppend(AppendListener listener) {
    this.listener = Objects.requireNonNull(listener, "listener");
  }

  public boolean failClosed() {
    return failClosed;
  }

  /**
   * Appends {@code entries} inside the caller's transaction {@code h}; call it last in the
   * transaction (see {@link AuditChainHead}).
   *
   * @throws ApiException {@link ErrorCode#AUDIT_UNAVAILABLE} when failing closed and the events
   *     cannot be written; the caller's transaction must then roll back, which it does when the
   *     exception leaves its callback
   */
  public List<ChainedEvent> append(Handle h, List<AuditEntry> entries) {
    if (entries.isEmpty()) {
      return List.of();
    }
    if (failClosed) {
      try {
        return timedAppend(h, entries);
      } catch (RuntimeException e) {
        throw refuse(entries, e);
      }
    }
    // A failed statement poisons a PostgreSQL transaction: roll back to before the audit write
    // so that the change itself can still commit.
    h.savepoint(SAVEPOINT);
    try {
      var chained = timedAppend(h, entries);
      h.releaseSavepoint(SAVEPOINT);
      return chained;
    } catch (RuntimeException e) {
      h.rollbackToSavepoint(SAVEPOINT);
      LOG.error("AUDIT EVENTS LOST (audit.failClosed is off): {}", describe(entries), e);
      return List.of();
    }
  }

  private List<ChainedEvent> timedAppend(Handle h, List<AuditEntry> entries) {
    var began = System.nanoTime();
    var ok = false;
    try {
      var chained = appender.append(h, entries);
      ok = true;
      return chained;
    } finally {
      listener.appended(ok, Duration.ofNanos(System.nanoTime() - began));
    }
  }

  /** Appends {@code entries} in a transaction of their own. */
  public List<ChainedEvent> record(List<AuditEntry> entries) {
    if (entries.isEmpty()) {
      return List.of();
    }
    try {
      return jdbi.inTransaction(h -> append(h, entries));
    } catch (ApiException e) {
      throw e;
    } catch (RuntimeException e) {
      // The connection or the commit failed, not the append itself.
      if (failClosed) {
        throw refuse(entries, e);
      }
      LOG.error("AUDIT EVENTS LOST (audit.failClosed is off): {}", describe(entries), e);
      return List.of();
    }
  }

  public List<ChainedEvent> record(AuditEntry entry) {
    return record(List.of(entry));
  }

  private static ApiException refuse(List<AuditEntry> entries, RuntimeException cause) {
    // The caller hears only that the audit log is down; operators need the cause, once.
    LOG.error("audit log cannot be written; refusing {}", describe(entries), cause);
    return new ApiException(
        ErrorCode.AUDIT_UNAVAILABLE,
        "the audit log cannot be written, so nothing was done; try again later");
  }

  private static String describe(List<AuditEntry> entries) {
    return entries.stream().map(e -> e.action() + " " + e.resource()).toList().toString();
  }
}
