package io.trainyard.kubeflow;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Pod-template trees between the document's nodes and the spec's {@code Map<String, Object>},
 * keeping numbers exact both ways so a template converts back to the very same tree.
 */
final class PodTemplateTrees {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
  private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() {};

  private PodTemplateTrees() {}

  static Map<String, Object> toMap(ObjectNode tree) {
    return MAPPER.convertValue(tree, MAP);
  }

  static ObjectNode toTree(Map<String, Object> map) {
    return MAPPER.valueToTree(map);
  }
}
