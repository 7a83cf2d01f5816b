package io.trainyard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;

/**
 * Text from a job (its logs) made safe to print on a terminal. A job's output is whatever its code
 * wrote, and anyone allowed to read the job sees it: an escape sequence in it would act on the
 * reader's terminal (set the clipboard through OSC 52, retitle the window, move the cursor to
 * rewrite lines already shown), and a bidirectional override would reorder what the line seems to
 * say. Each such character is shown instead of obeyed: C0 controls but the tab and the line feed,
 * and DEL, in caret notation ({@code ^[}, {@code ^M}, {@code ^?}, as {@code cat -v} shows them), C1
 * controls and the bidirectional embedding, override and isolate characters as {@code <U+202E>}.
 *
 * <p>The same goes for every text value the CLI shows from the gateway's answers ({@link
 * #visibleTree}): a failure reason holds the job's last lines of output, a metric's name is the
 * job's, an algorithm's description its publisher's.
 */
final class TerminalText {
  private TerminalText() {}

  /** {@code line} with every character a terminal would act on shown as text. */
  static String visible(String line) {
    int first = 0;
    while (first < line.length() && !acts(line.charAt(first))) {
      first++;
    }
    if (first == line.length()) {
      return line;
    }
    var out = new StringBuilder(line.length() + 16).append(line, 0, first);
    for (int i = first; i < line.length(); i++) {
      char c = line.charAt(i);
      if (!acts(c)) {
        out.append(c);
      } else if (c < 0x20) {
        out.append('^').append((char) (c + 0x40));
      } else if (c == 0x7f) {
        out.append("^?");
      } else {
        out.append(String.format("<U+%04X>", (int) c));
      }
    }
    return out.toString();
  }

  /**
   * {@code node} with each text value, at any depth, as {@link #visible} shows it; {@code node}
   * itself when there is nothing to change.
   */
  static JsonNode visibleTree(JsonNode node) {
    if (node == null) {
      return null;
    }
    if (node.isTextual()) {
      var text = node.textValue();
      var shown = visible(text);
      return shown == text ? node : TextNode.valueOf(shown);
    }
    if (node.isObject()) {
      var object = (ObjectNode) node;
      var fields = object.fields();
      while (fields.hasNext()) {
        var field = fields.next();
        field.setValue(visibleTree(field.getValue()));
      }
    } else if (node.isArray()) {
      var array = (ArrayNode) node;
      for (int i = 0; i < array.size(); i++) {
        array.set(i, visibleTree(array.get(i)));
      }
    }
    return node;
  }

  private static boolean acts(char c) {
    return (c < 0x20 && c != '\t' && c != '\n')
        || (c >= 0x7f && c <= 0x9f)
        || (c >= 0x202a && c <= 0x202e)
        || (c >= 0x2066 && c <= 0x2069);
  }
}
