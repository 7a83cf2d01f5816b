package io.trainyard.audit;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/**
 * Reading required and optional members of the audit records' JSON with one kind of error: an
 * {@link IllegalArgumentException} naming the member, which the verifier turns into a finding.
 */
final class JsonFields {
  private JsonFields() {}

  static String text(JsonNode node, String name) {
    var value = node.get(name);
    if (value == null || !value.isTextual()) {
      throw new IllegalArgumentException("'" + name + "' is missing or not a string");
    }
    return value.textValue();
  }

  static String optionalText(JsonNode node, String name) {
    var value = node.get(name);
    if (value == null || value.isNull()) {
      return null;
    }
    if (!value.isTextual()) {
      throw new IllegalArgumentException("'" + name + "' is not a string");
    }
    return value.textValue();
  }

  static long integer(JsonNode node, String name) {
    var value = node.get(name);
    if (value == null || !value.isIntegralNumber() || !value.canConvertToLong()) {
      throw new IllegalArgumentException("'" + name + "' is missing or not an integer");
    }
    return value.longValue();
  }

  static String hash(JsonNode node, String name) {
    var value = text(node, name);
    if (!Hex.isHex(value, 32)) {
      throw new IllegalArgumentException("'" + name + "' is not 64 lower-case hex digits");
    }
    return value;
  }

  static Instant instant(JsonNode node, String name) {
    try {
      return Instant.parse(text(node, name));
    } catch (java.time.format.DateTimeParseException e) {
      throw new IllegalArgumentException("'" + name + "' is not an ISO-8601 instant", e);
    }
  }
}
