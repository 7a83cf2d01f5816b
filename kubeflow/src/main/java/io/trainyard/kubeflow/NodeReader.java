package io.trainyard.kubeflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Typed reads of a document tree for one conversion: a value of the wrong type is refused at its
 * path and read as absent, so a conversion goes on to report every other problem too.
 */
final class NodeReader {
  private final Findings findings;

  NodeReader(Findings findings) {
    this.findings = findings;
  }

  Findings findings() {
    return findings;
  }

  static String at(String path, String field) {
    // An empty key is shown as "" so that an error about it still names a field.
    var name = field.isEmpty() ? "\"\"" : field;
    return path.isEmpty() ? name : path + "." + name;
  }

  static String at(String path, int index) {
    return path + "[" + index + "]";
  }

  static boolean absent(JsonNode node) {
    return node == null || node.isMissingNode() || node.isNull();
  }

  ObjectNode object(JsonNode node, String path) {
    if (absent(node)) {
      return null;
    }
    if (!node.isObject()) {
      findings.refuse(path, "must be an object");
      return null;
    }
    return (ObjectNode) node;
  }

  String text(JsonNode node, String path) {
    if (absent(node)) {
      return null;
    }
    if (!node.isTextual()) {
      findings.refuse(path, "must be a string" + (node.isValueNode() ? " (quote it)" : ""));
      return null;
    }
    return node.textValue();
  }

  Integer integer(JsonNode node, String path, int min) {
    if (absent(node)) {
      return null;
    }
    if (!node.isIntegralNumber() || !node.canConvertToInt()) {
      findings.refuse(path, "must be a whole number");
      return null;
    }
    if (node.intValue() < min) {
      findings.refuse(path, "must be at least " + min);
      return null;
    }
    return node.intValue();
  }

  Long longInteger(JsonNode node, String path, long min) {
    if (absent(node)) {
      return null;
    }
    if (!node.isIntegralNumber() || !node.canConvertToLong() || node.longValue() < min) {
      findings.refuse(path, "must be a whole number of at least " + min);
      return null;
    }
    return node.longValue();
  }

  Boolean bool(JsonNode node, String path) {
    if (absent(node)) {
      return null;
    }
    if (!node.isBoolean()) {
      findings.refuse(path, "must be true or false");
      return null;
    }
    return node.booleanValue();
  }

  /** A list of strings; null when absent. */
  List<String> strings(JsonNode node, String path) {
    if (absent(node)) {
      return null;
    }
    if (!node.isArray()) {
      findings.refuse(path, "must be a list of strings");
      return null;
    }
    var result = new ArrayList<String>();
    for (int i = 0; i < node.size(); i++) {
      var s = text(node.get(i), at(path, i));
      if (s != null) {
        result.add(s);
      }
    }
    return result;
  }

  /** A map of strings (labels, annotations); empty when absent. */
  Map<String, String> stringMap(JsonNode node, String path) {
    var result = new LinkedHashMap<String, String>();
    var object = object(node, path);
    if (object != null) {
      object
          .properties()
          .forEach(
              e -> {
                var s = text(e.getValue(), at(path, e.getKey()));
                if (s != null) {
                  result.put(e.getKey(), s);
                }
              });
    }
    return result;
  }

  /**
   * Refuses every field of {@code node} that is not in {@code known}: with its reason from {@code
   * refused} when there is one, else as not a field of {@code what}.
   */
  void onlyKnown(
      ObjectNode node, String path, Set<String> known, Map<String, String> refused, String what) {
    node.fieldNames()
        .forEachRemaining(
            name -> {
              if (known.contains(name)) {
                return;
              }
              var reason = refused.get(name);
              findings.refuse(
                  at(path, name), reason != null ? reason : "is not a field of " + what);
            });
  }

  /**
   * A field Trainyard does not carry, accepted only at the operator's default value (and then
   * dropped, with a warning saying so).
   */
  void defaultOnly(JsonNode node, String path, JsonNode defaultValue, String otherwise) {
    if (absent(node)) {
      return;
    }
    if (node.equals(defaultValue)) {
      findings.warn(path, "is the operator's default (" + node + "); left out");
    } else {
      findings.refuse(path, otherwise);
    }
  }
}
