package io.trainyard.backend.kubernetes;

import io.trainyard.spi.LogLine;
import io.trainyard.spi.LogStream;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/** Lines already read, handed out one by one. */
final class ListedLogs implements LogStream {
  private final Iterator<LogLine> lines;

  ListedLogs(List<LogLine> lines) {
    this.lines = List.copyOf(lines).iterator();
  }

  @Override
  public Optional<LogLine> next() {
    return lines.hasNext() ? Optional.of(lines.next()) : Optional.empty();
  }

  @Override
  public void close() {}
}
