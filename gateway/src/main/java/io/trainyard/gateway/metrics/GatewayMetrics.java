package io.trainyard.gateway.metrics;

import io.dropwizard.core.setup.AdminEnvironment;
import io.prometheus.metrics.exporter.servlet.jakarta.PrometheusMetricsServlet;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.trainyard.gateway.config.MetricsConfig;
import io.trainyard.gateway.config.TeamConfig;
import io.trainyard.gateway.db.JobAudit;
import io.trainyard.gateway.db.JobGauges;
import java.time.Clock;
import java.util.Map;
import java.util.function.Supplier;
import org.jdbi.v3.core.Jdbi;

/**
 * The gateway's Prometheus metrics: one registry of this replica (no global default registry), the
 * training-execution metrics in it, and the admin-port endpoint that serves it in the Prometheus
 * text format (OpenMetrics when asked for). Other parts add their own metrics to {@link
 * #registry()} under the {@code trainyard_} prefix. docs/observability.md lists every metric.
 */
public final class GatewayMetrics {
  /** Where the admin port serves the registry; Dropwizard's own JSON stays at {@code /metrics}. */
  public static final String PATH = "/prometheus";

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final JobMetrics jobs = new JobMetrics(registry);
  private final HttpRequestMetrics http = new HttpRequestMetrics(registry);
  private final BackendCallMetrics backendCalls = new BackendCallMetrics(registry);
  private final ServerMetrics servers = new ServerMetrics(registry);
  private final ReconcilerMetrics reconciler = new ReconcilerMetrics(registry);
  private final AuthAndAuditMetrics authAndAudit = new AuthAndAuditMetrics(registry);

  /** The registry to add metrics to. */
  public PrometheusRegistry registry() {
    return registry;
  }

  /** The API's request durations by route and status: register it with Jersey. */
  public HttpRequestMetrics http() {
    return http;
  }

  /** Backend call latency and errors: wraps each backend ({@code BackendRegistry#decorate}). */
  public BackendCallMetrics backendCalls() {
    return backendCalls;
  }

  /** Jetty's threads and connections, the database pool. */
  public ServerMetrics servers() {
    return servers;
  }

  /** Told of the reconciler's passes and steps ({@code Reconciler#observedBy}). */
  public ReconcilerMetrics reconciler() {
    return reconciler;
  }

  /** Audit append latency and JWKS fetches. */
  public AuthAndAuditMetrics authAndAudit() {
    return authAndAudit;
  }

  /** {@code delegate}, counting every job change it sees once the change commits. */
  public JobAudit observing(JobAudit delegate) {
    return jobs.observing(delegate);
  }

  /**
   * Adds the gauges read from the database and the configuration.
   *
   * @param teams the teams in force now (they can change while the gateway runs)
   */
  public void readDatabase(
      Jdbi jdbi, Supplier<Map<String, TeamConfig>> teams, MetricsConfig config, Clock clock) {
    new DatabaseGauges(new JobGauges(jdbi), teams, config, clock, registry);
  }

  /**
   * Serves the registry at {@link #PATH} on the admin port, with the JVM's own metrics beside the
   * gateway's ({@code jvm_*}, {@code process_*}: memory, threads, GC, class loading, CPU, from the
   * Prometheus client's JVM instrumentation).
   */
  public void serveOn(AdminEnvironment admin) {
    JvmMetrics.builder().register(registry);
    admin.addServlet("prometheus", new PrometheusMetricsServlet(registry)).addMapping(PATH);
  }
}
