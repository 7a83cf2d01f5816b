package io.trainyard.gateway;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.node.TextNode;
import io.dropwizard.core.Configuration;
import io.dropwizard.logging.common.DefaultLoggingFactory;
import io.trainyard.gateway.config.AuditConfig;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.config.BackendHealthConfig;
import io.trainyard.gateway.config.CallerRequestConfig;
import io.trainyard.gateway.config.DashboardConfig;
import io.trainyard.gateway.config.DatabaseConfig;
import io.trainyard.gateway.config.GatewayConfig;
import io.trainyard.gateway.config.LogArchiveConfig;
import io.trainyard.gateway.config.LogFollowConfig;
import io.trainyard.gateway.config.MetricsConfig;
import io.trainyard.gateway.config.PricingConfig;
import io.trainyard.gateway.config.ReconcilerConfig;
import io.trainyard.gateway.config.RequestBodyConfig;
import io.trainyard.gateway.config.RoutingConfig;
import io.trainyard.gateway.config.TeamConfig;
import io.trainyard.gateway.config.TracingConfig;
import io.trainyard.gateway.config.WebhooksConfig;
import io.trainyard.spi.BackendConfig;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The gateway's configuration (Dropwizard YAML with {@code ${ENV:-default}} substitution). Every
 * field has a default so the gateway starts without a file; see DESIGN.md "Configuration".
 */
public class TrainyardConfiguration extends Configuration {
  @Valid @NotNull private DatabaseConfig database = new DatabaseConfig();
  @Valid @NotNull private AuthConfig auth = new AuthConfig();
  @NotNull private Map<String, TeamConfig> teams = new LinkedHashMap<>();
  @NotNull private List<BackendConfig> backends = new ArrayList<>();
  @Valid @NotNull private ReconcilerConfig reconciler = new ReconcilerConfig();
  @Valid @NotNull private PricingConfig pricing = new PricingConfig();
  @Valid @NotNull private RoutingConfig routing = new RoutingConfig();
  @Valid @NotNull private AuditConfig audit = new AuditConfig();
  @Valid @NotNull private LogArchiveConfig logArchive = new LogArchiveConfig();
  @Valid @NotNull private BackendHealthConfig backendHealth = new BackendHealthConfig();
  @Valid @NotNull private LogFollowConfig logFollow = new LogFollowConfig();
  @Valid @NotNull private RequestBodyConfig requestBodies = new RequestBodyConfig();
  @Valid @NotNull private CallerRequestConfig callerRequests = new CallerRequestConfig();
  @Valid @NotNull private WebhooksConfig webhooks = new WebhooksConfig();
  @Valid @NotNull private MetricsConfig metrics = new MetricsConfig();
  @Valid @NotNull private TracingConfig tracing = new TracingConfig();
  @Valid @NotNull private GatewayConfig gateway = new GatewayConfig();

  @Valid @NotNull private DashboardConfig dashboard = new DashboardConfig();

  @NotNull private String dataDir = "data";

  @NotNull
  @DecimalMin(value = "0", inclusive = false)
  private BigDecimal defaultEstimatedHours = BigDecimal.ONE;

  @Min(1024)
  private int maxSpecBytes = 1 << 20;

  @JsonIgnore private boolean zeroConfig;

  public TrainyardConfiguration() {
    // Liquibase narrates every migration at INFO; operators need only its warnings. fabric8's
    // HTTP logger writes request headers at TRACE, bearer tokens included: never below INFO.
    if (getLoggingFactory() instanceof DefaultLoggingFactory logging) {
      logging.setLoggers(
          Map.of(
              "liquibase",
              TextNode.valueOf("WARN"),
              "io.fabric8.kubernetes.client.http.HttpLoggingInterceptor",
              TextNode.valueOf("INFO")));
    }
  }

  @JsonProperty
  public DatabaseConfig getDatabase() {
    return database;
  }

  @JsonProperty
  public void setDatabase(DatabaseConfig database) {
    this.database = database;
  }

  @JsonProperty
  public AuthConfig getAuth() {
    return auth;
  }

  @JsonProperty
  public void setAuth(AuthConfig auth) {
    this.auth = auth;
  }

  @JsonProperty
  public Map<String, TeamConfig> getTeams() {
    return teams;
  }

  @JsonProperty
  public void setTeams(Map<String, TeamConfig> teams) {
    this.teams = teams;
  }

  @JsonProperty
  public List<BackendConfig> getBackends() {
    return backends;
  }

  @JsonProperty
  public void setBackends(List<BackendConfig> backends) {
    this.backends = backends;
  }

  @JsonProperty
  public ReconcilerConfig getReconciler() {
    return reconciler;
  }

