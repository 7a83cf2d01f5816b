package io.trainyard.gateway.backends;

import io.dropwizard.lifecycle.Managed;
import io.trainyard.spi.BackendConfig;
import io.trainyard.spi.BackendContext;
import io.trainyard.spi.BackendFactory;
import io.trainyard.spi.BackendHealth;
import io.trainyard.spi.InstanceShapes;
import io.trainyard.spi.TrainingBackend;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The configured backends, built by the {@link BackendFactory} that {@link ServiceLoader} finds for
 * each block's {@code type:}. Also remembers a backend whose credentials failed, so the router
 * stops offering it until its health check passes again.
 */
public final class BackendRegistry implements Managed {
  private static final Logger LOG = LoggerFactory.getLogger(BackendRegistry.class);

  /** A backend with the configuration block it was built from. */
  public record Entry(TrainingBackend backend, BackendConfig config) {}

  private final Map<String, Entry> entries = new LinkedHashMap<>();
  private final Map<String, String> unhealthy = new ConcurrentHashMap<>();

  /** Backends already built, e.g. by a test or an embedding application. */
  public static BackendRegistry of(Collection<Entry> built) {
    var registry = new BackendRegistry();
    for (var entry : built) {
      registry.entries.put(entry.config().id(), entry);
    }
    return registry;
  }

  private BackendRegistry() {}

  public BackendRegistry(
      Iterable<BackendConfig> configs, InstanceShapes shapes, Path dataDir, Clock clock) {
    this(configs, shapes, dataDir, clock, false);
  }

  /**
   * @param devMode handed to every backend: the local one runs unsandboxed jobs only in dev mode
   */
  public BackendRegistry(
      Iterable<BackendConfig> configs,
      InstanceShapes shapes,
      Path dataDir,
      Clock clock,
      boolean devMode) {
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
              shapes, dataDir.resolve("backends").resolve(config.id()), clock, devMode, dataDir);
      entries.put(config.id(), new Entry(create(factory, config, context), config));
    }
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
    return entries.values();
  }

  public Optional<Entry> find(String id) {
    return Optional.ofNullable(entries.get(id));
  }

  /** Why the backend cannot be offered now, or null when it can. */
  public String unavailableReason(String id) {
    var reason = unhealthy.get(id);
    return reason == null ? null : "unhealthy: " + reason;
  }

  public void markUnhealthy(String id, String reason) {
    if (unhealthy.put(id, reason) == null) {
      LOG.warn("backend {} marked unhealthy: {}", id, reason);
    }
  }

  /** Asks the backend and records the answer for the router. */
  public BackendHealth checkHealth(String id) {
    var entry = entries.get(id);
    BackendHealth health;
    try {
      health = entry.backend().health();
    } catch (RuntimeException e) {
      health = BackendHealth.unhealthy(e.getClass().getSimpleName() + ": " + e.getMessage());
    }
    if (health.healthy()) {
      unhealthy.remove(id);
    } else {
      markUnhealthy(id, health.message());
    }
    return health;
  }

  @Override
  public void stop() {
    for (var entry : entries.values()) {
      try {
        entry.backend().close();
      } catch (RuntimeException e) {
        LOG.warn("backend {} did not close cleanly", entry.config().id(), e);
      }
    }
  }
}
