package io.trainyard.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Who caused an event. Every field may be null: a failed authentication has no subject, an event of
 * the gateway itself has no source address. In records all five keys are always present, null or
 * not, so that an event has one canonical form.
 *
 * @param subject the token's {@code sub}, or {@code system:<component>} for the gateway itself
 * @param username the token's preferred user name, for people reading exports
 * @param client the OAuth client ({@code azp}) the request came through
 * @param sourceIp the caller's address as the gateway saw it
 * @param requestId the request id also written in the log line and the error body
 */
public record AuditActor(
    String subject, String username, String client, String sourceIp, String requestId) {

  /** The gateway itself, e.g. {@code system("reconciler")} for a state change it observed. */
  public static AuditActor system(String component) {
    return new AuditActor("system:" + component, null, null, null, null);
  }

  ObjectNode toTree() {
    var node = JsonNodeFactory.instance.objectNode();
    node.put("subject", subject);
    node.put("username", username);
    node.put("client", client);
    node.put("sourceIp", sourceIp);
    node.put("requestId", requestId);
    return node;
  }

  static AuditActor fromTree(JsonNode node) {
    if (node == null || !node.isObject()) {
      throw new IllegalArgumentException("actor is not an object");
    }
    return new AuditActor(
        JsonFields.optionalText(node, "subject"),
        JsonFields.optionalText(node, "username"),
        JsonFields.optionalText(node, "client"),
        JsonFields.optionalText(node, "sourceIp"),
        JsonFields.optionalText(node, "requestId"));
  }
}
