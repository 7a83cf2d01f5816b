package io.trainyard.gateway.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.OutputStreamAppender;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The access log's hand-off: lines queued while the writer is busy reach the output together and in
 * order, a full queue holds its callers back (or drops and says so, if told never to block), and
 * stopping writes what is queued.
 */
class BatchingAppenderTest {
  private final LoggerContext context = new LoggerContext();

  {
    context.setMDCAdapter(new ch.qos.logback.classic.util.LogbackMDCAdapter());
  }

  private final Gate gate = new Gate();
  private final Recorder recorded = new Recorder();
  private final BatchingAppender<ILoggingEvent> batching = new BatchingAppender<>();

  @AfterEach
  void stop() {
    gate.release.countDown();
    batching.stop();
  }

  @Test
  void linesQueuedWhileTheWriterIsBusyReachTheOutputInOrderAndInOneFlush() throws Exception {
    start(1000, recorder());
    batching.doAppend(event("line-0"));
    assertThat(gate.entered.await(10, TimeUnit.SECONDS)).isTrue();
    for (int i = 1; i <= 100; i++) {
      batching.doAppend(event("line-" + i));
    }
    gate.release.countDown();
    batching.stop();

    assertThat(recorded.lines()).isEqualTo(lines(0, 100));
    // One flush for the whole batch, where a write-and-flush per line would be 101.
    assertThat(recorded.flushesBeforeClose).isEqualTo(1);
  }

  @Test
  void aFullQueueHoldsTheCallerBackAndLosesNothing() throws Exception {
    start(4, recorder());
    batching.doAppend(event("line-0"));
    assertThat(gate.entered.await(10, TimeUnit.SECONDS)).isTrue();
    var caller =
        new Thread(
            () -> {
              for (int i = 1; i <= 10; i++) {
                batching.doAppend(event("line-" + i));
              }
            });
    caller.start();
    waitFor(() -> batching.getNumberOfElementsInQueue() == 4);
    assertThat(batching.getRemainingCapacity()).isZero();
    assertThat(caller.isAlive()).isTrue(); // six lines cannot have been queued yet

    gate.release.countDown();
    caller.join(TimeUnit.SECONDS.toMillis(20));
    assertThat(caller.isAlive()).isFalse();
    batching.stop();
    assertThat(recorded.lines()).isEqualTo(lines(0, 10));
  }

  @Test
  void neverBlockDropsWhatDoesNotFitAndSaysHowMany() throws Exception {
    batching.setNeverBlock(true);
    start(10, recorder());
    batching.doAppend(event("line-0"));
    assertThat(gate.entered.await(10, TimeUnit.SECONDS)).isTrue();
    for (int i = 1; i <= 19; i++) {
      batching.doAppend(event("line-" + i)); // returns at once even with the writer held up
    }
    gate.release.countDown();
    batching.stop();

    assertThat(recorded.lines()).isEqualTo(lines(0, 10));
    assertThat(context.getStatusManager().getCopyOfStatusList())
        .anySatisfy(
            s ->
                assertThat(s.getMessage()).isEqualTo("9 events dropped: the queue of 10 was full"));
  }

  @Test
  void stoppingWritesEverythingQueued() {
    start(1000, recorder());
    gate.release.countDown();
    for (int i = 0; i < 500; i++) {
      batching.doAppend(event("line-" + i));
    }
    batching.stop();
    assertThat(recorded.lines()).isEqualTo(lines(0, 499));
    assertThat(batching.isStarted()).isFalse();
  }