  @JsonProperty
  public void setReconciler(ReconcilerConfig reconciler) {
    this.reconciler = reconciler;
  }

  @JsonProperty
  public PricingConfig getPricing() {
    return pricing;
  }

  @JsonProperty
  public void setPricing(PricingConfig pricing) {
    this.pricing = pricing;
  }

  @JsonProperty
  public LogArchiveConfig getLogArchive() {
    return logArchive;
  }

  @JsonProperty
  public void setLogArchive(LogArchiveConfig logArchive) {
    this.logArchive = logArchive;
  }

  @JsonProperty
  public BackendHealthConfig getBackendHealth() {
    return backendHealth;
  }

  @JsonProperty
  public void setBackendHealth(BackendHealthConfig backendHealth) {
    this.backendHealth = backendHealth;
  }

  @JsonProperty
  public WebhooksConfig getWebhooks() {
    return webhooks;
  }

  @JsonProperty
  public void setWebhooks(WebhooksConfig webhooks) {
    this.webhooks = webhooks;
  }

  @JsonProperty
  public CallerRequestConfig getCallerRequests() {
    return callerRequests;
  }

  public void setCallerRequests(CallerRequestConfig callerRequests) {
    this.callerRequests = callerRequests;
  }

  public RequestBodyConfig getRequestBodies() {
    return requestBodies;
  }

  @JsonProperty
  public void setRequestBodies(RequestBodyConfig requestBodies) {
    this.requestBodies = requestBodies;
  }

  @JsonProperty
  public LogFollowConfig getLogFollow() {
    return logFollow;
  }

  @JsonProperty
  public void setLogFollow(LogFollowConfig logFollow) {
    this.logFollow = logFollow;
  }

  /** Where jobs and browsers reach the gateway ({@code gateway.publicUrl}). */
  @JsonProperty
  public GatewayConfig getGateway() {
    return gateway;
  }

  @JsonProperty
  public void setGateway(GatewayConfig gateway) {
    this.gateway = gateway;
  }

  /** The dashboard at {@code GET /} and how it signs in. */
  @JsonProperty
  public DashboardConfig getDashboard() {
    return dashboard;
  }

  @JsonProperty
  public void setDashboard(DashboardConfig dashboard) {
    this.dashboard = dashboard;
  }

  @JsonProperty
  public MetricsConfig getMetrics() {
    return metrics;
  }

  @JsonProperty
  public TracingConfig getTracing() {
    return tracing;
  }

  @JsonProperty
  public void setTracing(TracingConfig tracing) {
    this.tracing = tracing;
  }

  @JsonProperty
  public void setMetrics(MetricsConfig metrics) {
    this.metrics = metrics;
  }

  @JsonProperty
  public AuditConfig getAudit() {
    return audit;
  }

  @JsonProperty
  public void setAudit(AuditConfig audit) {
    this.audit = audit;
  }

  @JsonProperty
  public String getDataDir() {
    return dataDir;
  }

  @JsonProperty
  public void setDataDir(String dataDir) {
    this.dataDir = dataDir;
  }

  public Path dataPath() {
    return Path.of(dataDir);
  }

  /** Whole-job cost estimates: spot interruption rates per backend (issue 20). */
  @JsonProperty
  public RoutingConfig getRouting() {
    return routing;
  }

  @JsonProperty
  public void setRouting(RoutingConfig routing) {
    this.routing = routing;
  }

  /** Hours used for a job's cost estimate when its spec does not say. */
  @JsonProperty
  public BigDecimal getDefaultEstimatedHours() {
    return defaultEstimatedHours;
  }

  @JsonProperty
  public void setDefaultEstimatedHours(BigDecimal defaultEstimatedHours) {
    this.defaultEstimatedHours = defaultEstimatedHours;
  }

  /** The largest job document accepted; larger bodies are refused before parsing. */
  @JsonProperty
  public int getMaxSpecBytes() {
    return maxSpecBytes;
  }

  @JsonProperty
  public void setMaxSpecBytes(int maxSpecBytes) {
    this.maxSpecBytes = maxSpecBytes;
  }

  /** True when the gateway was started without a configuration file. */
  public boolean isZeroConfig() {
    return zeroConfig;
  }

  void markZeroConfig() {
    markZeroConfig(false);
  }

  /**
   * @param authModeGiven a {@code dw.auth.mode} override asked for a mode: it is kept (with oidc,
   *     the issuer is then required as with a file) instead of being silently turned into dev
   */
  void markZeroConfig(boolean authModeGiven) {
    zeroConfig = true;
    if (!authModeGiven) {
      auth.setMode(AuthConfig.Mode.DEV);
    }
  }
}
