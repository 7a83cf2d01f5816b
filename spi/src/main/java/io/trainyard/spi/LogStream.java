package io.trainyard.spi;

import java.io.Closeable;
import java.util.List;
import java.util.Optional;

/**
 * A stream of log lines. Not thread-safe: one reader. Closing it releases what it holds (files,
 * HTTP connections) and makes a blocked {@link #next()} return.
 */
public interface LogStream extends Closeable {

  /**
   * The next line, blocking while a followed attempt is still running; empty at the end.
   *
   * @throws InterruptedException the reading thread was interrupted
   */
  Optional<LogLine> next() throws InterruptedException;

  @Override
  void close();

  /** A stream of lines already read, handed out one by one; closing it does nothing. */
  static LogStream of(List<LogLine> lines) {
    var remaining = List.copyOf(lines).iterator();
    return new LogStream() {
      @Override
      public Optional<LogLine> next() {
        return remaining.hasNext() ? Optional.of(remaining.next()) : Optional.empty();
      }

      @Override
      public void close() {}
    };
  }
}
