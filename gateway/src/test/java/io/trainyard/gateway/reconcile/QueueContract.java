package io.trainyard.gateway.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.trainyard.audit.BlobSinkConfig;
import io.trainyard.audit.JcloudsBlobSink;
import io.trainyard.auth.Principal;
import io.trainyard.auth.Role;
import io.trainyard.cost.PriceBook;
import io.trainyard.cost.Router;
import io.trainyard.gateway.auth.Caller;
import io.trainyard.gateway.backends.BackendRegistry;
import io.trainyard.gateway.config.TeamConfig;
import io.trainyard.gateway.db.DatabaseMigrator;
import io.trainyard.gateway.db.JobAudit;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.db.JobStore;
import io.trainyard.gateway.errors.ApiException;
import io.trainyard.gateway.errors.ErrorCode;
import io.trainyard.gateway.jobs.JobService;
import io.trainyard.gateway.jobs.SpecReader;
import io.trainyard.gateway.jobs.StoredJson;
import io.trainyard.gateway.jobs.TeamDirectory;
import io.trainyard.gateway.queue.QueueDispatcher;
import io.trainyard.gateway.queue.QueueFacts;
import io.trainyard.gateway.queue.QueueStore;
import io.trainyard.gateway.queue.QueuedJob;
import io.trainyard.gateway.queue.TeamQuotas;
import io.trainyard.gateway.testing.TestDatabase;
import io.trainyard.spi.BackendHealth;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.JobState;
import io.trainyard.spi.ObjectNames;
import io.trainyard.testkit.MutableClock;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The queue against a real database (H2 and PostgreSQL subclasses) and in-memory backends: never
 * versus not now at submit, dispatch order (priority, arrival, weighted fair share), team quotas,
 * the priority cap, re-quotes when capacity frees or a backend comes back, one dispatcher at a
 * time.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class QueueContract {
  private static final Duration LEASE = Duration.ofSeconds(30);

  private TestDatabase db;
  private MutableClock clock;
  private final StoredJson json = new StoredJson();
  private final Map<String, TeamConfig> teamConfigs = new HashMap<>();
  private final AtomicReference<Object> prices = new AtomicReference<>(new Object());
  private TeamDirectory teams;
  private QueueStore queue;
  private JobStore store;
  private FakeBackend only;
  private BackendRegistry registry;
  private JobService service;

  @BeforeAll
  void migrate(TestDatabase database) {
    db = database;
    new DatabaseMigrator().migrate(db.jdbi());
    clock = new MutableClock(Instant.parse("2030-01-01T00:00:00Z"));
  }

  @BeforeEach
  void fresh() {
    db.jdbi()
        .useTransaction(
            h -> {
              h.execute("DELETE FROM idempotency_keys");
              h.execute("DELETE FROM job_events");
              h.execute("DELETE FROM stale_attempts");
              h.execute("DELETE FROM queue_job_facts");
              h.execute("DELETE FROM jobs");
              h.execute("DELETE FROM teams");
              h.execute(
                  "UPDATE queue_dispatch SET lease_owner = NULL, lease_until = NULL,"
                      + " wanted_at = NULL, passed_at = NULL, passed_month = NULL");
            });
    teamConfigs.clear();
    teamConfigs.put("nlp", TeamConfig.DEV);
    teamConfigs.put("vision", TeamConfig.DEV);
    teams = new TeamDirectory(teamConfigs, true);
    queue = new QueueStore(db.jdbi(), clock);
    store =
        new JobStore(
            db.jdbi(),
            clock,
            new QueueFacts(JobAudit.NONE, queue, teams, json),
            new TeamQuotas(teams, json));
    only = new FakeBackend("only", "1.00");
    registry = BackendRegistry.of(List.of(only.entry()));
    service =
        new JobService(
            new Router(PriceBook.OPERATOR, BigDecimal.ONE), registry, teams, store, json, clock);
  }

  private void team(String name, Integer maxJobs, Integer maxGpus, Integer maxPriority, Integer w) {
    teamConfigs.put(
        name, new TeamConfig(null, null, null, null, null, maxJobs, maxGpus, maxPriority, w));
    teams.replaceTeams(teamConfigs);
  }

  @Test
  void aJobNoBackendCouldEverRunIsRefusedAndNothingIsStored() {
    assertThatThrownBy(
            () ->
                service.submit(
                    caller("nlp"), spec("nowhere", "placement: {backends: [elsewhere]}"), null))
        .isInstanceOfSatisfying(
            ApiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NO_OFFER));
    assertThat(store.list(null, Set.of(), 10)).isEmpty();
  }

  @Test
  void aJobWhoseBackendIsDownWaitsQueuedThenRunsWhenItComesBack() {
    only.healthAnswer = BackendHealth.unhealthy("API server unreachable");
    registry.checkHealth("only");
    var quote = service.quote(caller("nlp"), spec("waits", ""));
    assertThat(quote.decision().candidates())
        .singleElement()
        .satisfies(c -> assertThat(c.rejectedKind().wireName()).isEqualTo("not-now"));

    var job = service.submit(caller("nlp"), spec("waits", ""), null).job();
    assertThat(job.state()).isEqualTo(JobState.QUEUED);
    assertThat(job.reason()).contains("only: unhealthy: API server unreachable");
    var r = reconciler("a");
    r.passOnce();
    assertThat(find(job).state()).isEqualTo(JobState.QUEUED);

    only.healthAnswer = BackendHealth.ok();
    registry.checkHealth("only");
    // The dispatcher sees it healthy again and re-quotes at once; the same pass submits it.
    r.passOnce();
    assertThat(find(job).state()).isEqualTo(JobState.SUBMITTED);
    assertThat(store.events(job.id()).stream().map(e -> e.message()))
        .anyMatch(m -> m.startsWith("PENDING: dispatched from the queue"));
    assertThat(find(job).attempt()).isEqualTo(1);
  }

  @Test
  void queuedJobsGoByPriorityThenArrival() {
    team("nlp", 1, null, null, null);
    var running = submitAt("first", "nlp", null);
    var low = submitAt("low", "nlp", 100);
    var mid1 = submitAt("mid-a", "nlp", null);
    var high = submitAt("high", "nlp", 900);
    var mid2 = submitAt("mid-b", "nlp", null);
    assertThat(running.state()).isEqualTo(JobState.PENDING);
    for (var queued : List.of(low, mid1, high, mid2)) {
      assertThat(queued.state()).isEqualTo(JobState.QUEUED);
      assertThat(queued.reason()).contains("maxConcurrentJobs").contains("1 of 1");
    }
    assertThat(queue.queued(null).stream().map(QueuedJob::name))
        .containsExactly("high", "mid-a", "mid-b", "low");

    var r = reconciler("a");
    var order = new java.util.ArrayList<String>();
    var current = running;
    for (int i = 0; i < 4; i++) {
      r.passOnce();
      finish(current);
      r.passOnce(); // the job's end asks for a re-quote; the next one is placed
      current =
          store.list("nlp", Set.of(JobState.PENDING, JobState.SUBMITTED), 10).stream()
              .findFirst()
              .orElseThrow();
      order.add(current.name());
    }
    assertThat(order).containsExactly("high", "mid-a", "mid-b", "low");
  }

  @Test
  void teamsShareRoomByWeightSoABigQueueDoesNotStarveASmallOne() {
    team("nlp", null, null, null, 2);
    team("vision", null, null, null, 1);
    only.freeCapacity = 0;
    for (var name : List.of("n1", "n2", "n3", "n4")) {
      submitAt(name, "nlp", null);
    }
    for (var name : List.of("v1", "v2")) {
      submitAt(name, "vision", null);
    }
    assertThat(queue.queued(null)).hasSize(6);
    assertThat(queue.queued(null).get(0).reason())
        .isEqualTo("no backend can take it now: only: no free capacity now");

    only.freeCapacity = 4; // room for four of the six
    var placed = dispatcher().dispatch("a", LEASE);

    assertThat(placed).isEqualTo(4);
    // nlp 0/2 ties vision 0/1 (older head: n1); then vision 0 < nlp 1/2 (v1); then nlp 1/2 <
    // vision 1/1 (n2); then nlp 2/2 ties vision 1/1 (older head: n3).
    assertThat(placedNames()).containsExactlyInAnyOrder("n1", "v1", "n2", "n3");
    assertThat(queue.queued(null).stream().map(QueuedJob::name)).containsExactly("n4", "v2");
    assertThat(queue.queued(null))
        .allSatisfy(q -> assertThat(q.reason()).contains("only: no free capacity left"));
  }

  @Test
  void aTeamOverItsGpuQuotaWaitsAndTheReasonNamesTheQuota() {
    team("vision", null, 2, null, null);
    var first = submitAt("gpu-a", "vision", null, 2);
    var second = submitAt("gpu-b", "vision", null, 1);
    var cpu = submitAt("cpu", "vision", null, 0);
    assertThat(first.state()).isEqualTo(JobState.PENDING);
    assertThat(second.state()).isEqualTo(JobState.QUEUED);
    assertThat(second.reason()).contains("teams.vision.maxGpus").contains("2 GPUs held + 1");
    assertThat(cpu.state()).isEqualTo(JobState.PENDING);

    var r = reconciler("a");
    r.passOnce();
    assertThat(find(second).state()).isEqualTo(JobState.QUEUED);
    finish(first);
    r.passOnce();
    assertThat(find(second).state()).isIn(JobState.PENDING, JobState.SUBMITTED);
  }

  @Test
  void priorityIsCappedByTheTeamWithAWarning() {
    team("nlp", null, null, 600, null);
    var quote = service.quote(caller("nlp"), spec("eager", "priority: 900"));
    assertThat(quote.warnings())
        .anyMatch(w -> w.contains("maxPriority 600") && w.contains("queued at priority 600"));
    only.healthAnswer = BackendHealth.unhealthy("down");
    registry.checkHealth("only");
    submitAt("eager", "nlp", 900);
    submitAt("modest", "nlp", 550);
    assertThat(queue.queued(null))
        .extracting(QueuedJob::name, QueuedJob::priority)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("eager", 600),
            org.assertj.core.groups.Tuple.tuple("modest", 550));
  }

  @Test
  void oneReplicaDispatchesAtATime() {
    only.healthAnswer = BackendHealth.unhealthy("down");
    registry.checkHealth("only");
    var job = submitAt("one", "nlp", null);
    only.healthAnswer = BackendHealth.ok();
    registry.checkHealth("only");
    var a = dispatcher();
    var b = dispatcher();
    assertThat(queue.holdDispatch("a", LEASE)).isTrue();
    assertThat(b.dispatch("b", LEASE)).isZero();
    assertThat(find(job).state()).isEqualTo(JobState.QUEUED);
    assertThat(a.dispatch("a", LEASE)).isEqualTo(1);
    assertThat(find(job).state()).isEqualTo(JobState.PENDING);
    clock.advance(LEASE.plusSeconds(1)); // a's lease lapses: b may take over
    assertThat(queue.holdDispatch("b", LEASE)).isTrue();
  }

  @Test
  void aPassIsDueWhenAskedForWhenTheMonthChangesOrAfterTheInterval() {
    var every = Duration.ofSeconds(10);
    assertThat(queue.due(every)).isTrue();
    queue.holdDispatch("a", LEASE);
    queue.passed("a", queue.now());
    clock.advance(Duration.ofSeconds(1));
    assertThat(queue.due(every)).isFalse();
    queue.requestRequote();
    assertThat(queue.due(every)).isTrue();
    clock.advance(Duration.ofSeconds(1));
    queue.holdDispatch("a", LEASE);
    queue.passed("a", queue.now());
    clock.advance(Duration.ofSeconds(1));
    assertThat(queue.due(every)).isFalse();
    clock.advance(every);
    assertThat(queue.due(every)).isTrue();
    // The last pass of a month, then a second later the next month: spend has reset.
    clock.set(Instant.parse("2030-01-31T23:59:59Z"));
    queue.holdDispatch("a", LEASE);
    queue.passed("a", queue.now());
    assertThat(queue.due(every)).isFalse();
    clock.set(Instant.parse("2030-02-01T00:00:00Z"));
    assertThat(queue.due(every)).isTrue();
  }

  @Test
  void newPricesAskForARequote() {
    var d = dispatcher();
    queue.holdDispatch("a", LEASE);
    d.dispatch("a", LEASE);
    assertThat(queue.due(Duration.ofHours(1))).isFalse();
    prices.set(new Object());
    d.dispatch("b", LEASE); // not the holder: still notices, and asks every replica
    assertThat(queue.due(Duration.ofHours(1))).isTrue();
  }

  private List<String> placedNames() {
    return store.list(null, Set.of(JobState.PENDING), 10).stream().map(JobRow::name).toList();
  }

  private void finish(JobRow job) {
    var row = find(job);
    only.phase(ObjectNames.of(row.id(), row.attempt()), BackendPhase.SUCCEEDED);
    reconciler("a").passOnce();
    assertThat(find(job).state()).isEqualTo(JobState.SUCCEEDED);
  }

  private JobRow submitAt(String name, String team, Integer priority) {
    return submitAt(name, team, priority, 0);
  }

  /** Submits one job a second after the last, so arrival order is clear. */
  private JobRow submitAt(String name, String team, Integer priority, int gpus) {
    clock.advance(Duration.ofSeconds(1));
    var extra = new StringBuilder();
    if (priority != null) {
      extra.append("priority: ").append(priority);
    }
    if (gpus > 0) {
      extra
          .append(extra.length() > 0 ? ", " : "")
          .append("resources: {gpus: ")
          .append(gpus)
          .append("}");
    }
    return service.submit(caller(team), spec(name, extra.toString()), null).job();
  }

  private QueueDispatcher dispatcher() {
    return new QueueDispatcher(
        store, queue, service::route, teams, registry, json, prices::get, Duration.ofSeconds(10));
  }

  private Reconciler reconciler(String owner) {
    if (dispatcher == null) {
      dispatcher = dispatcher();
    }
    return new Reconciler(
            store,
            new JobStepper(store, registry, json, service::route, teams, logArchive, clock),
            registry,
            new Reconciler.Settings(owner, LEASE, Duration.ofSeconds(1), 100),
            clock)
        .withQueue(dispatcher);
  }

  private QueueDispatcher dispatcher;

  @BeforeEach
  void oneDispatcher() {
    dispatcher = null;
  }

  private final LogArchive logArchive =
      new LogArchive(
          JcloudsBlobSink.open(new BlobSinkConfig("transient", "logs", "", null, null, null, null)),
          1 << 20);

  private static Caller caller(String team) {
    return new Caller(
        new Principal(
            "sub-" + team, team + "-user", null, Set.of(team), Set.of(Role.TRAINER), null),
        "127.0.0.1");
  }

  private static SpecReader.ParsedJob spec(String name, String extra) {
    var yaml =
        """
        apiVersion: trainyard.io/v1
        kind: TrainingJob
        metadata: {name: %s}
        spec: {framework: pytorch, image: img, command: [train], replicas: {master: 1}%s}
        """
            .formatted(name, extra.isEmpty() ? "" : ", " + extra);
    return new SpecReader(1 << 16).read(yaml.getBytes(StandardCharsets.UTF_8));
  }

  private JobRow find(JobRow job) {
    return store.find(job.id()).orElseThrow();
  }
}
