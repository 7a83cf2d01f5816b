package io.trainyard.audit;

import java.io.IOException;
import java.io.Writer;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * Writes events as RFC 4180 CSV for people. Cells that a spreadsheet would run as a formula ({@code
 * = + - @}, tab, carriage return first) get a leading apostrophe: an export is opened by auditors,
 * and a job name or user agent is attacker-controlled text.
 */
final class CsvEventWriter {
  static final List<String> COLUMNS =
      List.of(
          "seq",
          "time",
          "action",
          "outcome",
          "resource",
          "team",
          "backend",
          "subject",
          "username",
          "client",
          "sourceIp",
          "requestId",
          "details",
          "eventHash",
          "hash");

  private final Writer out;

  CsvEventWriter(Writer out) throws IOException {
    this.out = out;
    row(COLUMNS);
  }

  void write(ChainedEvent chained) throws IOException {
    var e = chained.event();
    var actor = e.actor();
    row(
        java.util.Arrays.asList(
            Long.toString(e.seq()),
            DateTimeFormatter.ISO_INSTANT.format(e.time()),
            e.action(),
            e.outcome().wireName(),
            e.resource(),
            e.team(),
            e.backend(),
            actor.subject(),
            actor.username(),
            actor.client(),
            actor.sourceIp(),
            actor.requestId(),
            CanonicalJson.text(e.details()),
            chained.eventHash(),
            chained.hash()));
  }

  private void row(List<String> cells) throws IOException {
    for (int i = 0; i < cells.size(); i++) {
      if (i > 0) {
        out.write(',');
      }
      out.write(cell(cells.get(i)));
    }
    out.write("\r\n");
  }

  static String cell(String value) {
    if (value == null || value.isEmpty()) {
      return "";
    }
    var text = "=+-@\t\r".indexOf(value.charAt(0)) >= 0 ? "'" + value : value;
    if (text.indexOf(',') >= 0
        || text.indexOf('"') >= 0
        || text.indexOf('\n') >= 0
        || text.indexOf('\r') >= 0) {
      return '"' + text.replace("\"", "\"\"") + '"';
    }
    return text;
  }
}
