package io.trainyard.gateway.algorithms;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import io.trainyard.kubeflow.KubeflowConversionException;
import io.trainyard.kubeflow.KubeflowDocuments;

/**
 * Reads the bodies of the registry's API (JSON or YAML, as job documents are): a version's
 * definition, and the create request, which is a definition plus the algorithm's own fields.
 * Unknown fields are refused by name. Thread-safe.
 */
public final class AlgorithmDocuments {
  /** {@code POST /v1/algorithms}: the algorithm and its first version. */
  public record CreateRequest(
      String name, Visibility visibility, Integer version, AlgorithmDefinition definition) {}

  private final ObjectMapper strict =
      new ObjectMapper()
          .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
          .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
          .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);

  /**
   * A version's definition for {@code team/name}. The file that created the algorithm may be
   * published again as is: its {@code name} must then be this algorithm's and is dropped.
   */
  public AlgorithmDefinition definition(byte[] body, String team, String name) {
    var tree = object(body);
    var named = text(tree.remove("name"), "name");
    if (named != null && !named.equals(name) && !named.equals(team + "/" + name)) {
      throw ApiException.field(
          ErrorCode.INVALID_SPEC,
          "name",
          "is " + named + " but this is " + team + "/" + name + "; leave it out or make it match");
    }
    return definition(tree);
  }

  public CreateRequest create(byte[] body) {
    var tree = object(body);
    var name = text(tree.remove("name"), "name");
    var visibilityText = text(tree.remove("visibility"), "visibility");
    var versionNode = tree.remove("version");
    Visibility visibility;
    try {
      visibility =
          visibilityText == null ? Visibility.TEAM : Visibility.fromWireName(visibilityText);
    } catch (IllegalArgumentException e) {
      throw ApiException.field(ErrorCode.INVALID_SPEC, "visibility", e.getMessage());
    }
    if (versionNode != null && !(versionNode.isIntegralNumber() && versionNode.canConvertToInt())) {
      throw ApiException.field(ErrorCode.INVALID_SPEC, "version", "must be a whole number");
    }
    if (name == null) {
      throw ApiException.field(
          ErrorCode.INVALID_SPEC, "name", "is required: name or team/name (DNS-1123 labels)");
    }
    return new CreateRequest(
        name, visibility, versionNode == null ? null : versionNode.intValue(), definition(tree));
  }

  /** The {@code version} field of {@code POST .../default}, or the {@code visibility} one. */
  public String field(byte[] body, String field) {
    var value = text(object(body).get(field), field);
    if (value == null) {
      throw ApiException.field(ErrorCode.INVALID_SPEC, field, "is required");
    }
    return value;
  }

  private AlgorithmDefinition definition(ObjectNode tree) {
    try {
      return strict.treeToValue(tree, AlgorithmDefinition.class);
    } catch (JsonMappingException e) {
      throw ApiException.field(ErrorCode.INVALID_SPEC, path(e), message(e));
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw ApiException.field(ErrorCode.MALFORMED, "body", "could not be read");
    }
  }

  private static ObjectNode object(byte[] body) {
    JsonNode tree;
    try {
      tree = KubeflowDocuments.parseSingle(body);
    } catch (KubeflowConversionException e) {
      var first = e.errors().isEmpty() ? null : e.errors().get(0);
      throw ApiException.field(
          ErrorCode.MALFORMED, "body", first == null ? "could not be read" : first.message());
    }
    if (tree == null || !tree.isObject()) {
      throw ApiException.field(ErrorCode.MALFORMED, "body", "must be an object");
    }
    return (ObjectNode) tree;
  }

  private static String text(JsonNode node, String field) {
    if (node == null || node.isNull()) {
      return null;
    }
    if (!node.isValueNode()) {
      throw ApiException.field(ErrorCode.INVALID_SPEC, field, "must be a string");
    }
    return node.asText();
  }

  private static String path(JsonMappingException e) {
    var path = new StringBuilder();
    for (var ref : e.getPath()) {
      if (ref.getFieldName() != null) {
        path.append(path.length() == 0 ? "" : ".").append(ref.getFieldName());
      } else if (ref.getIndex() >= 0) {
        path.append('[').append(ref.getIndex()).append(']');
      }
    }
    return path.length() == 0 ? "body" : path.toString();
  }

  private static String message(JsonMappingException e) {
    if (e instanceof UnrecognizedPropertyException) {
      return "unknown field";
    }
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    if (t instanceof IllegalArgumentException && t.getMessage() != null) {
      return t.getMessage();
    }
    if (t instanceof NullPointerException) {
      return "must not hold null";
    }
    return "has the wrong type";
  }
}
