package io.trainyard.gateway.audit;

import java.time.Instant;

/**
 * What {@code GET /v1/audit} filters on; null fields match anything.
 *
 * @param actor the actor's subject or user name
 * @param action an exact action, or a prefix written {@code job.*}
 * @param from inclusive
 * @param to exclusive
 */
public record AuditQuery(
    String actor, String team, String action, String backend, Instant from, Instant to) {
  public static final AuditQuery ALL = new AuditQuery(null, null, null, null, null, null);
}
