package io.trainyard.audit;

import java.util.Locale;

/** How exported events are written. */
public enum ExportFormat {
  /**
   * One RFC 8785 event per line, with {@code {eventHash, hash, seq}} stubs for filtered-out events:
   * verifiable offline.
   */
  JSONL("events.jsonl"),
  /** A spreadsheet of the matching events only, for people: not verifiable event by event. */
  CSV("events.csv");

  private final String fileName;

  ExportFormat(String fileName) {
    this.fileName = fileName;
  }

  public String fileName() {
    return fileName;
  }

  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static ExportFormat fromWireName(String name) {
    for (var format : values()) {
      if (format.wireName().equals(name)) {
        return format;
      }
    }
    throw new IllegalArgumentException("unknown export format: " + name);
  }
}
