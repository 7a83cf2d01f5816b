package io.trainyard.gateway.audit;

import io.trainyard.audit.ChainedEvent;
import java.util.List;
import org.jdbi.v3.core.Handle;

/**
 * Gives entries their place in the one chain and stores them, inside the caller's transaction, so
 * that an event commits exactly when the change it records does. Implementations are thread-safe
 * and may be used by many gateway replicas on one database at once.
 */
public interface AuditAppender {
  /**
   * Chains and stores {@code entries}, in order. Call it as the last statement of the transaction:
   * an implementation may hold a lock until the commit.
   *
   * @return the events as stored
   * @throws RuntimeException whatever the database threw; the caller's transaction must roll back
   */
  List<ChainedEvent> append(Handle transaction, List<AuditEntry> entries);
}
