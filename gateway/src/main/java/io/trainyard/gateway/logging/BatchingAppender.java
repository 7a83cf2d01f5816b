package io.trainyard.gateway.logging;

import ch.qos.logback.core.Appender;
import ch.qos.logback.core.AsyncAppenderBase;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.spi.DeferredProcessingAware;
import ch.qos.logback.core.spi.FilterReply;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * An asynchronous appender that writes its events in batches. A caller queues its event and returns
 * without waking anyone; one writer thread takes what has queued every {@link #LINGER_MILLIS} ms
 * (at once when the queue is half full), hands it to the attached appenders and flushes each of
 * their streams once per batch.
 *
 * <p>Logback's own {@link AsyncAppenderBase}, which Dropwizard puts in front of every request-log
 * appender, wakes its worker for every event, and the console appender behind it writes and flushes
 * every line: on a busy gateway that was a fifth of all CPU spent on a job read
 * (docs/benchmarks.md, session 14). Here a line reaches its output at most {@link #LINGER_MILLIS}
 * ms later instead.
 *
 * <p>The queue holds at most {@code queueSize} events (the appender's {@code queueSize} setting).
 * When it is full a caller waits for room, as with logback's, or with {@code neverBlock} drops its
 * event; dropped events are counted and reported once a batch. Stopping writes every event a caller
 * had begun to append before it (waiting at most {@code maxFlushTime} for them to be queued, and as
 * long again for the writer); events appended after it are refused, as by logback's own appenders.
 */
public final class BatchingAppender<E extends DeferredProcessingAware>
    extends AsyncAppenderBase<E> {
  /** How long a line may wait for its batch. */
  static final long LINGER_MILLIS = 20;

  /** At most this many events between two flushes, so a steady stream still reaches its output. */
  static final int MAX_BATCH = 1024;

  private final ConcurrentLinkedQueue<E> queue = new ConcurrentLinkedQueue<>();
  private final AtomicInteger queued = new AtomicInteger();
  private final AtomicLong dropped = new AtomicLong();

  /** Callers between their started check and their event's place in the queue. */
  private final LongAdder appending = new LongAdder();

  private volatile boolean stopping;
  private volatile Thread writer;
  private List<Appender<E>> outputs = List.of();

  @Override
  public void start() {
    if (isStarted()) {
      return;
    }
    var attached = new ArrayList<Appender<E>>();
    iteratorForAppenders().forEachRemaining(attached::add);
    if (attached.isEmpty()) {
      addError("No attached appenders found.");
      return;
    }
    if (getQueueSize() < 1) {
      addError("Invalid queue size [" + getQueueSize() + "]");
      return;
    }
    for (var appender : attached) {
      if (appender instanceof OutputStreamAppender<E> stream) {
        stream.setImmediateFlush(false); // flushed once per batch below
        if (appender instanceof ConsoleAppender<E> console) {
          // System.out flushes every write by itself: buffer the batch in front of it.
          console.setOutputStream(new BufferedOutputStream(console.getOutputStream(), 1 << 16));
        }
      }
    }
    outputs = List.copyOf(attached);
    stopping = false;
    var thread = new Thread(this::writeUntilStopped, "request-log-writer-" + getName());
    thread.setDaemon(true);
    writer = thread;
    started = true;
    thread.start();
  }

  /**
   * Logback's {@code doAppend} without its re-entry guard, which {@link #start} does not set up:
   * queueing an event logs nothing, so it cannot come back here. A caller counts itself in {@link
   * #appending} from before its started check until its event is queued, which {@link #stop} waits
   * for.
   */
  @Override
  public void doAppend(E event) {
    appending.increment();
    try {
      if (!started || getFilterChainDecision(event) == FilterReply.DENY) {
        return;
      }
      append(event);
    } catch (RuntimeException e) {
      addError("Could not queue an event for " + getName(), e);
    } finally {
      appending.decrement();
    }
  }

  @Override
  protected void append(E event) {
    event.prepareForDeferredProcessing(); // the request's objects are reused once it is answered
    int capacity = getQueueSize();
    int position;
    while ((position = queued.incrementAndGet()) > capacity) {
      queued.decrementAndGet();
      if (isNeverBlock() || stopping) {
        dropped.incrementAndGet();
        return;
      }
      LockSupport.unpark(writer);
      LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(1));
    }
    queue.offer(event);
    if (position == Math.max(1, capacity / 2)) {
      LockSupport.unpark(writer);
    }
  }

  private void writeUntilStopped() {
    while (true) {
      boolean last = stopping; // read before draining: whatever queued before stop() is written
      writeBatches();
      if (last) {
        break;
      }
      LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(LINGER_MILLIS));
    }
    detachAndStopAllAppenders();
  }

  private void writeBatches() {
    int written;
    do {
      written = 0;
      for (E event; written < MAX_BATCH && (event = queue.poll()) != null; written++) {
        queued.decrementAndGet();
        for (var output : outputs) {
          output.doAppend(event);
        }
      }
      if (written > 0) {
        flush();
      }
    } while (written == MAX_BATCH);
    long lost = dropped.getAndSet(0);
    if (lost > 0) {
      addWarn(lost + " events dropped: the queue of " + getQueueSize() + " was full");
    }
  }

  private void flush() {
    for (var output : outputs) {
      if (output instanceof OutputStreamAppender<E> stream && stream.getOutputStream() != null) {
        try {
          stream.getOutputStream().flush();
        } catch (IOException e) {
          addError("Could not flush " + output.getName(), e);
        }
      }
    }
  }

  @Override
  public void stop() {
    if (!isStarted()) {
      return;
    }
    started = false;
    // A caller that passed the started check before it changed is still queueing its event. The
    // writer's last drain must come after it, or that event would be lost.
    long waitUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(getMaxFlushTime());
    while (appending.sum() > 0 && System.nanoTime() < waitUntil) {
      LockSupport.parkNanos(this, TimeUnit.MICROSECONDS.toNanos(100));
    }
    stopping = true;
    var thread = writer;
    LockSupport.unpark(thread);
    try {
      thread.join(getMaxFlushTime());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (thread.isAlive()) {
      addWarn(
          "Stopped after "
              + getMaxFlushTime()
              + " ms with "
              + queued.get()
              + " events not yet written");
    }
  }

  @Override
  public int getNumberOfElementsInQueue() {
    return queued.get();
  }

  @Override
  public int getRemainingCapacity() {
    return Math.max(0, getQueueSize() - queued.get());
  }
}
