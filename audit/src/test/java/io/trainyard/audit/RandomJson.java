package io.trainyard.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Random;

/** Random JSON trees with awkward names, strings and numbers, for differential tests. */
final class RandomJson {
  private static final String[] PIECES = {
    "a", "B", "é", "€", "😀", "\ufb33", "\u0000", "\n", "\"", "\\", "/", "1", "10", " ", "\u007f",
    "\u2028", "z"
  };
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private RandomJson() {}

  static ObjectNode object(Random random, int depth) {
    var node = NODES.objectNode();
    int members = random.nextInt(6);
    for (int i = 0; i < members; i++) {
      node.set(string(random), value(random, depth - 1));
    }
    return node;
  }

  private static JsonNode value(Random random, int depth) {
    int kind = random.nextInt(depth > 0 ? 8 : 6);
    return switch (kind) {
      case 0 -> NODES.nullNode();
      case 1 -> NODES.booleanNode(random.nextBoolean());
      case 2 -> NODES.numberNode(random.nextInt());
      case 3 -> NODES.numberNode(random.nextDouble() * Math.pow(10, random.nextInt(50) - 25));
      case 4, 5 -> NODES.textNode(string(random));
      case 6 -> object(random, depth);
      default -> {
        var array = NODES.arrayNode();
        for (int i = random.nextInt(4); i > 0; i--) {
          array.add(value(random, depth - 1));
        }
        yield array;
      }
    };
  }

  private static String string(Random random) {
    var out = new StringBuilder();
    for (int i = random.nextInt(5); i > 0; i--) {
      out.append(PIECES[random.nextInt(PIECES.length)]);
    }
    return out.toString();
  }
}
