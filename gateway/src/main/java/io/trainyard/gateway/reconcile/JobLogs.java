package io.trainyard.gateway.reconcile;

import io.trainyard.gateway.backends.BackendRegistry;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.db.JobStore;
import io.trainyard.gateway.jobs.StoredJson;
import io.trainyard.gateway.metrics.LogMetrics;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogQuery;
import io.trainyard.spi.LogStream;
import io.trainyard.spi.SecretScrubber;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Streams a job's logs: from the {@link LogArchive} when the attempt's logs were archived (its pods
 * may be gone), else from its backend. Following a job that has not started yet waits for its
 * attempt to be submitted, and a failover carries on with the next attempt's logs.
 */
public final class JobLogs {
  private static final Duration POLL = Duration.ofMillis(250);

  /** Where lines go; throws when the reader has gone away. */
  @FunctionalInterface
  public interface LineSink {
    void accept(String line) throws IOException;
  }

  private final JobStore store;
  private final BackendRegistry backends;
  private final StoredJson json;
  private final LogArchive archive;
  private final LogMetrics metrics;

  public JobLogs(JobStore store, BackendRegistry backends, StoredJson json, LogArchive archive) {
    this(store, backends, json, archive, LogMetrics.NONE);
  }

  /**
   * @param metrics stores the {@code trainyard-metric} lines of what is read
   */
  public JobLogs(
      JobStore store,
      BackendRegistry backends,
      StoredJson json,
      LogArchive archive,
      LogMetrics metrics) {
    this.store = store;
    this.backends = backends;
    this.json = json;
    this.archive = archive;
    this.metrics = metrics;
  }

  public void stream(JobRow job, LogQuery query, LineSink sink) throws IOException {
    stream(job, query, sink, null);
  }

  /**
   * As {@link #stream(JobRow, LogQuery, LineSink)}, a follow ending after {@code maxFollow} (null:
   * when the job ends) with a last line saying how to resume: a follow holds a request thread, and
   * a job may run for days.
   */
  public void stream(JobRow job, LogQuery query, LineSink sink, Duration maxFollow)
      throws IOException {
    stream(job, query, sink, maxFollow, HEARTBEAT);
  }

  /**
   * As {@link #stream(JobRow, LogQuery, LineSink, Duration)}, a follow writing a line after {@code
   * heartbeat} of silence (see {@link Heartbeat}).
   */
  public void stream(
      JobRow job, LogQuery query, LineSink sink, Duration maxFollow, Duration heartbeat)
      throws IOException {
    var open = new Open();
    if (query.follow()) {
      follows.add(open);
      if (closing) {
        open.end(true);
      }
    }
    var timer =
        query.follow() && maxFollow != null
            ? CLOSER.schedule(open::expire, maxFollow.toMillis(), TimeUnit.MILLISECONDS)
            : null;
    var beating = query.follow() ? new Heartbeat(sink, open, heartbeat) : null;
    var beat =
        beating == null
            ? null
            : CLOSER.scheduleWithFixedDelay(
                beating::beat,
                heartbeat.toMillis(),
                Math.max(1, heartbeat.toMillis() / 3),
                TimeUnit.MILLISECONDS);
    var last = new LastSeen(beating != null ? beating : sink, metrics, job.id());
    try {
      stream(job, query, last, open);
    } finally {
      follows.remove(open);
      if (timer != null) {
        timer.cancel(false);
      }
      if (beat != null) {
        beat.cancel(false);
      }
    }
    if (open.abandoned()) {
      return; // nobody is reading
    }
    var out = beating != null ? beating : sink;
    var resumeAt = last.at != null ? last.at : query.since() != null ? query.since() : "";
    if (open.shutdown()) {
      out.accept(
          "--- this gateway is shutting down; resume with follow=true"
              + (resumeAt.toString().isEmpty() ? "" : "&since=" + resumeAt)
              + " (another replica answers) ---");
    } else if (open.expired()) {
      out.accept(
          "--- follow ended after "
              + maxFollow
              + " (logFollow.maxDuration); resume with follow=true&since="
              + resumeAt
              + " ---");
    }
  }

