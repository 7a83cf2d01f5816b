package io.trainyard.gateway.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import io.trainyard.spi.spec.FieldError;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The body of {@code PUT /v1/teams/{team}/webhooks/{id}}. Absent fields keep their stored values on
 * a change; on creation {@code eventTypes} defaults to the ends of jobs, {@code enabled} to true
 * and {@code secret} to a generated one, answered once.
 */
public record WebhookRequest(String url, List<String> eventTypes, Boolean enabled, String secret) {
  private static final Set<String> FIELDS = Set.of("url", "eventTypes", "enabled", "secret");

  /**
   * Reads a request body field by field, so that a wrong type or an unknown field is refused by
   * name (never echoing a value: it may be the secret).
   */
  public static WebhookRequest from(JsonNode body) {
    if (body == null || !body.isObject()) {
      throw ApiException.field(ErrorCode.MALFORMED, "body", "must be a JSON object");
    }
    var errors = new ArrayList<FieldError>();
    body.fieldNames()
        .forEachRemaining(
            name -> {
              if (!FIELDS.contains(name)) {
                errors.add(new FieldError(name, "is not a field of a webhook"));
              }
            });
    var url = text(body, "url", errors);
    var secret = text(body, "secret", errors);
    Boolean enabled = null;
    var e = body.get("enabled");
    if (e != null && !e.isNull()) {
      if (e.isBoolean()) {
        enabled = e.booleanValue();
      } else {
        errors.add(new FieldError("enabled", "must be true or false"));
      }
    }
    List<String> types = null;
    var t = body.get("eventTypes");
    if (t != null && !t.isNull()) {
      if (!t.isArray()) {
        errors.add(new FieldError("eventTypes", "must be a list of event types"));
      } else {
        types = new ArrayList<>();
        for (int i = 0; i < t.size(); i++) {
          if (t.get(i).isTextual()) {
            types.add(t.get(i).asText());
          } else {
            errors.add(new FieldError("eventTypes[" + i + "]", "must be a string"));
          }
        }
      }
    }
    if (!errors.isEmpty()) {
      throw new ApiException(
          ErrorCode.MALFORMED, errors.get(0).field() + " " + errors.get(0).message(), errors, null);
    }
    return new WebhookRequest(url, types, enabled, secret);
  }

  private static String text(JsonNode body, String field, List<FieldError> errors) {
    var node = body.get(field);
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isTextual()) {
      errors.add(new FieldError(field, "must be a string"));
      return null;
    }
    return node.asText();
  }
}
