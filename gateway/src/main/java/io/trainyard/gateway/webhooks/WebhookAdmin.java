package io.trainyard.gateway.webhooks;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.trainyard.audit.AuditActions;
import io.trainyard.audit.AuditActor;
import io.trainyard.gateway.api.WebhookRequest;
import io.trainyard.gateway.api.WebhookView;
import io.trainyard.gateway.audit.AuditEntry;
import io.trainyard.gateway.audit.AuditLog;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import io.trainyard.spi.spec.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Creating, changing and deleting a team's webhooks: validated (every refusal names its field),
 * stored with the secret encrypted, and audited in the same transaction. Thread-safe.
 */
public final class WebhookAdmin {
  /** Webhook ids: DNS-label-like names; {@code deliveries} is taken by the listing's path. */
  static final Pattern ID = Pattern.compile("[a-z0-9]([a-z0-9-]{0,62})");

  private static final int MIN_SECRET = 16;
  private static final int MAX_SECRET = 256;

  private final WebhookStore store;
  private final WebhookSecrets secrets;
  private final ReceiverPolicy policy;
  private final AuditLog audit;

  public WebhookAdmin(
      WebhookStore store, WebhookSecrets secrets, ReceiverPolicy policy, AuditLog audit) {
    this.store = Objects.requireNonNull(store, "store");
    this.secrets = Objects.requireNonNull(secrets, "secrets");
    this.policy = Objects.requireNonNull(policy, "policy");
    this.audit = Objects.requireNonNull(audit, "audit");
  }

  /** The outcome of a put: the webhook as stored, whether it is new, a generated secret. */
  public record Put(WebhookView view, boolean created) {}

  public Put put(String team, String id, WebhookRequest request, AuditActor actor, String by) {
    if (!ID.matcher(id).matches() || id.equals("deliveries")) {
      throw ApiException.field(
          ErrorCode.MALFORMED,
          "id",
          "must be 1 to 63 lowercase letters, digits and dashes, starting with a letter or digit"
              + " (and not 'deliveries')");
    }
    if (request == null) {
      throw ApiException.field(ErrorCode.MALFORMED, "body", "is required");
    }
    var errors = new ArrayList<FieldError>();
    try {
      policy.checkConfigured(request.url());
    } catch (ReceiverPolicy.Refused e) {
      errors.add(new FieldError("url", e.getMessage()));
    }
    if (request.eventTypes() != null) {
      checkTypes(request.eventTypes(), errors);
    }
    if (request.secret() != null) {
      checkSecret(request.secret(), errors);
    }
    if (!errors.isEmpty()) {
      throw new ApiException(
          ErrorCode.MALFORMED, errors.get(0).field() + " " + errors.get(0).message(), errors, null);
    }
    return store
        .jdbi()
        .inTransaction(
            h -> {
              var now = store.now();
              var existing = store.find(h, team, id);
              String generated = null;
              String secret = request.secret();
              if (secret == null && existing.isEmpty()) {
                secret = generated = secrets.generate();
              }
              var sealed =
                  secret == null
                      ? existing.get().secretSealed()
                      : secrets.encrypt(team, id, secret);
              var types =
                  request.eventTypes() != null
                      ? request.eventTypes().stream().distinct().toList()
                      : existing.map(Webhook::eventTypes).orElse(JobEvents.DEFAULT_TYPES);
              var enabled =
                  request.enabled() != null
                      ? request.enabled()
                      : existing.map(Webhook::enabled).orElse(true);
              var stored =
                  new Webhook(
                      team,
                      id,
                      request.url(),
                      types,
                      enabled,
                      sealed,
                      existing.map(Webhook::createdAt).orElse(now),
                      now,
                      by);
              store.put(h, stored);
              var details = JsonNodeFactory.instance.objectNode();
              details.put("created", existing.isEmpty());
              details.put("url", stored.url());
              details.set(
                  "eventTypes",
                  JsonNodeFactory.instance
                      .arrayNode()
                      .addAll(
                          stored.eventTypes().stream()
                              .map(JsonNodeFactory.instance::textNode)
                              .toList()));
              details.put("enabled", stored.enabled());
              details.put("secretChanged", secret != null);
              details.put("secretGenerated", generated != null);
              audit.append(
                  h,
                  List.of(
                      AuditEntry.builder(now, actor, AuditActions.WEBHOOK_PUT, resource(team, id))
                          .team(team)
                          .details(details)
                          .build()));
              return new Put(WebhookView.of(stored, generated), existing.isEmpty());
            });
  }

  /**
   * @return false when there was no such webhook
   */
  public boolean delete(String team, String id, AuditActor actor) {
    return store
        .jdbi()
        .inTransaction(
            h -> {
              var existing = store.find(h, team, id);
              if (existing.isEmpty()) {
                return false;
              }
              store.delete(h, team, id);
              var details = JsonNodeFactory.instance.objectNode();
              details.put("url", existing.get().url());
              audit.append(
                  h,
                  List.of(
                      AuditEntry.builder(
                              store.now(), actor, AuditActions.WEBHOOK_DELETE, resource(team, id))
                          .team(team)
                          .details(details)
                          .build()));
              return true;
            });
  }

  private static String resource(String team, String id) {
    return "webhook/" + team + "/" + id;
  }

  private static void checkTypes(List<String> types, List<FieldError> errors) {
    if (types.isEmpty()) {
      errors.add(new FieldError("eventTypes", "must name at least one event type"));
    }
    var known = JobEvents.types();
    for (int i = 0; i < types.size(); i++) {
      if (!known.contains(types.get(i))) {
        errors.add(new FieldError("eventTypes[" + i + "]", "must be one of " + known));
      }
    }
  }

  private static void checkSecret(String secret, List<FieldError> errors) {
    if (secret.length() < MIN_SECRET || secret.length() > MAX_SECRET) {
      errors.add(
          new FieldError(
              "secret", "must be " + MIN_SECRET + " to " + MAX_SECRET + " characters long"));
    } else if (!secret.chars().allMatch(c -> c > 0x20 && c < 0x7f)) {
      errors.add(
          new FieldError("secret", "must be printable ASCII without spaces, for openssl -hmac"));
    }
  }
}
