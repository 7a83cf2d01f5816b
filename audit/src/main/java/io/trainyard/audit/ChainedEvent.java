package io.trainyard.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/**
 * An event in its place in the chain: what the gateway stores and exports.
 *
 * @param eventHash hex SHA-256 of the RFC 8785 bytes of {@link AuditEvent#toTree()}
 * @param hash hex SHA-256 of the previous event's {@code hash} bytes followed by this {@code
 *     eventHash}'s bytes (see {@link AuditChain})
 */
public record ChainedEvent(AuditEvent event, String eventHash, String hash) {
  public ChainedEvent {
    Objects.requireNonNull(event, "event");
    if (!Hex.isHex(eventHash, 32) || !Hex.isHex(hash, 32)) {
      throw new IllegalArgumentException("hashes are 64 lower-case hex digits");
    }
  }

  public long seq() {
    return event.seq();
  }

  /** The event's tree with {@code eventHash} and {@code hash}: one exported JSON Lines record. */
  public ObjectNode toTree() {
    var node = event.toTree();
    node.put("eventHash", eventHash);
    node.put("hash", hash);
    return node;
  }

  /**
   * Reads a stored or exported record as is, without checking its hashes ({@link
   * AuditChainVerifier} does that).
   */
  public static ChainedEvent fromTree(JsonNode node) {
    return new ChainedEvent(
        AuditEvent.fromTree(node),
        JsonFields.hash(node, "eventHash"),
        JsonFields.hash(node, "hash"));
  }
}
