package io.trainyard.gateway.reconcile;

import io.trainyard.gateway.backends.BackendRegistry;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.db.JobStore;
import io.trainyard.gateway.jobs.StoredJson;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogQuery;
import io.trainyard.spi.LogStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Optional;

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

  public JobLogs(JobStore store, BackendRegistry backends, StoredJson json, LogArchive archive) {
    this.store = store;
    this.backends = backends;
    this.json = json;
    this.archive = archive;
  }

  public void stream(JobRow job, LogQuery query, LineSink sink) throws IOException {
    var current = job;
    var lastAttempt = 0;
    try {
      while (true) {
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
          sink.accept("--- attempt " + current.attempt() + " on " + current.backendId() + " ---");
        }
        var ref = json.read(current.externalRefJson(), ExternalRef.class);
        // Only attempts on backends that do not keep logs (or no longer configured) are archived.
        var archived =
            keepsLogs(ref)
                ? Optional.<LogStream>empty()
                : archive.open(current.id(), current.attempt(), query);
        if (archived.isPresent()) {
          copy(archived.get(), sink);
        } else {
          copy(ref, query, sink);
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

  private void copy(ExternalRef ref, LogQuery query, LineSink sink)
      throws IOException, InterruptedException {
    var entry = backends.find(ref.backendId());
    if (entry.isEmpty()) {
      sink.accept("--- backend " + ref.backendId() + " is no longer configured ---");
      return;
    }
    try {
      copy(entry.get().backend().logs(ref, query), sink);
    } catch (BackendException.NotFound e) {
      // No logs yet or any more; the job's state says which.
    }
  }

  private boolean keepsLogs(ExternalRef ref) {
    return backends.find(ref.backendId()).map(e -> e.backend().keepsLogs()).orElse(false);
  }

  private static void copy(LogStream stream, LineSink sink)
      throws IOException, InterruptedException {
    try (var lines = stream) {
      for (var line = lines.next(); line.isPresent(); line = lines.next()) {
        sink.accept("[" + line.get().replica() + "] " + line.get().text());
      }
    }
  }
}
