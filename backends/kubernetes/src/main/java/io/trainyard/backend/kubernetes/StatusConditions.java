package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

/**
 * A job object's {@code status} as a generic resource holds it: maps, lists and strings. Both
 * controllers write {@code conditions[]} of {@code {type, status, reason, message,
 * lastTransitionTime}}, one per type; this reads them and the timestamps, tolerating what is
 * missing or malformed (a status is the controller's, not ours). Pure.
 */
final class StatusConditions {
  private StatusConditions() {}

  /** The object's {@code status}; empty when it has none. */
  static Map<String, Object> status(GenericKubernetesResource job) {
    return map(job.getAdditionalProperties().get("status"));
  }

  static List<Map<String, Object>> conditions(Map<String, Object> status) {
    if (!(status.get("conditions") instanceof List<?> list)) {
      return List.of();
    }
    return list.stream().map(StatusConditions::map).toList();
  }

  /** The condition of that type whose status is {@code True}; null when there is none. */
  static Map<String, Object> trueCondition(List<Map<String, Object>> conditions, String type) {
    for (var c : conditions) {
      if (type.equals(c.get("type")) && "True".equals(c.get("status"))) {
        return c;
      }
    }
    return null;
  }

  /** The condition of that type, whatever its status; null when there is none. */
  static Map<String, Object> condition(List<Map<String, Object>> conditions, String type) {
    for (var c : conditions) {
      if (type.equals(c.get("type"))) {
        return c;
      }
    }
    return null;
  }

  /** A condition's message, else its reason: the controller's own words. */
  static String words(Map<String, Object> condition) {
    var message = condition.get("message");
    if (message instanceof String s && !s.isBlank()) {
      return s;
    }
    return condition.get("reason") instanceof String r ? r : null;
  }

  static Instant transition(Map<String, Object> condition) {
    return condition == null ? null : instant(condition.get("lastTransitionTime"));
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object value) {
    return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  static int integer(Object value) {
    return value instanceof Number n ? n.intValue() : 0;
  }

  static Instant instant(Object value) {
    if (!(value instanceof String s) || s.isBlank()) {
      return null;
    }
    try {
      return Instant.parse(s);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
