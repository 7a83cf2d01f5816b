package io.trainyard.gateway.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trainyard.gateway.webhooks.Delivery;
import java.time.Instant;
import java.util.List;

/** One event's delivery to one webhook, with every attempt, as the team sees it. */
public record DeliveryView(
    String id,
    String eventId,
    String type,
    String webhook,
    String jobId,
    Delivery.Status status,
    int attempts,
    Instant createdAt,
    Instant nextAttemptAt,
    Instant lastAttemptAt,
    Integer lastStatusCode,
    String lastError,
    List<Delivery.Attempt> attemptLog,
    JsonNode event) {
  private static final ObjectMapper JSON = new ObjectMapper();

  public static DeliveryView of(Delivery d) {
    JsonNode event;
    try {
      event = JSON.readTree(d.body());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a stored event is not JSON", e);
    }
    return new DeliveryView(
        d.id(),
        d.eventId(),
        d.eventType(),
        d.webhookId(),
        d.jobId(),
        d.status(),
        d.attempts(),
        d.createdAt(),
        d.status() == Delivery.Status.PENDING ? d.nextAttemptAt() : null,
        d.lastAttemptAt(),
        d.lastStatusCode(),
        d.lastError(),
        d.attemptLog(),
        event);
  }

  /** A team's deliveries, newest first. */
  public record Page(List<DeliveryView> deliveries) {}
}
