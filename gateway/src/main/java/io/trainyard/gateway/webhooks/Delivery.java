package io.trainyard.gateway.webhooks;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One event on its way to one webhook: a row of the outbox. {@code body} is the exact JSON sent on
 * every attempt. {@code attemptLog} is filled only where asked for (listings).
 */
public record Delivery(
    String id,
    String eventId,
    String eventType,
    String team,
    String webhookId,
    String jobId,
    String body,
    Status status,
    int attempts,
    Instant createdAt,
    Instant nextAttemptAt,
    Instant lastAttemptAt,
    Integer lastStatusCode,
    String lastError,
    String leaseOwner,
    long version,
    List<Attempt> attemptLog) {

  /** PENDING until a receiver takes it (DELIVERED) or the retries are used up (FAILED). */
  public enum Status {
    PENDING,
    DELIVERED,
    FAILED
  }

  /** One try: the receiver's status code, or why there was none. */
  public record Attempt(
      int attempt, Instant at, Integer statusCode, String error, long durationMs, String replica) {}

  public Delivery {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(eventId, "eventId");
    Objects.requireNonNull(status, "status");
    attemptLog = attemptLog == null ? List.of() : List.copyOf(attemptLog);
  }

  Delivery withAttempts(List<Attempt> log) {
    return new Delivery(
        id,
        eventId,
        eventType,
        team,
        webhookId,
        jobId,
        body,
        status,
        attempts,
        createdAt,
        nextAttemptAt,
        lastAttemptAt,
        lastStatusCode,
        lastError,
        leaseOwner,
        version,
        log);
  }
}
