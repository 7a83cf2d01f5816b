package io.trainyard.gateway.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import io.trainyard.cost.MonthlySpend;
import io.trainyard.gateway.config.MetricsConfig;
import io.trainyard.gateway.config.TeamConfig;
import io.trainyard.gateway.db.JobGauges;
import io.trainyard.gateway.jobs.StoredJson;
import io.trainyard.spi.spec.TrainingJob;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gauges of the whole fleet, read from the database when scraped: the queue, the GPUs and CPUs that
 * placed jobs hold, the month's spend; beside them what is configured (backend capacity, team GPU
 * quotas, budgets). Reads happen at most once per {@code databaseReadsEvery} per replica, however
 * often the replica is scraped, and a failed read keeps serving the last good one (counted in
 * {@code trainyard_metrics_database_read_failures_total}) so the counters still reach Prometheus
 * while the database is away. Every replica exports the same values: aggregate them with {@code
 * max}, not {@code sum}. Thread-safe.
 */
final class DatabaseGauges {
  private static final Logger LOG = LoggerFactory.getLogger(DatabaseGauges.class);

  /** One read of the database. */
  private record Readings(
      List<JobGauges.QueuedGroup> queued,
      Map<List<String>, double[]> placed,
      Map<String, MonthlySpend> spend,
      Map<String, Long> leftAttempts,
      Instant at) {
    static final Readings NONE =
        new Readings(List.of(), Map.of(), Map.of(), Map.of(), Instant.EPOCH);
  }

  private final JobGauges gauges;
  private final StoredJson json = new StoredJson();
  private final Supplier<Map<String, TeamConfig>> teams;
  private final MetricsConfig config;
  private final Clock clock;
  private final Duration readsEvery;
  private final Duration spendReadsEvery;
  private final Counter readFailures;

  /** GPUs and CPUs of each placed job, by id: a stored spec never changes. */
  private final Map<String, double[]> requests = new HashMap<>();

  private Readings last = Readings.NONE;
  private Map<String, MonthlySpend> spend = Map.of();
  private Instant spendReadAt = Instant.EPOCH;

  DatabaseGauges(
      JobGauges gauges,
      Supplier<Map<String, TeamConfig>> teams,
      MetricsConfig config,
      Clock clock,
      PrometheusRegistry registry) {
    this.gauges = Objects.requireNonNull(gauges, "gauges");
    this.teams = Objects.requireNonNull(teams, "teams");
    this.config = Objects.requireNonNull(config, "config");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.readsEvery = config.getDatabaseReadsEvery().toJavaDuration();
    this.spendReadsEvery = config.getSpendReadsEvery().toJavaDuration();
    readFailures =
        Counter.builder()
            .name("trainyard_metrics_database_read_failures")
            .help("Scrape-time database reads that failed (the last good read was served).")
            .register(registry);
    register(registry);
  }

  private void register(PrometheusRegistry registry) {
    gauge(registry, "trainyard_queue_jobs", "Jobs waiting in QUEUED.", "team", "backend")
        .callback(cb -> current().queued().forEach(q -> cb.call(q.jobs(), labels(q))))
        .register(registry);
    gauge(
            registry,
            "trainyard_queue_oldest_age_seconds",
            "How long the longest-waiting QUEUED job has waited since it was submitted.",
            "team",
            "backend")
        .unit(Unit.SECONDS)
        .callback(
            cb -> {
              var readings = current();
              for (var q : readings.queued()) {
                var waited = Duration.between(q.oldestCreatedAt(), readings.at()).toMillis();
                cb.call(Math.max(0, waited) / 1000.0, labels(q));
              }
            })
        .register(registry);
    placed(registry, "trainyard_placed_jobs", "Jobs placed on a backend (SUBMITTED, RUNNING).", 0);
    placed(registry, "trainyard_placed_gpus", "GPUs requested by placed jobs.", 1);
    placed(registry, "trainyard_placed_cpus", "CPUs requested by placed jobs.", 2);
    gauge(
            registry,
            "trainyard_left_attempts",
            "Attempts jobs left (failed over, queued, failed) that may still have an object on the"
                + " backend, waiting for the reconciler to cancel them.",
            "backend")
        .callback(cb -> current().leftAttempts().forEach((b, n) -> cb.call(n, b)))
        .register(registry);
    capacity(registry, "trainyard_backend_capacity_gpus", "GPUs the backend can hold.", true);
    capacity(registry, "trainyard_backend_capacity_cpus", "CPUs the backend can hold.", false);
    teamGauge(
        registry,
        "trainyard_team_max_gpus",
        "The team's GPU quota (teams.X.maxGpus).",
        cb ->
            teams
                .get()
                .forEach((team, c) -> ifSet(c.maxGpus(), v -> cb.call(v.doubleValue(), team))));
    teamGauge(
        registry,
        "trainyard_team_budget_usd",
        "The team's monthly budget (teams.X.monthlyBudgetUsd).",
        cb ->
            teams
                .get()
                .forEach(
                    (team, c) -> ifSet(c.monthlyBudgetUsd(), v -> cb.call(v.doubleValue(), team))));
    teamGauge(
        registry,
        "trainyard_team_spend_accrued_usd",
        "Accrued cost of the team's jobs this UTC month (running time x hourly price).",
        cb -> current().spend().forEach((team, s) -> cb.call(s.accruedUsd().doubleValue(), team)));
    teamGauge(
        registry,
        "trainyard_team_spend_committed_usd",
        "What the team's live jobs may still cost this month, beyond what they accrued.",
        cb ->
            current().spend().forEach((team, s) -> cb.call(s.committedUsd().doubleValue(), team)));
  }

