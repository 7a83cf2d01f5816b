package io.trainyard.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/**
 * A signed statement that the chain's events {@code fromSeq..toSeq} end in {@code lastHash}, like a
 * CloudTrail digest file. Digests follow each other without gaps ({@code fromSeq} is the previous
 * {@code toSeq + 1}) and each names the previous one's signature, so they form a chain of their
 * own: deleting a digest, or every event after one, is visible.
 *
 * <p>The signature is Ed25519 over the RFC 8785 bytes of {@link #signedTree()}: every member below
 * except {@code signature}, plus {@code "type": "trainyard.audit.digest/1"} so that a digest
 * signature can never be passed off as the signature of another kind of document.
 *
 * @param previousDigestSignature hex signature of the digest ending at {@code fromSeq - 1}; null
 *     for the first digest
 * @param keyId hex SHA-256 of the signing public key (X.509 DER)
 * @param signature hex Ed25519 signature (64 bytes)
 */
public record AuditDigest(
    long fromSeq,
    long toSeq,
    String lastHash,
    String previousDigestSignature,
    Instant time,
    String keyId,
    String signature) {

  static final String TYPE = "trainyard.audit.digest/1";
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

  public AuditDigest {
    if (fromSeq < 1 || toSeq < fromSeq) {
      throw new IllegalArgumentException("a digest covers 1 <= fromSeq <= toSeq");
    }
    if (!Hex.isHex(lastHash, 32) || !Hex.isHex(keyId, 32)) {
      throw new IllegalArgumentException("lastHash and keyId are 64 lower-case hex digits");
    }
    if (previousDigestSignature != null && !Hex.isHex(previousDigestSignature, 64)) {
      throw new IllegalArgumentException("previousDigestSignature is 128 hex digits or null");
    }
    time = Objects.requireNonNull(time, "time").truncatedTo(ChronoUnit.MICROS);
    Objects.requireNonNull(signature, "signature");
  }

  /** What the signature covers. */
  public ObjectNode signedTree() {
    var node = JsonNodeFactory.instance.objectNode();
    node.put("type", TYPE);
    node.put("fromSeq", fromSeq);
    node.put("toSeq", toSeq);
    node.put("lastHash", lastHash);
    node.put("previousDigestSignature", previousDigestSignature);
    node.put("time", TIME.format(time));
    node.put("keyId", keyId);
    return node;
  }

  /** The digest as stored and exported (one line of {@code digests.jsonl}). */
  public ObjectNode toTree() {
    return signedTree().put("signature", signature);
  }

  /**
   * @throws IllegalArgumentException naming the first member that is missing or malformed
   */
  public static AuditDigest fromTree(JsonNode node) {
    if (node == null || !node.isObject()) {
      throw new IllegalArgumentException("a digest is a JSON object");
    }
    if (!TYPE.equals(JsonFields.optionalText(node, "type"))) {
      throw new IllegalArgumentException("not a " + TYPE + " document");
    }
    return new AuditDigest(
        JsonFields.integer(node, "fromSeq"),
        JsonFields.integer(node, "toSeq"),
        JsonFields.hash(node, "lastHash"),
        JsonFields.optionalText(node, "previousDigestSignature"),
        JsonFields.instant(node, "time"),
        JsonFields.hash(node, "keyId"),
        JsonFields.text(node, "signature"));
  }
}
