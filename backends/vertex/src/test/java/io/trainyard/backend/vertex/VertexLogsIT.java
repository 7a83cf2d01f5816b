package io.trainyard.backend.vertex;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.aiplatform.v1.JobState;
import com.google.logging.v2.ListLogEntriesRequest;
import io.grpc.Status;
import io.trainyard.cost.PriceCatalog;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.LogLine;
import io.trainyard.spi.LogQuery;
import io.trainyard.spi.LogStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Reading and following a custom job's logs: the backend's real LoggingClient and JobServiceClient,
 * over plaintext gRPC, against {@link FakeLoggingService} and {@link FakeJobService}. Time moves by
 * a {@link ShiftedClock}; waits are on lines and calls, never on durations.
 */
class VertexLogsIT {
  private static final String PROJECT = "ml-prod";

  private FakeJobService vertex;
  private FakeLoggingService logs;
  private ShiftedClock clock;
  private VertexBackend backend;
  private ExecutorService readers;
  private Instant t0;

  @BeforeEach
  void open() throws Exception {
    vertex = new FakeJobService();
    logs = new FakeLoggingService(PROJECT);
    clock = new ShiftedClock();
    var config =
        TestJobs.localConfig(
            vertex.endpoint(), "loggingEndpoint: " + logs.endpoint() + "\nlogPollInterval: 20ms\n");
    var context = new BackendContext(PriceCatalog.embedded(), Path.of("target"), clock);
    backend = (VertexBackend) new VertexBackendFactory().create(config, context);
    readers = Executors.newCachedThreadPool();
    // Entries from a while ago: well before what a running job's polls hold back.
    t0 = clock.instant().minus(Duration.ofMinutes(10));
  }

  @AfterEach
  void close() {
    readers.shutdownNow();
    backend.close();
    logs.close();
    vertex.close();
  }

  /** A job with pools master (workerpool0), worker x2 (workerpool1), moved to RUNNING. */
  private ExternalRef runningJob() {
    var spec = TestJobs.spec(TestJobs.FULL_SPEC);
    var ref = backend.submit(TestJobs.job(spec, backend.placements(spec).placements().get(0)));
    vertex.move(resource(ref), JobState.JOB_STATE_RUNNING, null);
    return ref;
  }

  private static String resource(ExternalRef ref) {
    return ref.attributes().get("resource");
  }

  private static String jobId(ExternalRef ref) {
    return resource(ref).replaceFirst(".*/", "");
  }

  private Instant at(int second) {
    return t0.plusSeconds(second);
  }

  private static List<LogLine> readAll(LogStream stream) throws InterruptedException {
    var lines = new ArrayList<LogLine>();
    try (stream) {
      for (var line = stream.next(); line.isPresent(); line = stream.next()) {
        lines.add(line.get());
      }
    }
    return lines;
  }

