package io.trainyard.gateway.backends;

import io.dropwizard.lifecycle.Managed;
import io.trainyard.gateway.tracing.GatewayTracing;
import io.trainyard.gateway.tracing.TracedBackend;
import io.trainyard.spi.BackendConfig;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.BackendFactory;
import io.trainyard.spi.BackendHealth;
import io.trainyard.spi.InstanceShapes;
import io.trainyard.spi.TrainingBackend;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The configured backends, built by the {@link BackendFactory} that {@link ServiceLoader} finds for
 * each block's {@code type:}.
 *
 * <p>A factory that fails at start with {@link BackendException.Retryable} or {@link
 * BackendException.Unauthenticated} (its cloud is down, refused the credentials, its cluster is
 * degraded) does not stop the gateway: the backend stands as unhealthy with that reason and is
 * built again in the background. Any other failure is a configuration error and stops start-up.
 *
 * <p>Health is probed in the background every {@link Settings#checkEvery} (each probe bounded by
 * {@link Settings#timeout}) and cached: callers read the cache, so no request waits on a backend,
 * and an unhealthy backend is offered again as soon as a probe passes. Thread-safe.
 */
public final class BackendRegistry implements Managed {
  private static final Logger LOG = LoggerFactory.getLogger(BackendRegistry.class);

  /** A backend with the configuration block it was built from. */
  public record Entry(TrainingBackend backend, BackendConfig config) {}

  /**
   * @param checkEvery how often every backend's health is probed
   * @param timeout the longest one probe may take; a slower backend counts as unhealthy
   * @param retryStartEvery how often a backend whose factory failed is built again
   */
  public record Settings(Duration checkEvery, Duration timeout, Duration retryStartEvery) {
    public static final Settings DEFAULT =
        new Settings(Duration.ofSeconds(30), Duration.ofSeconds(10), Duration.ofSeconds(30));
  }

  /** A block whose factory failed for a reason that may pass, and what to build it with. */
  private record Unstarted(BackendFactory<?> factory, BackendContext context) {}

  // Insertion order is the configuration's; entries are replaced when a backend starts late.
  private final Map<String, Entry> entries = Collections.synchronizedMap(new LinkedHashMap<>());
  private final Map<String, Unstarted> unstarted = new ConcurrentHashMap<>();
  private final Map<String, String> unhealthy = new ConcurrentHashMap<>();
  private final Map<String, BackendHealth> lastHealth = new ConcurrentHashMap<>();
  private final Settings settings;
  private volatile UnaryOperator<TrainingBackend> decorator = UnaryOperator.identity();
  private GatewayTracing tracing = GatewayTracing.off();
  private final List<Consumer<Entry>> startListeners = new CopyOnWriteArrayList<>();
  private ScheduledExecutorService schedule;
  private volatile ExecutorService probes;

  /** Backends already built, e.g. by a test or an embedding application. */
  public static BackendRegistry of(Collection<Entry> built) {
    var registry = new BackendRegistry(Settings.DEFAULT);
    for (var entry : built) {
      registry.entries.put(entry.config().id(), entry);
    }
    return registry;
  }

  private BackendRegistry(Settings settings) {
    this.settings = settings;
  }

  public BackendRegistry(
      Iterable<BackendConfig> configs, InstanceShapes shapes, Path dataDir, Clock clock) {
    this(configs, shapes, dataDir, clock, false, Settings.DEFAULT);
  }

  /**
   * @param devMode handed to every backend: the local one runs unsandboxed jobs only in dev mode
   * @throws IllegalArgumentException a block is invalid (its factory said so, or no module serves
   *     its type): start-up stops
   */
  public BackendRegistry(
      Iterable<BackendConfig> configs,
      InstanceShapes shapes,
      Path dataDir,
      Clock clock,
      boolean devMode,
      Settings settings) {
    this(configs, shapes, dataDir, clock, devMode, settings, GatewayTracing.off());
  }

  /**
   * @param tracing handed to every backend (its client spans) and wrapped around it ({@link
   *     TracedBackend}: a span per call) when on
   */
  public BackendRegistry(
      Iterable<BackendConfig> configs,
      InstanceShapes shapes,
      Path dataDir,
      Clock clock,
      boolean devMode,
      Settings settings,
      GatewayTracing tracing) {
    this.settings = settings;
    this.tracing = tracing;
    var factories = factories();
    for (var config : configs) {
      if (config.id() == null || config.id().isBlank()) {
        throw new IllegalArgumentException("backends[].id is required");
      }
      if (entries.containsKey(config.id())) {
        throw new IllegalArgumentException("backends: id " + config.id() + " is used twice");
      }
      var factory = factories.get(config.getClass());
      if (factory == null) {
        throw new IllegalArgumentException("backends." + config.id() + ": no backend module");
      }
      var context =
          new BackendContext(
              shapes,
              dataDir.resolve("backends").resolve(config.id()),
              clock,
              devMode,
              dataDir,
              tracing.openTelemetry());
      try {
        entries.put(config.id(), new Entry(traced(create(factory, config, context)), config));
      } catch (BackendException.Retryable | BackendException.Unauthenticated e) {
        var reason = e.getMessage();
        LOG.warn(
            "backend {} could not start ({}); the gateway starts without it and retries every {}",
            config.id(),
            reason,
            settings.retryStartEvery());
        entries.put(
            config.id(),
            new Entry(new UnstartedBackend(factory.kind(), config.id(), reason), config));
        unstarted.put(config.id(), new Unstarted(factory, context));
        unhealthy.put(config.id(), "not started: " + reason);
      }
    }
  }

  /**
   * Wraps every backend, those built so far and those that start late, with {@code decorator} (e.g.
   * the gateway's call metrics), so every caller of the SPI goes through it. Call before {@link
   * #start()}.
   */
  public void decorate(UnaryOperator<TrainingBackend> decorator) {
    this.decorator = Objects.requireNonNull(decorator, "decorator");
    synchronized (entries) {
      entries.replaceAll(
          (id, entry) -> new Entry(decorator.apply(entry.backend()), entry.config()));
    }
  }

  private TrainingBackend traced(TrainingBackend backend) {
    return tracing.enabled() ? new TracedBackend(backend, tracing) : backend;
  }

  /** Every backend factory on the class path, by its configuration class. */
  public static Map<Class<?>, BackendFactory<?>> factories() {
    var byClass = new LinkedHashMap<Class<?>, BackendFactory<?>>();
    for (var factory : ServiceLoader.load(BackendFactory.class)) {
      byClass.put(factory.configClass(), factory);
    }
    return byClass;
  }

  @SuppressWarnings("unchecked")
  private static <C extends BackendConfig> TrainingBackend create(
      BackendFactory<C> factory, BackendConfig config, BackendContext context) {
    return factory.create((C) config, context);
  }

  public Collection<Entry> all() {
    synchronized (entries) {
      return List.copyOf(entries.values());
    }
  }

  public Optional<Entry> find(String id) {
    return Optional.ofNullable(entries.get(id));
  }

  /**
   * Calls {@code listener} with each backend that starts late (its factory failed at start and
   * succeeded on a retry), e.g. to subscribe to its pushed events.
   */
  public void onLateStart(Consumer<Entry> listener) {
    startListeners.add(listener);
  }

  /** Why the backend cannot be offered now, or null when it can. */
  public String unavailableReason(String id) {
    var reason = unhealthy.get(id);
    return reason == null ? null : "unhealthy: " + reason;
  }

  public void markUnhealthy(String id, String reason) {
    lastHealth.put(id, BackendHealth.unhealthy(reason));
    if (unhealthy.put(id, reason) == null) {
      LOG.warn("backend {} marked unhealthy: {}", id, reason);
    }
  }

  /**
   * The backend's health as the last background probe found it; what the API and the admin health
   * check show. Never calls the backend.
   */
  public BackendHealth health(String id) {
    var reason = unhealthy.get(id);
    if (reason != null) {
      return BackendHealth.unhealthy(reason);
    }
    return lastHealth.getOrDefault(id, BackendHealth.ok());
  }

  /** Asks the backend now, within the probe timeout, and records the answer for the router. */
  public BackendHealth checkHealth(String id) {
    var entry = entries.get(id);
    if (entry == null) {
      return BackendHealth.unhealthy("not configured");
    }
    var health = probeBounded(entry.backend());
    lastHealth.put(id, health);
    if (health.healthy()) {
      if (unhealthy.remove(id) != null) {
        LOG.info("backend {} is healthy again", id);
      }
    } else {
      markUnhealthy(id, health.message());
    }
    return health;
  }

  private BackendHealth probeBounded(TrainingBackend backend) {
    var pool = probes;
    if (pool == null) {
      return probe(backend);
    }
    Future<BackendHealth> answer = pool.submit(() -> probe(backend));
    try {
      return answer.get(settings.timeout().toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      answer.cancel(true);
      return BackendHealth.unhealthy("no answer to the health check within " + settings.timeout());
    } catch (ExecutionException e) {
      return BackendHealth.unhealthy(describe(e.getCause()));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return BackendHealth.unhealthy("health check interrupted");
    }
  }

  private static BackendHealth probe(TrainingBackend backend) {
    try {
      return backend.health();
    } catch (RuntimeException e) {
      return BackendHealth.unhealthy(describe(e));
    }
  }

  private static String describe(Throwable e) {
    return e instanceof BackendException
        ? e.getMessage()
        : e.getClass().getSimpleName() + ": " + e.getMessage();
  }

  /** Probes every backend once, in parallel; then on schedule. Retries unstarted backends. */
  @Override
  public synchronized void start() {
    probes =
        Executors.newCachedThreadPool(
            r -> {
              var t = new Thread(r, "backend-health");
              t.setDaemon(true);
              return t;
            });
    schedule =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              var t = new Thread(r, "backend-registry");
              t.setDaemon(true);
              return t;
            });
    checkAll();
    var every = settings.checkEvery().toMillis();
    schedule.scheduleWithFixedDelay(this::checkAllQuietly, every, every, TimeUnit.MILLISECONDS);
    var retry = settings.retryStartEvery().toMillis();
    schedule.scheduleWithFixedDelay(this::retryUnstarted, retry, retry, TimeUnit.MILLISECONDS);
  }

  /** Probes every started backend now, in parallel, each bounded by the timeout. */
  public void checkAll() {
    var running = new ArrayList<Future<?>>();
    for (var entry : all()) {
      var id = entry.config().id();
      if (unstarted.containsKey(id)) {
        continue;
      }
      if (probes == null) {
        checkHealth(id); // not started (tests): in turn, on this thread
      } else {
        // checkHealth waits on its own probe, so each waits on a thread of its own.
        running.add(probes.submit(() -> checkHealth(id)));
      }
    }
    for (var f : running) {
      try {
        f.get();
      } catch (ExecutionException e) {
        LOG.warn("health probe failed", e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private void checkAllQuietly() {
    try {
      checkAll();
    } catch (RuntimeException e) {
      LOG.warn("backend health probes failed", e);
    }
  }

  /** Builds again each backend whose factory failed at start; public so tests can drive it. */
  public void retryUnstarted() {
    for (var id : List.copyOf(unstarted.keySet())) {
      var pending = unstarted.get(id);
      var config = entries.get(id).config();
      try {
        var backend = decorator.apply(traced(create(pending.factory(), config, pending.context())));
        var entry = new Entry(backend, config);
        entries.put(id, entry);
        unstarted.remove(id);
        unhealthy.remove(id);
        LOG.info("backend {} started", id);
        checkHealth(id);
        startListeners.forEach(listener -> listener.accept(entry));
      } catch (BackendException.Retryable | BackendException.Unauthenticated e) {
        markUnhealthy(id, "not started: " + e.getMessage());
      } catch (RuntimeException e) {
        // Now a configuration error (e.g. the cluster was deleted): say so, keep trying.
        markUnhealthy(id, "not started: " + e.getMessage());
        LOG.warn("backend {} still cannot start: {}", id, e.getMessage());
      }
    }
  }

  @Override
  public synchronized void stop() {
    if (schedule != null) {
      schedule.shutdownNow();
    }
    if (probes != null) {
      probes.shutdownNow();
    }
    for (var entry : all()) {
      try {
        entry.backend().close();
      } catch (RuntimeException e) {
        LOG.warn("backend {} did not close cleanly", entry.config().id(), e);
      }
    }
  }
}
