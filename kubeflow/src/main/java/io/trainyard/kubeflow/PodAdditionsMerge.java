package io.trainyard.kubeflow;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/** Lays a role's {@link PodAdditions} over its rendered pod spec; see there for the rules. */
final class PodAdditionsMerge {
  private PodAdditionsMerge() {}

  static void apply(PodAdditions additions, ObjectNode podSpec, ObjectNode main) {
    if (additions.isEmpty()) {
      return;
    }
    if (!additions.nodeSelector().isEmpty()) {
      var selector = podSpec.withObject("nodeSelector");
      additions.nodeSelector().forEach(selector::put);
    }
    if (!additions.tolerations().isEmpty()) {
      var tolerations = podSpec.withArray("tolerations");
      for (var toleration : additions.tolerations()) {
        var node = tree(toleration);
        if (!contains(tolerations, node)) {
          tolerations.add(node);
        }
      }
    }
    additions.volumes().forEach(v -> podSpec.withArray("volumes").add(tree(v)));
    additions.volumeMounts().forEach(m -> main.withArray("volumeMounts").add(tree(m)));
    if (!additions.env().isEmpty()) {
      var env = main.withArray("env");
      additions
          .env()
          .forEach((name, value) -> env.addObject().put("name", name).put("value", value));
    }
  }

  private static boolean contains(Iterable<JsonNode> nodes, JsonNode wanted) {
    for (var node : nodes) {
      if (node.equals(wanted)) {
        return true;
      }
    }
    return false;
  }

  private static ObjectNode tree(Map<String, Object> map) {
    return PodTemplateTrees.toTree(map);
  }
}