  @Test
  void readsTheJobsEntriesInTimeOrderNamedByOurReplicas() throws Exception {
    var ref = runningJob();
    var id = jobId(ref);
    logs.writeText(id, "workerpool1-1", at(3), "worker 1 step 1\n");
    logs.writeJson(id, "workerpool0-0", at(1), "master starts");
    logs.writeText(id, null, at(0), "Waiting for job to be provisioned.");
    logs.writeText(id, "workerpool1-0", at(2), "Traceback:\n  line 1\n");
    logs.writeText("999", "workerpool0-0", at(2), "another job's line");

    var lines = readAll(backend.logs(ref, LogQuery.ALL));

    assertThat(lines)
        .extracting(LogLine::replica, LogLine::text)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("vertex", "Waiting for job to be provisioned."),
            org.assertj.core.groups.Tuple.tuple("master-0", "master starts"),
            org.assertj.core.groups.Tuple.tuple("worker-0", "Traceback:"),
            org.assertj.core.groups.Tuple.tuple("worker-0", "  line 1"),
            org.assertj.core.groups.Tuple.tuple("worker-1", "worker 1 step 1"));
    assertThat(lines.get(0).at()).isEqualTo(at(0));
    var request = logs.received().get(0);
    assertThat(request.getResourceNamesList()).containsExactly("projects/" + PROJECT);
    assertThat(request.getFilter())
        .isEqualTo("resource.type=\"ml_job\" AND resource.labels.job_id=\"" + id + "\"");
    assertThat(request.getOrderBy()).isEqualTo("timestamp asc");
    assertThat(request.getPageSize()).isEqualTo(1000);
  }

  @Test
  void aBareReferenceFindsItsJobByNameAndNamesReplicasAsVertexDoes() throws Exception {
    var ref = runningJob();
    logs.writeText(jobId(ref), "workerpool1-0", at(1), "hello");
    var bare = new ExternalRef(ref.backendId(), ref.name(), java.util.Map.of());

    var lines = readAll(backend.logs(bare, new LogQuery("workerpool1-0", null, false)));

    assertThat(lines)
        .extracting(LogLine::replica, LogLine::text)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("workerpool1-0", "hello"));
    assertThatThrownBy(() -> backend.logs(bare, new LogQuery("worker-0", null, false)))
        .isInstanceOf(BackendException.NotFound.class);
  }

  @Test
  void readsPageAfterPage() throws Exception {
    var ref = runningJob();
    for (int i = 0; i < 2500; i++) {
      logs.writeText(jobId(ref), "workerpool0-0", t0.plusMillis(i), "line " + i);
    }

    var lines = readAll(backend.logs(ref, LogQuery.ALL));

    assertThat(lines).hasSize(2500);
    assertThat(lines.get(2499).text()).isEqualTo("line 2499");
    assertThat(logs.received())
        .extracting(ListLogEntriesRequest::getPageToken)
        .containsExactly("", "offset:1000", "offset:2000");
  }

  @Test
  void oneReplicaAndSinceAreAskedOfTheServer() throws Exception {
    var ref = runningJob();
    var id = jobId(ref);
    logs.writeText(id, "workerpool1-1", at(1), "too early");
    logs.writeText(id, "workerpool1-1", at(5), "at since");
    logs.writeText(id, "workerpool1-0", at(6), "other worker");
    logs.writeText(id, "workerpool1-1", at(7), "after since");

    var byOurName = readAll(backend.logs(ref, new LogQuery("worker-1", at(5), false)));
    var byVertexName = readAll(backend.logs(ref, new LogQuery("workerpool1-1", at(5), false)));

    assertThat(byOurName)
        .extracting(LogLine::replica, LogLine::text)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("worker-1", "at since"),
            org.assertj.core.groups.Tuple.tuple("worker-1", "after since"));
    assertThat(byVertexName).isEqualTo(byOurName);
    assertThat(logs.received().get(0).getFilter())
        .isEqualTo(
            "resource.type=\"ml_job\" AND resource.labels.job_id=\""
                + id
                + "\" AND resource.labels.task_name=\"workerpool1-1\" AND timestamp>=\""
                + at(5)
                + "\"");
    assertThatThrownBy(() -> backend.logs(ref, new LogQuery("worker-9", null, false)))
        .isInstanceOf(BackendException.NotFound.class);
    assertThatThrownBy(() -> backend.logs(ref, new LogQuery("workerpool3-0", null, false)))
        .isInstanceOf(BackendException.NotFound.class);
  }

  @Test
  void aFollowedStreamShowsEntriesAsTheyComeAndEndsAfterTheJob() throws Exception {
    var ref = runningJob();
    var id = jobId(ref);
    logs.writeText(id, "workerpool0-0", at(1), "epoch 1");

    var reader = new Reader(backend.logs(ref, new LogQuery(null, null, true)));
    assertThat(reader.take().text()).isEqualTo("epoch 1");
    logs.writeText(id, "workerpool1-0", at(2), "epoch 2");
    assertThat(reader.take().text()).isEqualTo("epoch 2");
    // A running job's polls leave out the last few seconds, which may not all be readable yet.
    var recent = clock.instant().minusSeconds(1);
    logs.writeText(id, "workerpool0-0", recent, "just now");
    int before = logs.calls();
    logs.awaitCalls(before + 2);
    assertThat(reader.lines).isEmpty();
    assertThat(reader.done.isDone()).isFalse();

    logs.writeText(id, "workerpool0-0", at(3), "written as it ended");
    vertex.move(resource(ref), JobState.JOB_STATE_SUCCEEDED, null);
    clock.advance(Duration.ofSeconds(10));
    reader.awaitEnd();

    assertThat(reader.lines)
        .extracting(LogLine::text)
        .containsExactly("written as it ended", "just now");
    var last = logs.received().get(logs.calls() - 1).getFilter();
    assertThat(last).doesNotContain("timestamp<");
  }

  @Test
  void severalFollowersShareOneCallPerPollAndAClosedOneIsLeftOut() throws Exception {
    var a = runningJob();
    var b = runningJob();
    logs.writeText(jobId(a), "workerpool1-1", at(1), "a worker-1 first");
    logs.writeText(jobId(b), "workerpool0-0", at(1), "b first");
    var allOfA = new Reader(backend.logs(a, new LogQuery(null, null, true)));
    var workerOfA = new Reader(backend.logs(a, new LogQuery("worker-1", null, true)));
    var allOfB = new Reader(backend.logs(b, new LogQuery(null, null, true)));
    for (var reader : List.of(allOfA, workerOfA, allOfB)) {
      reader.take();
    }
    int shared = awaitCallWith(0, f -> clauses(f, a) == 2 && clauses(f, b) == 1);

    logs.writeText(jobId(a), "workerpool1-1", at(2), "a worker-1 second");
    logs.writeText(jobId(a), "workerpool0-0", at(3), "a master");
    logs.writeText(jobId(b), "workerpool0-0", at(2), "b second");
    assertThat(allOfA.take().text()).isEqualTo("a worker-1 second");
    assertThat(allOfA.take().text()).isEqualTo("a master");
    assertThat(workerOfA.take().text()).isEqualTo("a worker-1 second");
    assertThat(allOfB.take().text()).isEqualTo("b second");
    int until = logs.calls();

    // Each poll was one call that asked for all three.
    assertThat(logs.received().subList(shared, until))
        .allSatisfy(
            r -> {
              assertThat(clauses(r.getFilter(), a)).isEqualTo(2);
              assertThat(clauses(r.getFilter(), b)).isEqualTo(1);
            });

    workerOfA.stream.close();
    workerOfA.awaitEnd();
    int afterClose = awaitCallWith(until, f -> clauses(f, a) == 1 && clauses(f, b) == 1);
    logs.awaitCalls(afterClose + 2);
    assertThat(logs.received().subList(afterClose, logs.calls()))
        .allSatisfy(r -> assertThat(r.getFilter()).doesNotContain("task_name"));

    vertex.move(resource(a), JobState.JOB_STATE_SUCCEEDED, null);
    vertex.move(resource(b), JobState.JOB_STATE_FAILED, "exit 1");
    clock.advance(Duration.ofSeconds(10));
    allOfA.awaitEnd();
    allOfB.awaitEnd();
    assertThat(allOfA.lines).isEmpty();
    assertThat(workerOfA.lines).isEmpty();
  }

  @Test
  void followingAJobThatEndedAWhileAgoReadsOnceAndEnds() throws Exception {
    var ref = runningJob();
    logs.writeText(jobId(ref), "workerpool0-0", at(1), "done");
    vertex.move(resource(ref), JobState.JOB_STATE_SUCCEEDED, null);
    clock.advance(Duration.ofMinutes(1));

    var lines = readAll(backend.logs(ref, new LogQuery(null, null, true)));

    assertThat(lines).extracting(LogLine::text).containsExactly("done");
    assertThat(logs.calls()).isEqualTo(1);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "PERMISSION_DENIED, Unauthenticated, roles/logging.viewer",
    "UNAUTHENTICATED, Unauthenticated, invalid credentials",
    "UNAVAILABLE, Retryable, connection reset",
    "RESOURCE_EXHAUSTED, Retryable, 60 entries.list calls a minute",
    "NOT_FOUND, NotFound, no logs known",
  })
  void readErrorsAreTypedAndNotRetriedByTheClient(Status.Code code, String expected, String words)
      throws Exception {
    var ref = runningJob();
    logs.writeText(jobId(ref), "workerpool0-0", at(1), "a line");
    logs.failNext(code, "invalid credentials; connection reset");

    var stream = backend.logs(ref, LogQuery.ALL);

    assertThatThrownBy(stream::next)
        .satisfies(e -> assertThat(e.getClass().getSimpleName()).isEqualTo(expected))
        .hasMessageContaining(code.name())
        .hasMessageContaining(words);
    assertThat(logs.calls()).isEqualTo(1);
  }

  @Test
  void aFollowerRidesOutAPassingOutageButNotARefusal() throws Exception {
    var ref = runningJob();
    var id = jobId(ref);
    logs.writeText(id, "workerpool0-0", at(1), "first");
    var reader = new Reader(backend.logs(ref, new LogQuery(null, null, true)));
    assertThat(reader.take().text()).isEqualTo("first");

    logs.failNext(Status.Code.UNAVAILABLE, "connection reset");
    logs.writeText(id, "workerpool0-0", at(2), "second");
    assertThat(reader.take().text()).isEqualTo("second");

    logs.failNext(Status.Code.PERMISSION_DENIED, "Permission 'logging.logEntries.list' denied");
    assertThatThrownBy(reader::awaitEnd)
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOf(BackendException.Unauthenticated.class)
        .hasMessageContaining("PERMISSION_DENIED")
        .hasMessageContaining("roles/logging.viewer");
  }

  /**
   * Waits for a list call, from index {@code from} on, whose filter satisfies {@code test}; its
   * index among all calls. Polls come every 20 ms, so 1000 calls without one is a failure.
   */
  private int awaitCallWith(int from, java.util.function.Predicate<String> test) throws Exception {
    for (int seen = from; seen < from + 1000; seen++) {
      logs.awaitCalls(seen + 1);
      if (test.test(logs.received().get(seen).getFilter())) {
        return seen;
      }
    }
    throw new AssertionError("no call of 1000 asked as expected; the last: " + lastFilter());
  }

  private String lastFilter() {
    return logs.received().get(logs.calls() - 1).getFilter();
  }

  private static int clauses(String filter, ExternalRef job) {
    var needle = "resource.labels.job_id=\"" + jobId(job) + "\"";
    int count = 0;
    for (int i = filter.indexOf(needle); i >= 0; i = filter.indexOf(needle, i + 1)) {
      count++;
    }
    return count;
  }

  private static int clauses(ListLogEntriesRequest request, ExternalRef job) {
    return clauses(request.getFilter(), job);
  }

  /** Reads a stream on its own thread, line by line, until it ends. */
  private final class Reader {
    final LogStream stream;
    final LinkedBlockingQueue<LogLine> lines = new LinkedBlockingQueue<>();
    final Future<?> done;

    Reader(LogStream stream) {
      this.stream = stream;
      this.done =
          readers.submit(
              () -> {
                try (stream) {
                  for (var line = stream.next(); line.isPresent(); line = stream.next()) {
                    lines.add(line.get());
                  }
                }
                return null;
              });
    }

    /** The next line; the timeout only keeps a broken build from hanging. */
    LogLine take() throws InterruptedException {
      var line = lines.poll(30, TimeUnit.SECONDS);
      if (line == null) {
        throw new AssertionError("no line came");
      }
      return line;
    }

    void awaitEnd() throws Exception {
      done.get(30, TimeUnit.SECONDS);
    }
  }
}
