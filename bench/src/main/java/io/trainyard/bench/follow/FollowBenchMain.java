package io.trainyard.bench.follow;

import com.codahale.metrics.MetricRegistry;
import io.trainyard.audit.AuditActor;
import io.trainyard.audit.BlobSinkConfig;
import io.trainyard.audit.JcloudsBlobSink;
import io.trainyard.backend.kubernetes.FollowedCluster;
import io.trainyard.gateway.backends.BackendRegistry;
import io.trainyard.gateway.config.TeamConfig;
import io.trainyard.gateway.db.DatabaseMigrator;
import io.trainyard.gateway.db.EmbeddedH2;
import io.trainyard.gateway.db.InsertResult;
import io.trainyard.gateway.db.JobAudit;
import io.trainyard.gateway.db.JobEvent;
import io.trainyard.gateway.db.JobIds;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.db.JobStore;
import io.trainyard.gateway.db.StaleAttempts;
import io.trainyard.gateway.jobs.StoredJson;
import io.trainyard.gateway.jobs.TeamDirectory;
import io.trainyard.gateway.reconcile.JobStepper;
import io.trainyard.gateway.reconcile.LogArchive;
import io.trainyard.gateway.reconcile.Reconciler;
import io.trainyard.spi.ExternalRef;
import io.trainyard.spi.JobState;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * Issue 19, following jobs: {@code jobs} running PyTorchJobs on fabric8's CRUD API server, followed
 * by the gateway's own reconciler ({@link Reconciler}, {@link JobStepper}) and {@link JobStore} on
 * an H2 file database, through a real Kubernetes backend, while a fake operator suspends or resumes
 * {@code changesPerSecond} random jobs a second. For each job count, runs the reconciler twice on
 * the same cluster and database, side by side: {@code full-pass} (an event only wakes a pass over
 * every due job, as before issue 19) and {@code targeted} (an event steps its own job).
 *
 * <p>Measures: the time from the operator's status write to the API server to the commit of the
 * job's row with the new state and its STATE event (seen by a {@link JobAudit} after commit), as
 * p50/p99 over every change, a change not seen by the end counting as slower than any seen; the
 * backend's API requests per minute (counted at the server by its user agent); and the heap used
 * after a full GC, with everything (the API server's 10,000 objects too) and the part the gateway
 * side adds.
 *
 * <p>Run (from the repository root, after {@code mvn -B -o -q package -DskipTests -pl bench -am}):
 * {@code java -Xmx512m -cp bench/target/benchmarks.jar io.trainyard.bench.follow.FollowBenchMain
 * [jobs=1000,5000,10000] [seconds=60] [changesPerSecond=5] [modes=full-pass,targeted]}. Not a test;
 * {@code FollowBenchTest} runs a tiny version only to check that it works.
 */
public final class FollowBenchMain {
  private static final String AGENT = "trainyard-gateway";
  private static final String OWNER = "bench";

  private FollowBenchMain() {}

  /** One mode's figures at one job count. */
  public record Result(
      int jobs,
      String mode,
      int changes,
      int seen,
      double p50Ms,
      double p99Ms,
      double afterEventP50Ms,
      double afterEventP99Ms,
      double requestsPerMinute,
      Map<String, Integer> requests,
      double heapMiB,
      double gatewayHeapMiB,
      double startMs) {
    String row() {
      return String.format(
          "| %,d | %s | %s | %d / %d | %s | %s | %s | %s | %.1f %s | %.0f MiB (+%.0f) |",
          jobs,
          mode,
          ms(startMs),
          seen,
          changes,
          ms(p50Ms),
          ms(p99Ms),
          ms(afterEventP50Ms),
          ms(afterEventP99Ms),
          requestsPerMinute,
          requests,
          heapMiB,
          gatewayHeapMiB);
    }

    private static String ms(double v) {
      return Double.isInfinite(v) || Double.isNaN(v) ? "not seen" : String.format("%.0f ms", v);
    }
  }

  public static void main(String[] args) throws Exception {
    quietLogs();
    var counts =
        Arrays.stream((args.length > 0 ? args[0] : "1000,5000,10000").split(","))
            .mapToInt(Integer::parseInt)
            .toArray();
    int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 60;
    int rate = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    var modes = List.of((args.length > 3 ? args[3] : "full-pass,targeted").split(","));
    var results = run(counts, seconds, rate, modes);
    System.out.println(
        "| jobs | mode | start-up caught up | changes seen | p50 | p99 | event → row p50 |"
            + " event → row p99 | API requests/min (by kind, whole run) |"
            + " heap after GC (gateway side) |");
    System.out.println("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    results.forEach(r -> System.out.println(r.row()));
  }

  /** Runs every mode at every job count; prints progress as it goes. */
  public static List<Result> run(int[] counts, int seconds, int rate, List<String> modes)
      throws Exception {
    var results = new ArrayList<Result>();
    for (int jobs : counts) {
      var dataDir = Files.createTempDirectory("follow-bench");
      var clock = Clock.systemUTC();
      try (var cluster = new FollowedCluster(clock)) {
        var factory = EmbeddedH2.dataSourceFactory(dataDir);
        var dataSource = factory.build(new MetricRegistry(), "follow-bench");
        try {
          var jdbi = Jdbi.create(dataSource);
          new DatabaseMigrator().migrate(jdbi);
          var changes = new Changes();
          var store = new JobStore(jdbi, clock, changes);
          var began = System.nanoTime();
          var refs = runningJobs(cluster, store, jdbi, jobs, clock);
          System.err.printf(
              "%,d running jobs set up in %.1f s%n", jobs, (System.nanoTime() - began) / 1e9);
          cluster.drainRequests(AGENT);
          var baseline = usedHeapAfterGc();
          for (var mode : modes) {
            var result =
                follow(
                    cluster, store, changes, refs, dataDir, clock, mode, seconds, rate, baseline,
                    jobs);
            System.err.println(result.row());
            results.add(result);
          }
        } finally {
          dataSource.stop();
        }
      }
    }
    return results;
  }

  private static Result follow(
      FollowedCluster cluster,
      JobStore store,
      Changes changes,
      Map<String, ExternalRef> refs,
      Path dataDir,
      Clock clock,
      String mode,
      int seconds,
      int rate,
      long baseline,
      int jobs)
      throws Exception {
    var targeted =
        switch (mode) {
          case "targeted" -> true;
          case "full-pass" -> false;
          default -> throw new IllegalArgumentException("mode: full-pass or targeted, not " + mode);
        };
    cluster.drainRequests(AGENT);
    var created = System.nanoTime();
    var backend = cluster.backend(AGENT, dataDir, clock);
    var heard = backend.events(changes::pushed);
    var registry =
        BackendRegistry.of(List.of(new BackendRegistry.Entry(backend, cluster.config())));
    var json = new StoredJson();
    var teams = new TeamDirectory(Map.of("nlp", TeamConfig.DEV), true);
    var archive =
        new LogArchive(
            JcloudsBlobSink.open(
                new BlobSinkConfig("transient", "logs", "", null, null, null, null)),
            1 << 20);
    var stepper =
        new JobStepper(
            store,
            registry,
            json,
            (team, job) -> {
              throw new IllegalStateException("no job is re-quoted here");
            },
            teams,
            archive,
            clock);
    // The gateway's defaults (ReconcilerConfig): 30 s leases, a pass every 2 s, 50 jobs a pass.
    var reconciler =
        new Reconciler(
            store,
            stepper,
            registry,
            new Reconciler.Settings(
                OWNER + "-" + mode, Duration.ofSeconds(30), Duration.ofSeconds(2), 50, targeted),
            clock);
    reconciler.start();
    try {
      // Let the informer list and the first passes run before measuring; with targeted steps, until
      // the steps its first list queued (one per object) have been worked off, which is measured.
      var startMs = caughtUp(reconciler, created, Math.min(10, Math.max(2, seconds / 6)));
      changes.reset();
      var ids = new ArrayList<>(refs.keySet());
      var started = System.nanoTime();
      var end = started + Duration.ofSeconds(seconds).toNanos();
      var next = started;
      var period = Duration.ofSeconds(1).toNanos() / rate;
      while (System.nanoTime() < end) {
        var id = ids.get(ThreadLocalRandom.current().nextInt(ids.size()));
        changes.change(id, refs.get(id), cluster);
        next += period;
        var wait = next - System.nanoTime();
        if (wait > 0) {
          Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
      }
      var measured = Duration.ofNanos(System.nanoTime() - started);
      // Changes made near the end get as long as the full measured time to be seen.
      var deadline =
          System.nanoTime() + Math.min(measured.toNanos(), Duration.ofSeconds(30).toNanos());
      while (changes.waiting() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      var requests = cluster.drainRequests(AGENT);
      var total = requests.values().stream().mapToInt(Integer::intValue).sum();
      var heap = usedHeapAfterGc();
      // From the backend's start: its list and watch are most of what it asks.
      var minutes = (System.nanoTime() - created) / 60e9;
      return new Result(
          jobs,
          mode,
          changes.made(),
          changes.seen(),
          changes.percentile(0.50),
          changes.percentile(0.99),
          changes.afterEventPercentile(0.50),
          changes.afterEventPercentile(0.99),
          total / minutes,
          requests,
          heap / 1048576.0,
          (heap - baseline) / 1048576.0,
          startMs);
    } finally {
      try {
        reconciler.stop();
      } catch (RuntimeException e) {
        System.err.println("reconciler stop failed: " + e);
      }
      heard.close();
      backend.close();
      changes.reset();
    }
  }

  /**
   * Waits at least {@code minSeconds}, then until no targeted step has been queued for a second (at
   * most 10 minutes).
   *
   * @return milliseconds from the backend's creation until then
   */
  private static double caughtUp(Reconciler reconciler, long createdNanos, int minSeconds)
      throws InterruptedException {
    Thread.sleep(Duration.ofSeconds(minSeconds).toMillis());
    var deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
    var idleSince = System.nanoTime();
    while (System.nanoTime() < deadline) {
      if (reconciler.queuedTargetedSteps() > 0) {
        idleSince = System.nanoTime();
      } else if (System.nanoTime() - idleSince > Duration.ofSeconds(1).toNanos()) {
        break;
      }
      Thread.sleep(20);
    }
    return (idleSince - createdNanos) / 1e6;
  }

  /**
   * {@code jobs} RUNNING jobs in the database (inserted as the API would, then moved on as the
   * reconciler would after their submit) and their running objects on the API server.
   */
  private static Map<String, ExternalRef> runningJobs(
      FollowedCluster cluster, JobStore store, Jdbi jdbi, int jobs, Clock clock) throws Exception {
    var json = new StoredJson();
    var refs = new ConcurrentHashMap<String, ExternalRef>();
    var actor = new AuditActor("subject-alice", "alice", null, null, null);
    // A few at a time: the API server and the database each answer one request at a time anyway.
    var pool = java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      var done = new ArrayList<java.util.concurrent.Future<?>>();
      for (int n = 0; n < jobs; n++) {
        final int i = n;
        done.add(
            pool.submit(
                () -> {
                  var id = JobIds.newId();
                  var row =
                      JobRow.builder()
                          .id(id)
                          .team("nlp")
                          .ownerSubject("subject-alice")
                          .ownerUsername("alice")
                          .name("job-" + i)
                          .state(JobState.PENDING)
                          .attempt(1)
                          .specJson("{\"metadata\":{\"name\":\"job-" + i + "\"}}")
                          .specHash("0".repeat(64))
                          .decisionJson("{\"offers\":[]}")
                          .offerIndex(0)
                          .backendId(cluster.backendId())
                          .hourlyUsd(new BigDecimal("1.25"))
                          .estimatedUsd(new BigDecimal("2.5"))
                          .createdAt(clock.instant())
                          .build();
                  var result =
                      store.insert(
                          row,
                          JobEvent.of(id, clock.instant(), JobEvent.SUBMITTED, "accepted"),
                          null,
                          null,
                          actor);
                  if (!(result instanceof InsertResult.Created)) {
                    throw new IllegalStateException("not stored: " + result);
                  }
                  refs.put(id, cluster.running(id));
                }));
      }
      for (var f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    jdbi.useHandle(
        h -> {
          var batch =
              h.prepareBatch(
                  "UPDATE jobs SET state = 'RUNNING', external_ref_json = :ref, version = version"
                      + " + 1 WHERE id = :id");
          refs.forEach((id, ref) -> batch.bind("ref", json.write(ref)).bind("id", id).add());
          batch.execute();
        });
    return refs;
  }

  /**
   * The operator's changes waiting to be seen in the database, and how long each took: told of
   * every committed job change by the store, in the change's transaction, and notes the time after
   * commit.
   */
  static final class Changes implements JobAudit {
    private record Waiting(JobState expected, long madeAt) {}

    private final Map<String, Waiting> waiting = new ConcurrentHashMap<>();
    private final Map<String, Long> eventAt = new ConcurrentHashMap<>();
    private final List<Double> latenciesMs = Collections.synchronizedList(new ArrayList<>());
    private final List<Double> afterEventMs = Collections.synchronizedList(new ArrayList<>());

    /**
     * The backend pushed a change of {@code ref}'s attempt: heard on the informer's thread just
     * before or after the reconciler hears it, so the time from here to the commit is the gateway's
     * own part, and the time before it is the API server's and the watch's.
     */
    void pushed(ExternalRef ref) {
      io.trainyard.spi.ObjectNames.jobIdOf(ref.name())
          .filter(waiting::containsKey)
          .ifPresent(id -> eventAt.putIfAbsent(id, System.nanoTime()));
    }

    /** The {@code q} quantile of the time from the pushed event to the commit, in ms. */
    double afterEventPercentile(double q) {
      var sorted = new ArrayList<>(afterEventMs);
      Collections.sort(sorted);
      if (sorted.isEmpty()) {
        return Double.NaN;
      }
      return sorted.get(Math.max(0, (int) Math.ceil(q * sorted.size()) - 1));
    }

    private volatile int made;

    void change(String id, ExternalRef ref, FollowedCluster cluster) {
      if (waiting.containsKey(id) || abandoned.contains(id)) {
        return; // its last change is not in its row yet; pick another next time
      }
      // Running attempts are suspended (the row goes back to SUBMITTED), suspended ones resumed.
      var suspend = suspended.add(id);
      if (!suspend) {
        suspended.remove(id);
      }
      waiting.put(
          id, new Waiting(suspend ? JobState.SUBMITTED : JobState.RUNNING, System.nanoTime()));
      made++;
      if (suspend) {
        cluster.suspend(ref);
      } else {
        cluster.resume(ref);
      }
    }

    /** Attempts the operator last reported suspended. */
    private final java.util.Set<String> suspended = ConcurrentHashMap.newKeySet();

    /** Jobs whose row had not caught up with the operator when a mode ended: not used again. */
    private final java.util.Set<String> abandoned = ConcurrentHashMap.newKeySet();

    int made() {
      return made;
    }

    int seen() {
      return latenciesMs.size();
    }

    int waiting() {
      return waiting.size();
    }

    void reset() {
      abandoned.addAll(waiting.keySet());
      waiting.clear();
      eventAt.clear();
      latenciesMs.clear();
      afterEventMs.clear();
      made = 0;
    }

    /** The {@code q} quantile in ms; infinite when it falls among the changes never seen. */
    double percentile(double q) {
      var sorted = new ArrayList<>(latenciesMs);
      Collections.sort(sorted);
      if (made == 0) {
        return Double.NaN;
      }
      int index = (int) Math.ceil(q * made) - 1;
      return index < sorted.size() ? sorted.get(Math.max(0, index)) : Double.POSITIVE_INFINITY;
    }

    @Override
    public void changed(Handle h, JobRow before, JobRow after, String replica) {
      if (before.state() == after.state()) {
        return;
      }
      h.afterCommit(
          () -> {
            var at = System.nanoTime();
            var w = waiting.get(after.id());
            if (w != null && w.expected() == after.state() && waiting.remove(after.id(), w)) {
              latenciesMs.add((at - w.madeAt()) / 1e6);
              var pushedAt = eventAt.remove(after.id());
              if (pushedAt != null) {
                afterEventMs.add((at - pushedAt) / 1e6);
              }
            }
          });
    }

    @Override
    public void submitted(Handle h, JobRow stored, AuditActor actor) {}

    @Override
    public void refused(Handle h, JobRow attempted, AuditActor actor, String reason) {}

    @Override
    public void cancelRequested(Handle h, JobRow job, AuditActor actor) {}

    @Override
    public void adopted(Handle h, JobRow job, String previousReplica, String replica) {}

    @Override
    public void attemptCleanedUp(Handle h, JobRow job, StaleAttempts.Cleanup cleanup) {}
  }

  /** Warnings only: the mock server and the informers log every request otherwise. */
  static void quietLogs() {
    java.util.logging.LogManager.getLogManager().reset();
    java.util.logging.Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
    if (org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)
        instanceof ch.qos.logback.classic.Logger root) {
      root.setLevel(ch.qos.logback.classic.Level.WARN);
    }
  }

  private static long usedHeapAfterGc() throws InterruptedException {
    var memory = ManagementFactory.getMemoryMXBean();
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(200);
    }
    return memory.getHeapMemoryUsage().getUsed();
  }
}
