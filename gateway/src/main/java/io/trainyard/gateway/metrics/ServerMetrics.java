package io.trainyard.gateway.metrics;

import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.tomcat.jdbc.pool.DataSourceProxy;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Gauges of the gateway's own servers, read when scraped: Jetty's request threads, its queue and
 * open connections per connector, and the database connection pool. Before the server starts (and
 * in tests that build only the registry) the families are there with no samples. Thread-safe.
 */
public final class ServerMetrics {
  private final AtomicReference<Server> jetty = new AtomicReference<>();
  private final AtomicReference<DataSourceProxy> pool = new AtomicReference<>();

  ServerMetrics(PrometheusRegistry registry) {
    threadGauge(
        registry,
        "trainyard_jetty_threads_busy",
        "Jetty threads serving a request now.",
        QueuedThreadPool::getBusyThreads);
    threadGauge(
        registry,
        "trainyard_jetty_threads",
        "Jetty threads in the pool now, busy or idle.",
        QueuedThreadPool::getThreads);
    threadGauge(
        registry,
        "trainyard_jetty_threads_max",
        "The most threads Jetty's pool may grow to.",
        QueuedThreadPool::getMaxThreads);
    threadGauge(
        registry,
        "trainyard_jetty_queued_requests",
        "Jobs (requests, connection work) waiting for a free Jetty thread.",
        QueuedThreadPool::getQueueSize);
    GaugeWithCallback.builder()
        .name("trainyard_jetty_connections")
        .help("Open connections per connector (application, admin).")
        .labelNames("connector")
        .callback(
            callback -> {
              var server = jetty.get();
              if (server == null) {
                return;
              }
              for (var connector : server.getConnectors()) {
                if (connector instanceof ServerConnector c) {
                  callback.call(c.getConnectedEndPoints().size(), connectorName(c));
                }
              }
            })
        .register(registry);
    poolGauge(
        registry,
        "trainyard_db_pool_active_connections",
        "Database connections lent out now.",
        DataSourceProxy::getActive);
    poolGauge(
        registry,
        "trainyard_db_pool_idle_connections",
        "Database connections open and free now.",
        DataSourceProxy::getIdle);
    poolGauge(
        registry,
        "trainyard_db_pool_max_connections",
        "The most connections the pool opens (database.maxPoolSize).",
        DataSourceProxy::getMaxActive);
    poolGauge(
        registry,
        "trainyard_db_pool_waiting_threads",
        "Threads waiting for a database connection now.",
        DataSourceProxy::getWaitCount);
  }

  /** Reads Jetty from now on; call when the server has started. */
  public void serverStarted(Server server) {
    jetty.set(server);
  }

  /**
   * Reads the pool from now on. Dropwizard's pooled data source is Tomcat JDBC's; another is not
   * read (its families stay empty).
   */
  public void readPool(Object dataSource) {
    if (dataSource instanceof DataSourceProxy proxy) {
      pool.set(proxy);
    }
  }

  /**
   * Dropwizard names its connectors {@code application} and {@code admin}; Jetty adds {@code @hash}
   * to an unnamed one, which would be a label value per start.
   */
  static String connectorName(ServerConnector connector) {
    var name = connector.getName();
    if (name == null || name.isBlank()) {
      return "unnamed";
    }
    var at = name.indexOf('@');
    return at > 0 ? name.substring(0, at) : name;
  }

  private interface IntRead<T> {
    int read(T source);
  }

  private void threadGauge(
      PrometheusRegistry registry, String name, String help, IntRead<QueuedThreadPool> read) {
    GaugeWithCallback.builder()
        .name(name)
        .help(help)
        .callback(
            callback -> {
              var server = jetty.get();
              if (server != null && server.getThreadPool() instanceof QueuedThreadPool threads) {
                callback.call(read.read(threads));
              }
            })
        .register(registry);
  }

  private void poolGauge(
      PrometheusRegistry registry, String name, String help, IntRead<DataSourceProxy> read) {
    GaugeWithCallback.builder()
        .name(name)
        .help(help)
        .callback(
            callback -> {
              var source = pool.get();
              if (source != null) {
                callback.call(read.read(source));
              }
            })
        .register(registry);
  }
}
