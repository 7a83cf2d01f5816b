package io.trainyard.gateway.metrics;

import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import io.trainyard.auth.OidcKeySource;
import io.trainyard.gateway.audit.AuditLog;
import java.util.Locale;

/**
 * Two dependencies every request may wait on: appending to the audit chain (inside the change's
 * transaction, holding the chain head until the commit) and fetching the IdP's signing keys. The
 * {@code auth} module knows nothing of Prometheus; it calls {@link #jwksListener()}. Thread-safe.
 */
public final class AuthAndAuditMetrics {
  static final double[] BUCKETS = {
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
  };

  private final Histogram auditAppend;
  private final Counter jwksFetches;
  private final Histogram jwksFetch;

  AuthAndAuditMetrics(PrometheusRegistry registry) {
    auditAppend =
        histogram("trainyard_audit_append_duration_seconds")
            .help("Chaining and storing one transaction's audit events, by outcome.")
            .labelNames("outcome")
            .register(registry);
    jwksFetches =
        Counter.builder()
            .name("trainyard_jwks_fetches")
            .help(
                "Fetches of the IdP's discovery document and signing keys (JWKS), by document"
                    + " and outcome.")
            .labelNames("document", "outcome")
            .register(registry);
    jwksFetch =
        histogram("trainyard_jwks_fetch_duration_seconds")
            .help("Time of those fetches, by document.")
            .labelNames("document")
            .register(registry);
  }

  private static Histogram.Builder histogram(String name) {
    return Histogram.builder()
        .name(name)
        .unit(Unit.SECONDS)
        .classicOnly()
        .classicUpperBounds(BUCKETS);
  }

  /** What {@link AuditLog} tells of each append. */
  public AuditLog.AppendListener auditListener() {
    return (ok, took) -> auditAppend.labelValues(outcome(ok)).observe(took.toNanos() / 1e9);
  }

  /** What {@link OidcKeySource} tells of each fetch. */
  public OidcKeySource.FetchListener jwksListener() {
    return (document, ok, took) -> {
      var name = document.name().toLowerCase(Locale.ROOT);
      jwksFetches.labelValues(name, outcome(ok)).inc();
      jwksFetch.labelValues(name).observe(took.toNanos() / 1e9);
    };
  }

  private static String outcome(boolean ok) {
    return ok ? "ok" : "error";
  }
}
