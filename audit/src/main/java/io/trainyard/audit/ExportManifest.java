package io.trainyard.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * {@code manifest.json} of an export: what it covers and how to check it, signed with the digest
 * key. The signature is Ed25519 over the RFC 8785 bytes of {@link #signedTree()}: every member but
 * {@code signature}, plus {@code "type": "trainyard.audit.export/1"}.
 *
 * <p>The digests list the signed digests that end inside the range (or just before it, vouching for
 * {@code previousHash}); the events after the last digest are vouched for by this manifest's own
 * signature, made when the export was written.
 *
 * @param previousHash {@code hash} of event {@code fromSeq - 1}, where the export's chain starts
 * @param records lines in the events file: full events plus stubs (JSON Lines), rows (CSV)
 * @param matched events that passed the filter and were written in full
 * @param filter the filter, as {@link ExportFilter} writes it
 * @param files hex SHA-256 of each other file of the export, by name
 */
public record ExportManifest(
    String name,
    ExportFormat format,
    Instant createdAt,
    long fromSeq,
    long toSeq,
    String previousHash,
    String firstHash,
    String lastHash,
    long records,
    long matched,
    JsonNode filter,
    Map<String, String> files,
    List<AuditDigest> digests,
    String keyId,
    String signature) {

  public static final String FILE_NAME = "manifest.json";
  static final String TYPE = "trainyard.audit.export/1";

  public ExportManifest {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(format, "format");
    Objects.requireNonNull(createdAt, "createdAt");
    filter = filter == null ? JsonNodeFactory.instance.objectNode() : filter.deepCopy();
    files = new TreeMap<>(files);
    digests = List.copyOf(digests);
  }

  @Override
  public JsonNode filter() {
    return filter.deepCopy();
  }

  @Override
  public Map<String, String> files() {
    return java.util.Collections.unmodifiableMap(files);
  }

  ExportManifest withSignature(String signature) {
    return new ExportManifest(
        name,
        format,
        createdAt,
        fromSeq,
        toSeq,
        previousHash,
        firstHash,
        lastHash,
        records,
        matched,
        filter,
        files,
        digests,
        keyId,
        signature);
  }

  public ObjectNode signedTree() {
    var node = JsonNodeFactory.instance.objectNode();
    node.put("type", TYPE);
    node.put("name", name);
    node.put("format", format.wireName());
    node.put("createdAt", createdAt.toString());
    node.put("fromSeq", fromSeq);
    node.put("toSeq", toSeq);
    node.put("previousHash", previousHash);
    node.put("firstHash", firstHash);
    node.put("lastHash", lastHash);
    node.put("records", records);
    node.put("matched", matched);
    node.set("filter", filter.deepCopy());
    var fileNode = node.putObject("files");
    files.forEach(fileNode::put);
    var digestArray = node.putArray("digests");
    digests.forEach(d -> digestArray.add(d.toTree()));
    node.put("keyId", keyId);
    return node;
  }

  public ObjectNode toTree() {
    return signedTree().put("signature", signature);
  }

  /**
   * @throws IllegalArgumentException naming the first member that is missing or malformed
   */
  public static ExportManifest fromTree(JsonNode node) {
    if (node == null || !node.isObject() || !TYPE.equals(JsonFields.optionalText(node, "type"))) {
      throw new IllegalArgumentException("not a " + TYPE + " manifest");
    }
    var files = new TreeMap<String, String>();
    var fileNode = node.get("files");
    if (fileNode == null || !fileNode.isObject()) {
      throw new IllegalArgumentException("'files' is missing or not an object");
    }
    for (Iterator<String> names = fileNode.fieldNames(); names.hasNext(); ) {
      var fileName = names.next();
      files.put(fileName, JsonFields.hash(fileNode, fileName));
    }
    var digests = new ArrayList<AuditDigest>();
    var digestArray = node.get("digests");
    if (digestArray == null || !digestArray.isArray()) {
      throw new IllegalArgumentException("'digests' is missing or not an array");
    }
    digestArray.forEach(d -> digests.add(AuditDigest.fromTree(d)));
    return new ExportManifest(
        JsonFields.text(node, "name"),
        ExportFormat.fromWireName(JsonFields.text(node, "format")),
        JsonFields.instant(node, "createdAt"),
        JsonFields.integer(node, "fromSeq"),
        JsonFields.integer(node, "toSeq"),
        JsonFields.hash(node, "previousHash"),
        JsonFields.hash(node, "firstHash"),
        JsonFields.hash(node, "lastHash"),
        JsonFields.integer(node, "records"),
        JsonFields.integer(node, "matched"),
        node.get("filter"),
        files,
        digests,
        JsonFields.hash(node, "keyId"),
        JsonFields.text(node, "signature"));
  }
}
