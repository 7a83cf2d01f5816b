package io.trainyard.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Left-aligned columns separated by two spaces, like {@code kubectl get}. Free-form lines (notes)
 * can follow a row without widening the columns.
 */
final class TextTable {
  private static final String GAP = "  ";

  private final List<String> headers;
  private final List<Object> entries = new ArrayList<>();

  TextTable(String... headers) {
    this.headers = List.of(headers);
  }

  TextTable row(String... cells) {
    if (cells.length != headers.size()) {
      throw new IllegalArgumentException(
          "a row needs " + headers.size() + " cells, got " + cells.length);
    }
    var copy = new String[cells.length];
    for (int i = 0; i < cells.length; i++) {
      copy[i] = cells[i] == null || cells[i].isEmpty() ? "-" : cells[i];
    }
    entries.add(copy);
    return this;
  }

  /** A line printed as is after the rows added so far. */
  TextTable note(String line) {
    entries.add(line);
    return this;
  }

  List<String> lines() {
    int[] widths = new int[headers.size()];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = headers.get(i).length();
    }
    for (Object entry : entries) {
      if (entry instanceof String[] cells) {
        for (int i = 0; i < cells.length; i++) {
          widths[i] = Math.max(widths[i], cells[i].length());
        }
      }
    }
    var lines = new ArrayList<String>();
    lines.add(format(headers.toArray(String[]::new), widths));
    for (Object entry : entries) {
      lines.add(entry instanceof String[] cells ? format(cells, widths) : (String) entry);
    }
    return lines;
  }

  private static String format(String[] cells, int[] widths) {
    var line = new StringBuilder();
    for (int i = 0; i < cells.length; i++) {
      line.append(cells[i]);
      if (i < cells.length - 1) {
        line.append(" ".repeat(widths[i] - cells[i].length())).append(GAP);
      }
    }
    return line.toString().stripTrailing();
  }
}