  private static GaugeWithCallback.Builder gauge(
      PrometheusRegistry registry, String name, String help, String... labels) {
    return GaugeWithCallback.builder().name(name).help(help).labelNames(labels);
  }

  private void placed(PrometheusRegistry registry, String name, String help, int column) {
    gauge(registry, name, help, "team", "backend")
        .callback(
            cb ->
                current()
                    .placed()
                    .forEach((key, sums) -> cb.call(sums[column], key.get(0), key.get(1))))
        .register(registry);
  }

  private void capacity(PrometheusRegistry registry, String name, String help, boolean gpus) {
    gauge(registry, name, help, "backend")
        .callback(
            cb ->
                config
                    .getBackendCapacity()
                    .forEach(
                        (backend, c) -> {
                          if (gpus) {
                            ifSet(c.gpus(), v -> cb.call(v.doubleValue(), backend));
                          } else {
                            ifSet(c.cpus(), v -> cb.call(v, backend));
                          }
                        }))
        .register(registry);
  }

  private static void teamGauge(
      PrometheusRegistry registry,
      String name,
      String help,
      Consumer<GaugeWithCallback.Callback> callback) {
    gauge(registry, name, help, "team").callback(callback).register(registry);
  }

  private static <T> void ifSet(T value, Consumer<T> use) {
    if (value != null) {
      use.accept(value);
    }
  }

  private static String[] labels(JobGauges.QueuedGroup q) {
    return new String[] {q.team(), q.backendId() == null ? "" : q.backendId()};
  }

  /** The last reading if it is fresh enough, else a new one; one reader at a time. */
  private synchronized Readings current() {
    var now = clock.instant();
    if (last != Readings.NONE && Duration.between(last.at(), now).compareTo(readsEvery) < 0) {
      return last;
    }
    try {
      last = read(now);
    } catch (RuntimeException e) {
      readFailures.inc();
      LOG.warn(
          "metrics: reading the job gauges failed, serving the last reading: {}", e.toString());
    }
    return last;
  }

  private Readings read(Instant now) {
    var queued = gauges.queued();
    var placedJobs = gauges.placed();
    var ids = placedJobs.stream().map(JobGauges.PlacedJob::id).toList();
    requests.keySet().retainAll(ids);
    var unknown = ids.stream().filter(id -> !requests.containsKey(id)).toList();
    gauges.specs(unknown).forEach((id, spec) -> requests.put(id, resources(spec)));
    var placed = new TreeMap<List<String>, double[]>(DatabaseGauges::compareKeys);
    for (var job : placedJobs) {
      var key = List.of(job.team(), job.backendId() == null ? "" : job.backendId());
      var sums = placed.computeIfAbsent(key, k -> new double[3]);
      var r = requests.getOrDefault(job.id(), new double[] {0, 0});
      sums[0] += 1;
      sums[1] += r[0];
      sums[2] += r[1];
    }
    if (spendReadAt.equals(Instant.EPOCH)
        || Duration.between(spendReadAt, now).compareTo(spendReadsEvery) >= 0) {
      spend = gauges.spendThisMonth(now);
      spendReadAt = now;
    }
    return new Readings(queued, placed, spend, gauges.leftAttempts(), now);
  }

  private double[] resources(String specJson) {
    try {
      var spec = json.read(specJson, TrainingJob.class).spec();
      var cpus = 0.0;
      for (var role : spec.roleSpecs()) {
        cpus += role.replicas() * role.resources().cpuCount();
      }
      return new double[] {spec.totalGpus(), cpus};
    } catch (RuntimeException e) {
      // A spec this gateway cannot read (written by a newer one) counts as requesting nothing.
      return new double[] {0, 0};
    }
  }

  private static int compareKeys(List<String> a, List<String> b) {
    var c = a.get(0).compareTo(b.get(0));
    return c != 0 ? c : a.get(1).compareTo(b.get(1));
  }
}
