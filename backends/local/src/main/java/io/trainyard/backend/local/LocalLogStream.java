package io.trainyard.backend.local;

import io.trainyard.spi.LogLine;
import io.trainyard.spi.LogStream;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Lines of one or more replica logs, oldest first. Replicas, and the backend's notes about them,
 * are merged by time (at equal times the earlier reader in the list first: a replica's own log
 * before its notes); while following, a line is handed out as soon as it is written, so a replica
 * that writes late may appear slightly out of order. One reader thread; {@link #close()} may come
 * from any thread and wakes it.
 */
final class LocalLogStream implements LogStream {
  static final Comparator<LogLine> BY_TIME =
      Comparator.comparing(LogLine::at, Comparator.nullsFirst(Comparator.naturalOrder()));

  private final List<ReplicaLogReader> readers;
  private final Instant since;
  private final boolean follow;
  private final BooleanSupplier ended;
  private final Duration pollInterval;
  private final CountDownLatch closed = new CountDownLatch(1);

  /**
   * @param ended true once no replica can write any more (the attempt is terminal, or nobody is
   *     watching it any more); only asked when following
   */
  LocalLogStream(
      List<ReplicaLogReader> readers,
      Instant since,
      boolean follow,
      BooleanSupplier ended,
      Duration pollInterval) {
    this.readers = List.copyOf(readers);
    this.since = since;
    this.follow = follow;
    this.ended = ended;
    this.pollInterval = pollInterval;
  }

  @Override
  public Optional<LogLine> next() throws InterruptedException {
    while (closed.getCount() > 0) {
      // Asked before reading: once the attempt has ended every line is on disk, so a read that
      // then finds nothing has found the real end.
      boolean finished = !follow || ended.getAsBoolean();
      var line = earliest();
      if (line != null) {
        if (since == null || line.at() == null || !line.at().isBefore(since)) {
          return Optional.of(line);
        }
        continue;
      }
      if (finished) {
        return Optional.empty();
      }
      closed.await(pollInterval.toMillis(), TimeUnit.MILLISECONDS);
    }
    return Optional.empty();
  }

  private LogLine earliest() {
    ReplicaLogReader best = null;
    for (var reader : readers) {
      var head = reader.peek();
      if (head != null && (best == null || BY_TIME.compare(head, best.peek()) < 0)) {
        best = reader;
      }
    }
    return best == null ? null : best.take();
  }

  @Override
  public void close() {
    closed.countDown();
  }
}
