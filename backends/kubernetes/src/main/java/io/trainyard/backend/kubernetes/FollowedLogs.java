package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.client.dsl.LogWatch;
import io.trainyard.spi.LogLine;
import io.trainyard.spi.LogStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Followed logs of one or more pods: one reader thread per pod's log watch puts lines on a queue in
 * the order they arrive; the stream ends when every pod's log has ended (the container stopped) or
 * when it is closed. One reader of {@link #next()}.
 */
final class FollowedLogs implements LogStream {
  private static final Object END = new Object();

  private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
  private final List<LogWatch> watches = new CopyOnWriteArrayList<>();
  // One for the caller until every pod is added, so a short log cannot end the stream early.
  private final AtomicInteger open = new AtomicInteger(1);
  private volatile boolean closed;

  void add(
      String replica, LogWatch watch, Function<String, LogLine> parse, Predicate<LogLine> wanted) {
    watches.add(watch);
    open.incrementAndGet();
    var reader = new Thread(() -> pump(watch, parse, wanted), "kubernetes-logs-" + replica);
    reader.setDaemon(true);
    reader.start();
  }

  /** Every pod is added: the stream ends when their logs do. */
  FollowedLogs addedAll() {
    finishOne();
    return this;
  }

  private void finishOne() {
    if (open.decrementAndGet() == 0) {
      queue.add(END);
    }
  }

  private void pump(LogWatch watch, Function<String, LogLine> parse, Predicate<LogLine> wanted) {
    try (var in =
        new BufferedReader(new InputStreamReader(watch.getOutput(), StandardCharsets.UTF_8))) {
      String raw;
      while (!closed && (raw = in.readLine()) != null) {
        var line = parse.apply(raw);
        if (wanted.test(line)) {
          queue.add(line);
        }
      }
    } catch (IOException e) {
      // A watch closed under us (close(), or the pod went): this pod's log ends here.
    } finally {
      finishOne();
    }
  }

  @Override
  public Optional<LogLine> next() throws InterruptedException {
    if (closed) {
      return Optional.empty();
    }
    var item = open.get() == 0 && queue.isEmpty() ? END : queue.take();
    if (item == END) {
      queue.add(END); // later calls end too
      return Optional.empty();
    }
    return Optional.of((LogLine) item);
  }

  @Override
  public void close() {
    closed = true;
    watches.forEach(LogWatch::close);
    queue.add(END);
  }
}
