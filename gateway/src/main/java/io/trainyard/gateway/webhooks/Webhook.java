package io.trainyard.gateway.webhooks;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A team's receiver of job events, as stored; {@code secretSealed} is the signing secret encrypted
 * by {@link WebhookSecrets}.
 */
public record Webhook(
    String team,
    String id,
    String url,
    List<String> eventTypes,
    boolean enabled,
    String secretSealed,
    Instant createdAt,
    Instant updatedAt,
    String updatedBy) {
  public Webhook {
    Objects.requireNonNull(team, "team");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(url, "url");
    eventTypes = List.copyOf(eventTypes);
    Objects.requireNonNull(secretSealed, "secretSealed");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
    Objects.requireNonNull(updatedBy, "updatedBy");
  }

  public boolean wants(String eventType) {
    return enabled && eventTypes.contains(eventType);
  }
}
