package io.trainyard.backend.vertex;

import com.google.api.gax.rpc.ApiException;
import com.google.cloud.logging.v2.LoggingClient;
import com.google.logging.v2.ListLogEntriesRequest;
import com.google.logging.v2.ListLogEntriesResponse;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.LogLine;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The one poller of a backend's followed log streams. Cloud Logging's read quota is small (60
 * entries.list calls a minute per project unless raised) and shared by everyone reading the
 * project, so every poll interval one thread makes one call for all followers: a filter that ORs
 * each follower's job, task and position. The entries are handed to the followers they match, each
 * follower's position moves past what it was given, so nothing is given twice.
 *
 * <p>Entries may become readable some seconds after their timestamp, so while a job runs a poll
 * reads only up to {@link #SETTLE} ago, as gcloud's log streaming does (5 s, {@code
 * GetFilterUpperBound} in googlecloudsdk/command_lib/logs/stream.py). Once the job has ended a poll
 * reads to the end; a follower ends when its job ended at least {@link #SETTLE} before a poll that
 * was complete (no next page) and gave it nothing new.
 *
 * <p>A poll that fails for a transient reason is tried again at the next interval; the followers
 * see the error after {@link #FAILED_POLLS} such polls in a row, or at once for a refusal
 * (permission, bad request). A follower whose reader has {@link #MAX_BUFFERED} lines waiting is
 * left out of polls until it reads them. Thread-safe.
 */
final class VertexLogPoller implements AutoCloseable {
  static final Duration SETTLE = Duration.ofSeconds(5);

  /** The largest page entries.list serves (google/logging/v2/logging.proto, page_size). */
  static final int PAGE_SIZE = 1000;

  static final int FAILED_POLLS = 3;
  static final int MAX_BUFFERED = 10_000;

  private static final Object END = new Object();

  private final LoggingClient logging;
  private final String project;
  private final Clock clock;
  private final Duration interval;
  private final String backendId;
  private final Set<Follower> followers = ConcurrentHashMap.newKeySet();
  private ScheduledExecutorService scheduler;
  private boolean closed;
  private int failedPolls;

  VertexLogPoller(
      LoggingClient logging, String project, Clock clock, Duration interval, String backendId) {
    this.logging = logging;
    this.project = project;
    this.clock = clock;
    this.interval = interval;
    this.backendId = backendId;
  }

  /**
   * Starts following a job's entries after {@code cursor}.
   *
   * @param task the one task to follow; null for all
   * @param cursor where the reader is; null for the beginning
   * @param endedAt when the job ended; null while it runs
   */
  Follower follow(
      String jobId,
      String task,
      VertexLogCursor cursor,
      Supplier<Instant> endedAt,
      UnaryOperator<String> replicaOfTask) {
    var follower = new Follower(jobId, task, cursor, endedAt, replicaOfTask);
    synchronized (this) {
      if (closed) {
        throw new BackendException.Retryable("backend " + backendId + " is closing", null);
      }
      if (scheduler == null) {
        scheduler =
            Executors.newSingleThreadScheduledExecutor(
                r -> {
                  var thread = new Thread(r, "vertex-logs-" + backendId);
                  thread.setDaemon(true);
                  return thread;
                });
        scheduler.scheduleWithFixedDelay(
            this::poll, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
      }
      followers.add(follower);
    }
    return follower;
  }

  /** One poll for every follower; runs on the poller's thread and never throws. */
  void poll() {
    try {
      var now = clock.instant();
      var due = new ArrayList<Follower>();
      for (var f : followers) {
        if (f.queue.size() < MAX_BUFFERED) {
          due.add(f);
        }
      }
      if (due.isEmpty()) {
        return;
      }
      var endedAt = endedAt(due);
      // Followers with the same job, task and position share a clause.
      var clauses = new LinkedHashMap<String, List<Follower>>();
      for (var f : due) {
        var ended = endedAt.get(f.jobId);
        var clause =
            VertexLogFilter.clause(
                f.jobId, f.task, f.cursor, ended == null ? now.minus(SETTLE) : null);
        clauses.computeIfAbsent(clause, k -> new ArrayList<>()).add(f);
      }
      for (var batch : batches(new ArrayList<>(clauses.keySet()))) {
        var batchFollowers =
            batch.stream().flatMap(c -> clauses.get(c).stream()).distinct().toList();
        ListLogEntriesResponse page;
        try {
          page = logging.listLogEntriesCallable().call(request(VertexLogFilter.of(batch)));
        } catch (ApiException e) {
          failed(batchFollowers, e);
          return;
        }
        failedPolls = 0;
        deliver(page, batchFollowers, endedAt, now);
      }
    } catch (RuntimeException e) {
      // A bug here must not stop the schedule; the followers learn of it.
      for (var f : followers) {
        f.fail(new BackendException.Retryable("log poll failed: " + e, e));
      }
    }
  }

  private Map<String, Instant> endedAt(List<Follower> due) {
    var endedAt = new HashMap<String, Instant>();
    var asked = new HashMap<String, Boolean>();
    for (var f : due) {
      if (asked.putIfAbsent(f.jobId, true) == null) {
        try {
          var ended = f.endedAt.get();
          if (ended != null) {
            endedAt.put(f.jobId, ended);
          }
        } catch (BackendException e) {
          // Vertex could not say: treat the job as running for this poll.
        }
      }
    }
    return endedAt;
  }

  private void deliver(
      ListLogEntriesResponse page,
      List<Follower> batchFollowers,
      Map<String, Instant> endedAt,
      Instant now) {
    var given = new HashMap<Follower, Boolean>();
    for (var entry : page.getEntriesList()) {
      var jobId = entry.getResource().getLabelsOrDefault("job_id", "");
      var task = VertexLogEntries.task(entry);
      var at = VertexLogEntries.timestamp(entry);
      for (var f : batchFollowers) {
        var ended = endedAt.get(f.jobId);
        if (f.jobId.equals(jobId)
            && (f.task == null || f.task.equals(task))
            && (ended != null || at.isBefore(now.minus(SETTLE)))
            && (f.cursor == null || f.cursor.admits(at, entry.getInsertId()))) {
          f.cursor = new VertexLogCursor(at, entry.getInsertId());
          VertexLogEntries.lines(entry, f.replicaOfTask).forEach(f.queue::add);
          given.put(f, true);
        }
      }
    }
    var complete = page.getNextPageToken().isEmpty();
    for (var f : batchFollowers) {
      var ended = endedAt.get(f.jobId);
      if (ended != null && complete && !given.containsKey(f) && !now.isBefore(ended.plus(SETTLE))) {
        f.end();
      }
    }
  }

  private void failed(List<Follower> batchFollowers, ApiException e) {
    var error = VertexErrorTranslator.translateLogs(e, "follow Vertex job logs", project);
    if (error instanceof BackendException.Retryable && ++failedPolls < FAILED_POLLS) {
      return;
    }
    failedPolls = 0;
    batchFollowers.forEach(f -> f.fail(error));
  }

  private ListLogEntriesRequest request(String filter) {
    return ListLogEntriesRequest.newBuilder()
        .addResourceNames("projects/" + project)
        .setFilter(filter)
        .setOrderBy("timestamp asc")
        .setPageSize(PAGE_SIZE)
        .build();
  }

  /** Clauses grouped so that each group's filter stays within the API's length limit. */
  static List<List<String>> batches(List<String> clauses) {
    var batches = new ArrayList<List<String>>();
    var batch = new ArrayList<String>();
    for (var clause : clauses) {
      batch.add(clause);
      if (batch.size() > 1 && VertexLogFilter.of(batch).length() > VertexLogFilter.MAX_CHARS) {
        batch.remove(batch.size() - 1);
        batches.add(batch);
        batch = new ArrayList<>(List.of(clause));
      }
    }
    if (!batch.isEmpty()) {
      batches.add(batch);
    }
    return batches;
  }

  @Override
  public void close() {
    ScheduledExecutorService running;
    synchronized (this) {
      closed = true;
      running = scheduler;
    }
    if (running != null) {
      running.shutdownNow();
    }
    followers.forEach(Follower::end);
  }

  /**
   * One followed stream as the poller sees it: the lines it was given, waiting for its reader. The
   * position is written by the poller's thread only.
   */
  final class Follower {
    private final String jobId;
    private final String task;
    private final Supplier<Instant> endedAt;
    private final UnaryOperator<String> replicaOfTask;
    private final LinkedBlockingQueue<Object> queue = new LinkedBlockingQueue<>();
    private VertexLogCursor cursor;
    private boolean finished;

    private Follower(
        String jobId,
        String task,
        VertexLogCursor cursor,
        Supplier<Instant> endedAt,
        UnaryOperator<String> replicaOfTask) {
      this.jobId = jobId;
      this.task = task;
      this.cursor = cursor;
      this.endedAt = endedAt;
      this.replicaOfTask = replicaOfTask;
    }

    /**
     * The next line, waiting for one; empty once the job's logs have ended or the follower was
     * closed. Called by the stream's one reader.
     */
    Optional<LogLine> next() throws InterruptedException {
      if (finished) {
        return Optional.empty();
      }
      var item = queue.take();
      if (item instanceof LogLine line) {
        return Optional.of(line);
      }
      finished = true;
      queue.clear();
      if (item instanceof BackendException error) {
        throw VertexErrorTranslator.again(error);
      }
      return Optional.empty();
    }

    /** Stops polling for this follower and wakes its reader. */
    void close() {
      end();
    }

    private void end() {
      if (followers.remove(this)) {
        queue.add(END);
      }
    }

    private void fail(BackendException error) {
      if (followers.remove(this)) {
        queue.add(error);
      }
    }
  }
}