  /**
   * A caller that passed the started check just before the stop is still queueing its event: stop
   * waits for it, so the writer's last drain writes it. A filter holds the caller exactly there.
   */
  @Test
  void anEventOnItsWayInWhenTheStopBeginsIsWritten() throws Exception {
    var inside = new CountDownLatch(1);
    var proceed = new CountDownLatch(1);
    batching.addFilter(
        new ch.qos.logback.core.filter.Filter<>() {
          @Override
          public ch.qos.logback.core.spi.FilterReply decide(ILoggingEvent event) {
            if (event.getMessage().equals("line-1")) {
              inside.countDown();
              try {
                proceed.await(20, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
            return ch.qos.logback.core.spi.FilterReply.NEUTRAL;
          }
        });
    start(1000, recorder());
    gate.release.countDown();
    batching.doAppend(event("line-0"));
    var caller = new Thread(() -> batching.doAppend(event("line-1")));
    caller.start();
    assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
    var stopper = new Thread(batching::stop);
    stopper.start();
    waitFor(() -> !batching.isStarted());

    proceed.countDown();
    caller.join(TimeUnit.SECONDS.toMillis(20));
    stopper.join(TimeUnit.SECONDS.toMillis(20));

    assertThat(stopper.isAlive()).isFalse();
    assertThat(recorded.lines()).isEqualTo(lines(0, 1));
    batching.doAppend(event("line-2")); // refused once stopped, as logback's own appenders do
    assertThat(recorded.lines()).isEqualTo(lines(0, 1));
  }

  @Test
  void aConsoleGetsABatchInOneWrite() throws Exception {
    var writes = new ArrayList<String>();
    var console = new ConsoleAppender<ILoggingEvent>();
    var original = System.out;
    System.setOut(
        new PrintStream(
            new java.io.OutputStream() {
              @Override
              public void write(int b) {
                write(new byte[] {(byte) b}, 0, 1);
              }

              @Override
              public void write(byte[] b, int off, int len) {
                var text = new String(b, off, len, StandardCharsets.UTF_8);
                if (text.contains("console-0")) {
                  gate.pass();
                }
                synchronized (writes) {
                  writes.add(text);
                }
              }
            },
            true,
            StandardCharsets.UTF_8));
    try {
      console.setContext(context);
      console.setEncoder(encoder());
      console.start();
      start(1000, console);
      batching.doAppend(event("console-0"));
      assertThat(gate.entered.await(10, TimeUnit.SECONDS)).isTrue();
      for (int i = 1; i <= 100; i++) {
        batching.doAppend(event("console-" + i));
      }
      gate.release.countDown();
      batching.stop();
    } finally {
      System.setOut(original);
    }
    List<String> ours;
    synchronized (writes) {
      ours = writes.stream().filter(w -> w.contains("console-")).toList();
    }
    // System.out flushes every write itself: without the buffer in front, 101 writes.
    assertThat(ours).hasSize(2);
    assertThat(ours.get(0)).isEqualTo("console-0\n");
    assertThat(ours.get(1))
        .isEqualTo(
            IntStream.rangeClosed(1, 100)
                .mapToObj(i -> "console-" + i + "\n")
                .reduce("", String::concat));
  }

  private void start(int queueSize, ch.qos.logback.core.Appender<ILoggingEvent> output) {
    batching.setContext(context);
    batching.setName("test");
    batching.setQueueSize(queueSize);
    batching.addAppender(output);
    batching.start();
    assertThat(batching.isStarted()).isTrue();
  }

  private OutputStreamAppender<ILoggingEvent> recorder() {
    var appender = new OutputStreamAppender<ILoggingEvent>();
    appender.setContext(context);
    appender.setEncoder(encoder());
    appender.setOutputStream(recorded);
    appender.start();
    return appender;
  }

  private PatternLayoutEncoder encoder() {
    var encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern("%msg%n");
    encoder.start();
    return encoder;
  }

  private LoggingEvent event(String message) {
    return new LoggingEvent(
        getClass().getName(), context.getLogger("test"), Level.INFO, message, null, null);
  }

  private static List<String> lines(int first, int last) {
    return IntStream.rangeClosed(first, last).mapToObj(i -> "line-" + i).toList();
  }

  private static void waitFor(java.util.function.BooleanSupplier condition) throws Exception {
    var deadline = Instant.now().plus(Duration.ofSeconds(20));
    while (!condition.getAsBoolean()) {
      assertThat(Instant.now()).isBefore(deadline);
      Thread.sleep(5);
    }
  }

  /** Holds the writer in its first write until released. */
  private static final class Gate {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);

    void pass() {
      entered.countDown();
      try {
        release.await(20, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** What reached an output stream, and how often it was flushed before being closed. */
  private final class Recorder extends ByteArrayOutputStream {
    volatile int flushesBeforeClose;
    private volatile boolean closed;

    @Override
    public void write(byte[] b, int off, int len) {
      if (size() == 0) {
        gate.pass();
      }
      super.write(b, off, len);
    }

    @Override
    public void flush() {
      if (!closed) {
        flushesBeforeClose++;
      }
    }

    @Override
    public void close() {
      closed = true;
    }

    synchronized List<String> lines() {
      var text = toString(StandardCharsets.UTF_8);
      return text.isEmpty() ? List.of() : List.of(text.split("\n"));
    }
  }
}
