package io.trainyard.backend.vertex;

import com.google.api.gax.rpc.ApiException;
import com.google.cloud.logging.v2.LoggingClient;
import com.google.logging.v2.ListLogEntriesRequest;
import io.trainyard.spi.LogLine;
import io.trainyard.spi.LogStream;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * A custom job's lines from Cloud Logging, oldest first. What is there already is read page by page
 * (entries.list, up to {@link VertexLogPoller#PAGE_SIZE} entries a call) as the reader asks for it;
 * a followed stream then joins the backend's {@link VertexLogPoller}, which reads on for all
 * followers at once until the job has ended. One reader; {@link #close()} may come from another
 * thread and wakes a waiting {@link #next()}.
 */
final class VertexLogStream implements LogStream {
  private final LoggingClient logging;
  private final VertexLogPoller poller;
  private final String project;
  private final String jobId;
  private final String task;
  private final boolean follow;
  private final Supplier<Instant> endedAt;
  private final UnaryOperator<String> replicaOfTask;
  private final Clock clock;
  private final ArrayDeque<LogLine> buffer = new ArrayDeque<>();
  private VertexLogCursor cursor;
  private ListLogEntriesRequest backlog;
  private boolean backlogRead;
  private boolean live;
  private volatile boolean closed;
  private volatile VertexLogPoller.Follower follower;

  /**
   * @param jobId the custom job's numeric id
   * @param task the one task to read ({@code workerpool1-0}); null for all
   * @param since only entries at or after this; null for all
   * @param endedAt when the job ended, null while it runs; asked once here, then by the poller
   */
  VertexLogStream(
      LoggingClient logging,
      VertexLogPoller poller,
      String project,
      String jobId,
      String task,
      Instant since,
      boolean follow,
      Supplier<Instant> endedAt,
      UnaryOperator<String> replicaOfTask,
      Clock clock) {
    this.logging = logging;
    this.poller = poller;
    this.project = project;
    this.jobId = jobId;
    this.task = task;
    this.follow = follow;
    this.endedAt = endedAt;
    this.replicaOfTask = replicaOfTask;
    this.clock = clock;
    this.cursor = VertexLogCursor.since(since);
  }

  @Override
  public Optional<LogLine> next() throws InterruptedException {
    while (!closed) {
      if (!buffer.isEmpty()) {
        return Optional.of(buffer.poll());
      }
      if (!backlogRead) {
        readPage();
        continue;
      }
      if (!live) {
        return Optional.empty();
      }
      if (follower == null) {
        follower = poller.follow(jobId, task, cursor, endedAt, replicaOfTask);
        if (closed) {
          follower.close();
        }
      }
      return follower.next();
    }
    return Optional.empty();
  }

  /** One page of what is there; the first decides whether the stream goes on to follow. */
  private void readPage() {
    if (backlog == null) {
      Instant before = null;
      if (follow) {
        var now = clock.instant();
        var ended = endedAt.get();
        // A job that ended a while ago has all its entries readable now: no need to follow.
        live = ended == null || now.isBefore(ended.plus(VertexLogPoller.SETTLE));
        before = live ? now.minus(VertexLogPoller.SETTLE) : null;
      }
      backlog =
          ListLogEntriesRequest.newBuilder()
              .addResourceNames("projects/" + project)
              .setFilter(
                  VertexLogFilter.of(List.of(VertexLogFilter.clause(jobId, task, cursor, before))))
              .setOrderBy("timestamp asc")
              .setPageSize(VertexLogPoller.PAGE_SIZE)
              .build();
    }
    try {
      var page = logging.listLogEntriesCallable().call(backlog);
      for (var entry : page.getEntriesList()) {
        var at = VertexLogEntries.timestamp(entry);
        if (cursor != null && !cursor.admits(at, entry.getInsertId())) {
          continue;
        }
        cursor = new VertexLogCursor(at, entry.getInsertId());
        buffer.addAll(VertexLogEntries.lines(entry, replicaOfTask));
      }
      if (page.getNextPageToken().isEmpty()) {
        backlogRead = true;
      } else {
        backlog = backlog.toBuilder().setPageToken(page.getNextPageToken()).build();
      }
    } catch (ApiException e) {
      throw VertexErrorTranslator.translateLogs(e, "read Vertex job " + jobId + " logs", project);
    }
  }

  @Override
  public void close() {
    closed = true;
    var following = follower;
    if (following != null) {
      following.close();
    }
  }
}
