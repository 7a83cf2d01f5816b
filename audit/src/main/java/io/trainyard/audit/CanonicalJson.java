package io.trainyard.audit;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;

/**
 * RFC 8785 JSON Canonicalization Scheme (JCS) over a Jackson tree: object members sorted by the
 * UTF-16 code units of their names, no whitespace, strings escaped as ECMAScript's {@code
 * JSON.stringify} does, numbers as ECMAScript prints IEEE 754 doubles, UTF-8 output.
 *
 * <p>Written here rather than taken from a library: the one Java implementation on Maven Central
 * ({@code io.github.erdtman:java-json-canonicalization} 1.1) was last released in 2018 and parses
 * JSON text with its own parser, so hashing a tree we already hold would mean printing and parsing
 * it again on every event. That library is this class's test oracle instead.
 *
 * <p>Every number is treated as a double, as RFC 8785 requires: integers above 2^53 lose precision,
 * which is why audit records carry money and large identifiers as strings. Strings with an unpaired
 * surrogate are refused (I-JSON, RFC 7493), as are nodes that are not JSON values. Thread-safe: no
 * state.
 */
public final class CanonicalJson {
  private CanonicalJson() {}

  /** The canonical UTF-8 bytes of {@code node}. */
  public static byte[] bytes(JsonNode node) {
    var out = new CanonicalWriter(512);
    write(node, out);
    return out.toByteArray();
  }

  /** The canonical text of {@code node}. */
  public static String text(JsonNode node) {
    return new String(bytes(node), StandardCharsets.UTF_8);
  }

  static void write(JsonNode node, CanonicalWriter out) {
    switch (node.getNodeType()) {
      case OBJECT -> writeObject(node, out);
      case ARRAY -> {
        out.ascii('[');
        for (int i = 0; i < node.size(); i++) {
          if (i > 0) {
            out.ascii(',');
          }
          write(node.get(i), out);
        }
        out.ascii(']');
      }
      case STRING -> out.string(node.textValue());
      case NUMBER -> out.number(node.doubleValue());
      case BOOLEAN -> out.ascii(node.booleanValue() ? "true" : "false");
      case NULL -> out.ascii("null");
      default -> throw new IllegalArgumentException("not a JSON value: " + node.getNodeType());
    }
  }

  private static void writeObject(JsonNode node, CanonicalWriter out) {
    var names = new ArrayList<String>(node.size());
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
      names.add(it.next());
    }
    // String.compareTo compares UTF-16 code units, which is exactly RFC 8785's order.
    Collections.sort(names);
    out.ascii('{');
    for (int i = 0; i < names.size(); i++) {
      if (i > 0) {
        out.ascii(',');
      }
      out.string(names.get(i)).ascii(':');
      write(node.get(names.get(i)), out);
    }
    out.ascii('}');
  }
}