  // Ends long follows by closing their stream, which the LogStream contract says unblocks next().
  private static final ScheduledExecutorService CLOSER =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            var t = new Thread(r, "log-follow-deadline");
            t.setDaemon(true);
            return t;
          });

  /**
   * Ends every follow under way, each with a last line saying where to resume, and every follow
   * that starts from now on at once: the gateway is stopping, and a follow would otherwise hold the
   * stop up for its whole grace period and then be cut. Idempotent.
   */
  public void endFollows() {
    closing = true;
    for (var open : follows) {
      open.end(true);
    }
  }

  /**
   * {@link #endFollows()}, then waits up to {@code wait} for them to have written their last line:
   * once Jetty begins its graceful stop it closes connections idle for a second, and a quiet
   * follow's connection is idle.
   *
   * @return whether every follow ended in time
   */
  public boolean endFollows(Duration wait) throws InterruptedException {
    endFollows();
    var deadline = System.nanoTime() + wait.toNanos();
    while (!follows.isEmpty()) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      Thread.sleep(10);
    }
    return true;
  }

  private final Set<Open> follows = ConcurrentHashMap.newKeySet();
  private volatile boolean closing;

  /** How long a follow may stay silent before it says it is still there, by default. */
  static final Duration HEARTBEAT = Duration.ofSeconds(15);

  /**
   * A follow's sink that, after {@code every} without a line, writes one saying it is still
   * following. A quiet job's follow would otherwise write nothing for hours, so a client that went
   * away would never be noticed and its follow would keep its thread and its place in the limits
   * until {@code maxDuration}; the write that fails ends it. Never waits for the follow's own
   * writes: a beat is skipped while one is under way.
   */
  private static final class Heartbeat implements LineSink {
    private final LineSink sink;
    private final Open open;
    private final java.util.concurrent.locks.ReentrantLock writing =
        new java.util.concurrent.locks.ReentrantLock();
    private final Duration every;
    private volatile long lastWrite = System.nanoTime();

    Heartbeat(LineSink sink, Open open, Duration every) {
      this.sink = sink;
      this.open = open;
      this.every = every;
    }

    @Override
    public void accept(String line) throws IOException {
      writing.lock();
      try {
        sink.accept(line);
        lastWrite = System.nanoTime();
      } finally {
        writing.unlock();
      }
    }

    void beat() {
      if (System.nanoTime() - lastWrite < every.toNanos() || !writing.tryLock()) {
        return;
      }
      try {
        var silence =
            every.toMillis() % 1000 == 0 ? every.toSeconds() + " s" : every.toMillis() + " ms";
        sink.accept("--- no output for " + silence + "; still following ---");
        lastWrite = System.nanoTime();
      } catch (IOException | RuntimeException e) {
        open.abandon();
      } finally {
        writing.unlock();
      }
    }
  }

  /** The stream a follow is reading now, and whether its time is up (or the gateway stopping). */
  private static final class Open {
    private LogStream stream;
    private boolean expired;
    private boolean shutdown;
    private boolean abandoned;

    /** The reader has gone away: ends the follow without a last line. */
    synchronized void abandon() {
      abandoned = true;
      end(false);
    }

    synchronized boolean abandoned() {
      return abandoned;
    }

    synchronized void set(LogStream s) {
      stream = s;
      if (expired && s != null) {
        s.close();
      }
    }

    synchronized void expire() {
      end(false);
    }

    synchronized void end(boolean forShutdown) {
      if (expired) {
        return;
      }
      shutdown = forShutdown;
      expired = true;
      if (stream != null) {
        stream.close();
      }
    }

    synchronized boolean expired() {
      return expired;
    }

    synchronized boolean shutdown() {
      return shutdown;
    }
  }

  /** Remembers the time of the last line passed on, to tell a cut-off follow where to resume. */
  private static final class LastSeen {
    private final LineSink sink;
    private final LogMetrics metrics;
    private final String jobId;
    private Instant at;

    LastSeen(LineSink sink, LogMetrics metrics, String jobId) {
      this.sink = sink;
      this.metrics = metrics;
      this.jobId = jobId;
    }
  }

  private void stream(JobRow job, LogQuery query, LastSeen sink, Open open) throws IOException {
    var current = job;
    var lastAttempt = 0;
    try {
      while (true) {
        if (open.expired()) {
          return;
        }
        if (current.externalRefJson() == null || current.attempt() == lastAttempt) {
          if (!query.follow() || current.state().isTerminal()) {
            return;
          }
          Thread.sleep(POLL.toMillis());
          current = store.find(job.id()).orElseThrow();
          continue;
        }
        lastAttempt = current.attempt();
        if (current.attempt() > 1) {
          sink.sink.accept(
              "--- attempt " + current.attempt() + " on " + current.backendId() + " ---");
        }
        var ref = json.read(current.externalRefJson(), ExternalRef.class);
        // Only attempts on backends that do not keep logs (or no longer configured) are archived.
        var archived =
            keepsLogs(ref)
                ? Optional.<LogStream>empty()
                : archive.open(current.id(), current.attempt(), query);
        if (archived.isPresent()) {
          copy(archived.get(), sink, open);
        } else {
          copy(ref, query, sink, open);
        }
        if (!query.follow()) {
          return;
        }
        current = store.find(job.id()).orElseThrow();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("log stream interrupted");
    }
  }

  private void copy(ExternalRef ref, LogQuery query, LastSeen sink, Open open)
      throws IOException, InterruptedException {
    var entry = backends.find(ref.backendId());
    if (entry.isEmpty()) {
      sink.sink.accept("--- backend " + ref.backendId() + " is no longer configured ---");
      return;
    }
    try {
      copy(entry.get().backend().logs(ref, query), sink, open);
    } catch (BackendException.NotFound e) {
      // No logs yet or any more; the job's state says which.
    } catch (BackendException.Retryable e) {
      sink.sink.accept("--- backend " + ref.backendId() + " cannot be reached now; try again ---");
    }
  }

  private boolean keepsLogs(ExternalRef ref) {
    return backends.find(ref.backendId()).map(e -> e.backend().keepsLogs()).orElse(false);
  }

  private static void copy(LogStream stream, LastSeen sink, Open open)
      throws IOException, InterruptedException {
    open.set(stream);
    try (var lines = stream) {
      for (var line = lines.next(); line.isPresent() && !open.expired(); line = lines.next()) {
        // Archives were scrubbed when written; a backend's live lines may still hold tokens.
        sink.sink.accept(
            "[" + line.get().replica() + "] " + SecretScrubber.shapes().scrub(line.get().text()));
        if (line.get().at() != null) {
          sink.at = line.get().at();
        }
        // Metrics are read where logs are read anyway; a line read again is stored once.
        sink.metrics.line(sink.jobId, line.get().text(), line.get().at());
      }
    } finally {
      open.set(null);
    }
  }
}
