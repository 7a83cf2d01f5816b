package io.trainyard.gateway.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.trainyard.gateway.webhooks.Webhook;
import java.time.Instant;
import java.util.List;

/**
 * A webhook as the API shows it: never its secret, except {@code secret} in the one answer that
 * generated it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WebhookView(
    String team,
    String id,
    String url,
    List<String> eventTypes,
    boolean enabled,
    boolean secretSet,
    String secret,
    Instant createdAt,
    Instant updatedAt,
    String updatedBy) {

  public static WebhookView of(Webhook w, String generatedSecret) {
    return new WebhookView(
        w.team(),
        w.id(),
        w.url(),
        w.eventTypes(),
        w.enabled(),
        true,
        generatedSecret,
        w.createdAt(),
        w.updatedAt(),
        w.updatedBy());
  }

  /** The webhooks of a team. */
  public record Page(List<WebhookView> webhooks) {}
}
