package io.trainyard.gateway.backends;

import io.trainyard.cost.PriceBook;
import io.trainyard.gateway.api.BackendList;
import io.trainyard.gateway.config.MetricsConfig;
import io.trainyard.gateway.db.JobGauges;
import io.trainyard.gateway.jobs.StoredJson;
import io.trainyard.spi.spec.TrainingJob;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What {@code GET /v1/backends} shows beside health: the jobs on each backend and the GPUs and CPUs
 * they request, read from the database in the few grouped queries the Prometheus gauges use ({@link
 * JobGauges}), against {@code metrics.backendCapacity}; and the price catalog's age. Thread-safe.
 */
public final class BackendLoad {
  private final JobGauges gauges;
  private final MetricsConfig config;
  private final PriceBook prices;
  private final String catalogSource;
  private final Clock clock;
  private final StoredJson json = new StoredJson();

  /** GPUs and CPUs of each placed job, by id: a stored spec never changes. */
  private final Map<String, double[]> requests = new HashMap<>();

  /**
   * @param catalogSource where the prices come from, for people (the embedded catalog, refreshers)
   */
  public BackendLoad(
      JobGauges gauges, MetricsConfig config, PriceBook prices, String catalogSource, Clock clock) {
    this.gauges = Objects.requireNonNull(gauges, "gauges");
    this.config = Objects.requireNonNull(config, "config");
    this.prices = Objects.requireNonNull(prices, "prices");
    this.catalogSource = Objects.requireNonNull(catalogSource, "catalogSource");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** One reading of every backend's load. */
  public record Reading(
      Map<String, long[]> counts,
      Map<String, double[]> held,
      Map<String, MetricsConfig.Capacity> limits,
      BackendList.Catalog catalog) {
    public BackendList.Jobs jobs(String backend) {
      var c = counts.getOrDefault(backend, new long[2]);
      return new BackendList.Jobs(c[0], c[1]);
    }

    public BackendList.Capacity capacity(String backend) {
      var h = held.getOrDefault(backend, new double[2]);
      var limit = limits.get(backend);
      return new BackendList.Capacity(
          new BackendList.Use(Math.round(h[0]), limit == null ? null : limit.gpus()),
          new BackendList.Use(h[1], limit == null ? null : limit.cpus()),
          new BackendList.Use(jobs(backend).running(), null));
    }
  }

  public synchronized Reading read() {
    var counts = new HashMap<String, long[]>();
    for (var q : gauges.queued()) {
      if (q.backendId() != null) {
        counts.computeIfAbsent(q.backendId(), b -> new long[2])[1] += q.jobs();
      }
    }
    var placed = gauges.placed();
    var ids = placed.stream().map(JobGauges.PlacedJob::id).toList();
    requests.keySet().retainAll(ids);
    var unknown = ids.stream().filter(id -> !requests.containsKey(id)).toList();
    gauges.specs(unknown).forEach((id, spec) -> requests.put(id, resources(spec)));
    var held = new HashMap<String, double[]>();
    for (var job : placed) {
      if (job.backendId() == null) {
        continue;
      }
      counts.computeIfAbsent(job.backendId(), b -> new long[2])[0]++;
      var r = requests.getOrDefault(job.id(), new double[2]);
      var sums = held.computeIfAbsent(job.backendId(), b -> new double[2]);
      sums[0] += r[0];
      sums[1] += r[1];
    }
    return new Reading(counts, held, Map.copyOf(config.getBackendCapacity()), catalog());
  }

  private BackendList.Catalog catalog() {
    var asOf = prices.asOf();
    if (asOf == null) {
      return new BackendList.Catalog(catalogSource, null, null);
    }
    Instant at = asOf.atStartOfDay(ZoneOffset.UTC).toInstant();
    long age = Math.max(0, Duration.between(at, clock.instant()).toSeconds());
    return new BackendList.Catalog(catalogSource, at, age);
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
}
