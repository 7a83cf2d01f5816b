package io.trainyard.gateway;

import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.jsontype.NamedType;
import io.dropwizard.configuration.EnvironmentVariableSubstitutor;
import io.dropwizard.configuration.SubstitutingSourceProvider;
import io.dropwizard.core.Application;
import io.dropwizard.core.setup.Bootstrap;
import io.dropwizard.core.setup.Environment;
import io.dropwizard.jdbi3.JdbiFactory;
import io.dropwizard.lifecycle.AutoCloseableManager;
import io.dropwizard.lifecycle.ServerLifecycleListener;
import io.trainyard.audit.BackgroundBlobSink;
import io.trainyard.cost.PricingPlugins;
import io.trainyard.cost.Router;
import io.trainyard.cost.refresh.RefresherTypes;
import io.trainyard.gateway.algorithms.AlgorithmExpander;
import io.trainyard.gateway.algorithms.AlgorithmResolver;
import io.trainyard.gateway.algorithms.AlgorithmService;
import io.trainyard.gateway.audit.AuditChainHead;
import io.trainyard.gateway.audit.AuditKeys;
import io.trainyard.gateway.audit.AuditVerification;
import io.trainyard.gateway.audit.ExportCatalog;
import io.trainyard.gateway.audit.GatewayAudit;
import io.trainyard.gateway.auth.AccessFeature;
import io.trainyard.gateway.auth.AdminTasksOff;
import io.trainyard.gateway.auth.CallerConcurrency;
import io.trainyard.gateway.auth.SourceAddressFilter;
import io.trainyard.gateway.backends.BackendLoad;
import io.trainyard.gateway.backends.BackendRegistry;
import io.trainyard.gateway.cli.BootstrapIdpCommand;
import io.trainyard.gateway.cli.DevTokenCommand;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.db.AlgorithmStore;
import io.trainyard.gateway.db.DatabaseMigrator;
import io.trainyard.gateway.db.GroupCommit;
import io.trainyard.gateway.db.JobAlgorithms;
import io.trainyard.gateway.db.JobGauges;
import io.trainyard.gateway.db.JobRuns;
import io.trainyard.gateway.db.JobSearch;
import io.trainyard.gateway.db.JobStore;
import io.trainyard.gateway.db.MetricStore;
import io.trainyard.gateway.errors.ApiExceptionMapper;
import io.trainyard.gateway.errors.ContentEncodings;
import io.trainyard.gateway.errors.JsonErrorHandler;
import io.trainyard.gateway.errors.PlainDigits;
import io.trainyard.gateway.errors.QueryParameters;
import io.trainyard.gateway.errors.RequestIds;
import io.trainyard.gateway.errors.StrictParameters;
import io.trainyard.gateway.health.BackendHealthCheck;
import io.trainyard.gateway.health.ReadinessServlet;
import io.trainyard.gateway.http.SlowBodyFilter;
import io.trainyard.gateway.jobs.JobService;
import io.trainyard.gateway.jobs.SpecReader;
import io.trainyard.gateway.jobs.StoredJson;
import io.trainyard.gateway.jobs.TeamDirectory;
import io.trainyard.gateway.lifecycle.Draining;
import io.trainyard.gateway.logging.JobChangeLog;
import io.trainyard.gateway.logging.RedactingRequestLog;
import io.trainyard.gateway.metrics.GatewayMetrics;
import io.trainyard.gateway.metrics.LogMetrics;
import io.trainyard.gateway.metrics.MetricSeries;
import io.trainyard.gateway.metrics.MetricTokens;
import io.trainyard.gateway.metrics.MetricsEnvironment;
import io.trainyard.gateway.metrics.PublicUrl;
import io.trainyard.gateway.pricing.CatalogSources;
import io.trainyard.gateway.pricing.PriceRefreshSchedule;
import io.trainyard.gateway.pricing.PriceRefreshers;
import io.trainyard.gateway.queue.QueueDispatcher;
import io.trainyard.gateway.queue.QueueFacts;
import io.trainyard.gateway.queue.QueueStore;
import io.trainyard.gateway.queue.TeamQuotas;
import io.trainyard.gateway.reconcile.JobLogs;
import io.trainyard.gateway.reconcile.JobStepper;
import io.trainyard.gateway.reconcile.LogArchive;
import io.trainyard.gateway.reconcile.Reconciler;
import io.trainyard.gateway.reconcile.SubmitRetries;
import io.trainyard.gateway.resources.AlgorithmsResource;
import io.trainyard.gateway.resources.AuditResource;
import io.trainyard.gateway.resources.BackendsResource;
import io.trainyard.gateway.resources.DevIssuerResource;
import io.trainyard.gateway.resources.DevSignInResource;
import io.trainyard.gateway.resources.FollowLimits;
import io.trainyard.gateway.resources.JobDecisionResource;
import io.trainyard.gateway.resources.JobsResource;
import io.trainyard.gateway.resources.MetricsResource;
import io.trainyard.gateway.resources.OpenApiResource;
import io.trainyard.gateway.resources.QueueResource;
import io.trainyard.gateway.resources.QuotesResource;
import io.trainyard.gateway.resources.SpendResource;
import io.trainyard.gateway.resources.TeamsResource;
import io.trainyard.gateway.resources.WebhooksResource;
import io.trainyard.gateway.tracing.GatewayTracing;
import io.trainyard.gateway.ui.Dashboard;
import io.trainyard.gateway.webhooks.FinalMetrics;
import io.trainyard.gateway.webhooks.Webhooks;
import jakarta.servlet.DispatcherType;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import org.glassfish.jersey.server.ServerProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The gateway. Everything is wired here, by constructors, from the configuration; see DESIGN.md for
 * the rooms and the data flow.
 */
public final class TrainyardApplication extends Application<TrainyardConfiguration> {
  private static final Logger LOG = LoggerFactory.getLogger(TrainyardApplication.class);

  private final Clock clock;

  public TrainyardApplication() {
    this(Clock.systemUTC());
  }

  public TrainyardApplication(Clock clock) {
    this.clock = clock;
  }

  public static void main(String[] args) throws Exception {
    new TrainyardApplication().run(args);
  }

  @Override
  public String getName() {
    return "trainyard";
  }

  @Override
  public void initialize(Bootstrap<TrainyardConfiguration> bootstrap) {
    bootstrap.setConfigurationSourceProvider(
        new SubstitutingSourceProvider(
            bootstrap.getConfigurationSourceProvider(), new EnvironmentVariableSubstitutor(false)));
    // Without a file the factory's build() gives the defaults: zero-config mode.
    bootstrap.setConfigurationFactoryFactory(
        (klass, validator, mapper, prefix) ->
            new TrainyardConfigurationFactory(validator, mapper, prefix));
    bindPluginTypes(bootstrap.getObjectMapper());
    bootstrap.getObjectMapper().registerModule(PlainDigits.module());
    bootstrap.addCommand(new DevTokenCommand());
    bootstrap.addCommand(new BootstrapIdpCommand());
  }

  /**
   * Each backend module owns its config class, bound under the backend's kind; price refreshers
   * likewise, under their type. An unknown {@code type:} is then refused at start with the known
   * ones listed.
   */
  static void bindPluginTypes(com.fasterxml.jackson.databind.ObjectMapper mapper) {
    for (var factory : BackendRegistry.factories().values()) {
      mapper.registerSubtypes(new NamedType(factory.configClass(), factory.kind()));
    }
    for (var refresher : RefresherTypes.discover().all()) {
      mapper.registerSubtypes(new NamedType(refresher.configClass(), refresher.type()));
    }
  }

  @Override
  public void run(TrainyardConfiguration config, Environment environment) {
    // ISO-8601 instants in every answer, not epoch numbers.
    environment.getObjectMapper().disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    var startup = new StartupChecks(config, environment.getObjectMapper());
    startup.applyDefaults();
    // Tokens a client put in the query string (?access_token=) stay out of the access log.
    environment.lifecycle().addEventListener(RedactingRequestLog.installer());
    startup.refuseUnsafeDevMode();
    var dataDir = new DataDirectory(config.dataPath());
    dataDir.create();
    // The stores open after the start (issue 19), after the seals below: their directories in the
    // data directory are made now, so that they are sealed owner-only like the rest.
    for (var sink :
        java.util.List.of(config.getAudit().getSink(), config.getLogArchive().getSink())) {
      if ("filesystem".equals(sink.getProvider())
          && (sink.getBaseDir() == null || sink.getBaseDir().isBlank())
          && sink.getContainer() != null) {
        dataDir.subdirectory(sink.getContainer());
      }
    }
    // Traces (docs/observability.md): off, without tracing.otlp.endpoint, a no-op and no filter.
    var tracing = GatewayTracing.from(config.getTracing());
    tracing.registerWith(environment);
    // Dropwizard serves /tasks/log-level and /tasks/gc on the unauthenticated admin port.
    environment
        .admin()
        .addFilter("admin-tasks-off", new AdminTasksOff())
        .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, AdminTasksOff.PATH);

    var metrics = new GatewayMetrics();
    var dataSourceFactory = config.getDatabase().toDataSourceFactory(config.dataPath());
    var dataSource = dataSourceFactory.build(environment.metrics(), "database");
    metrics.servers().readPool(dataSource);
    var jdbi = new JdbiFactory().build(environment, dataSourceFactory, dataSource, "database");
    jdbi.setTemplateEngine(new io.trainyard.gateway.db.ParsedTemplates()); // issue 19: parse once
    new DatabaseMigrator().migrate(jdbi);
    dataDir.seal();
    environment.lifecycle().addServerLifecycleListener(server -> dataDir.seal());
    var devMode = config.getAuth().getMode() == AuthConfig.Mode.DEV;
    var reconcilerConfig = config.getReconciler();
    var owner = reconcilerConfig.getOwner() != null ? reconcilerConfig.getOwner() : defaultOwner();
    var audit = audit(config, environment, jdbi, owner, devMode);
    audit.log().onAppend(metrics.authAndAudit().auditListener());
    // Model metrics per epoch: posted by jobs with their own token, or read from their logs; their
    // last values go out with completion events.
    var metricStore = new MetricStore(jdbi);
    var webhooks = webhooks(config, environment, jdbi, owner, audit, finalMetrics(metricStore));
    var json = new StoredJson();
    // The queue (README "The queue"): ordering facts and quotas, in every job change's transaction.
    var queueStore = new QueueStore(jdbi, clock);
    var teams = new TeamDirectory(config.getTeams(), devMode);
    var groupCommit =
        config.getDatabase().isGroupCommit()
            ? new GroupCommit(jdbi, GroupCommit.MAX_BATCH, AuditChainHead.BATCHES)
            : null;
    if (groupCommit != null) {
      // Stopped after the server and before the pool (the lifecycle stops in reverse order).
      environment.lifecycle().manage(new AutoCloseableManager(groupCommit));
    }
    var store =
        new JobStore(
            jdbi,
            clock,
            new QueueFacts(
                JobChangeLog.logging(
                    metrics.observing(webhooks.decorate(new JobAlgorithms(audit.jobs())))),
                queueStore,
                teams,
                json),
            new TeamQuotas(teams, json),
            groupCommit);

    var prices = PricingPlugins.discover().priceBook(config.getPricing().getManagedPremiumPct());
    var backends =
        new BackendRegistry(
            config.getBackends(),
            prices.catalog(),
            config.dataPath(),
            clock,
            devMode,
            config.getBackendHealth().toSettings(),
            tracing);
    backends.decorate(metrics.backendCalls()::measuring);
    var refresh = config.getPricing().getRefresh();
    var refreshers = PriceRefreshers.from(refresh, clock);
    var priceSchedule =
        new PriceRefreshSchedule(prices, refreshers, refresh.every().toJavaDuration(), clock);
    environment.lifecycle().manage(priceSchedule);
    environment.healthChecks().register("prices", priceSchedule);
    environment.lifecycle().manage(backends);
    environment
        .admin()
        .addServlet("ready", new ReadinessServlet(environment.healthChecks()))
        .addMapping(ReadinessServlet.PATH);
    for (var entry : backends.all()) {
      environment
          .healthChecks()
          .register(
              "backend-" + entry.config().id(),
              new BackendHealthCheck(backends, entry.config().id()));
    }

    metrics.readDatabase(jdbi, teams::all, config.getMetrics(), clock);
    metrics.serveOn(environment.admin());
    environment.lifecycle().addServerLifecycleListener(metrics.servers()::serverStarted);
    var auth =
        new AuthSetup(
            config.getAuth(),
            config.getTeams(),
            config.dataPath(),
            teams,
            metrics.authAndAudit().jwksListener(),
            clock);
    auth.registerWith(environment);
    var router =
        new Router(prices, config.getDefaultEstimatedHours(), config.getRouting().estimator());
    var service =
        new JobService(router, backends, teams, store, json, clock)
            .withTracing(tracing)
            .withQuoteTimeout(config.getBackendHealth().getQuoteTimeout().toJavaDuration());
    var metricTokens = new MetricTokens(metricStore, clock);
    var logMetrics = new LogMetrics(metricStore, clock);
    var publicUrl = new PublicUrl(config.getGateway().getPublicUrl());
    environment
        .lifecycle()
        .addServerLifecycleListener(
            new ServerLifecycleListener() {
              @Override
              public void serverStarted(org.eclipse.jetty.server.Server server) {
                publicUrl.serverStarted(getLocalPort(server));
              }
            });
    var logArchive = logArchive(config, environment, logMetrics);
    var stepper =
        new JobStepper(
            store,
            backends,
            json,
            service::route,
            teams,
            logArchive,
            new SubmitRetries.Policy(
                reconcilerConfig.getSubmitTries(),
                reconcilerConfig.getSubmitRetryDelay().toJavaDuration(),
                reconcilerConfig.getSubmitRetryMaxDelay().toJavaDuration(),
                reconcilerConfig.getSubmitTimeout().toJavaDuration()),
            new MetricsEnvironment(metricTokens, publicUrl)::apply,
            clock);
    stepper.withTracing(tracing);
    var reconciler =
        new Reconciler(
            store,
            stepper,
            backends,
            new Reconciler.Settings(
                owner,
                reconcilerConfig.getLease().toJavaDuration(),
                reconcilerConfig.getResyncInterval().toJavaDuration(),
                reconcilerConfig.getBatchSize(),
                reconcilerConfig.isTargetedSteps()),
            clock);
    reconciler.withQueue(
        new QueueDispatcher(
            store,
            queueStore,
            service::route,
            teams,
            backends,
            json,
            prices::catalog,
            QueueDispatcher.REQUOTE_EVERY));
    reconciler.observedBy(metrics.reconciler());
    environment.lifecycle().manage(reconciler);
    var jobLogs = new JobLogs(store, backends, json, logArchive, logMetrics);
    // SIGTERM (README "Stopping a replica"): follows end, jobs are handed over at once.
    var draining =
        new Draining()
            .first("end log follows", () -> jobLogs.endFollows(Duration.ofSeconds(2)))
            .then("hand jobs over", reconciler::stop);
    environment.lifecycle().addEventListener(draining);
    environment.lifecycle().addServerLifecycleListener(draining);

    var jersey = environment.jersey();
    // Jersey holds back the first bytes of every answer to compute Content-Length, and a flush
    // does not release them; followed logs must reach the reader as they are written.
    jersey.property(ServerProperties.OUTBOUND_CONTENT_LENGTH_BUFFER, 0);
    // JSON answers are held instead, and sent whole with their length.
    jersey.register(new io.trainyard.gateway.http.SizedJsonAnswers());
    jersey.register(new RequestIds());
    jersey.register(metrics.http());
    jersey.register(new ApiExceptionMapper());
    jersey.register(new StrictParameters());
    jersey.register(new QueryParameters());
    // Errors Jetty answers itself (before Jersey, or on the admin port) in the same JSON shape.
    environment.getApplicationContext().setErrorHandler(new JsonErrorHandler());
    environment.getAdminContext().setErrorHandler(new JsonErrorHandler());
    environment
        .lifecycle()
        .addServerLifecycleListener(server -> server.setErrorHandler(new JsonErrorHandler()));
    var perCaller = config.getCallerRequests();
    var concurrency =
        new CallerConcurrency(perCaller.getMaxConcurrent(), perCaller.getRetryAfter().toSeconds());
    environment
        .servlets()
        .addFilter("caller-concurrency", concurrency)
        .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/*");
    jersey.register(new AccessFeature(auth.verifier()::verify, audit.authFailures(), concurrency));
    var reader =
        new SpecReader(config.getMaxSpecBytes(), SpecReader.runtimesOf(config.getBackends()))
            .withTracing(tracing);
    var algorithmStore = new AlgorithmStore(jdbi, audit.log());
    var algorithms = new AlgorithmExpander(new AlgorithmResolver(algorithmStore), teams);
    jersey.register(
        new AlgorithmsResource(
            new AlgorithmService(algorithmStore, teams, clock), reader, audit.authFailures()));
    jersey.register(
        new JobsResource(
            service,
            store,
            reader,
            jobLogs,
            reconciler::stepSoon,
            audit.log(),
            new FollowLimits(
                new FollowLimits.Settings(
                    config.getLogFollow().getMaxPerCaller(),
                    config.getLogFollow().getMaxTotal(),
                    config.getLogFollow().getMaxDuration().toJavaDuration(),
                    config.getLogFollow().getRetryAfter().toJavaDuration(),
                    config.getLogFollow().getHeartbeat().toJavaDuration())),
            audit.authFailures(),
            clock,
            algorithms,
            new JobSearch(jdbi)));
    jersey.register(
        new AuditResource(
            audit.store(),
            audit.exports(),
            audit.keys(),
            new ExportCatalog(audit.sink()),
            new AuditVerification(audit.store(), audit.keys(), clock)));
    jersey.register(new QuotesResource(service, reader, algorithms));
    jersey.register(new QueueResource(queueStore, teams, clock));
    jersey.register(
        new BackendsResource(
            backends,
            new BackendLoad(
                new JobGauges(jdbi),
                config.getMetrics(),
                prices,
                CatalogSources.describe(refreshers),
                clock)));
    jersey.register(new SpendResource(teams, new JobRuns(jdbi), clock));
    jersey.register(new TeamsResource(teams, store, clock));
    jersey.register(new WebhooksResource(webhooks.admin(), webhooks.store(), teams));
    var metricsResource =
        new MetricsResource(service, store, metricStore, metricTokens, audit.authFailures(), clock);
    jersey.register(metricsResource);
    jersey.register(new MetricsResource.Compare(metricsResource));
    jersey.register(new OpenApiResource());
    auth.devIssuer().ifPresent(issuer -> jersey.register(new DevIssuerResource(issuer)));
    jersey.register(new JobDecisionResource(service, json));
    // The dashboard at GET / (README "The dashboard"); in dev mode, its sign-in page.
    Dashboard.install(
            environment,
            config.getDashboard(),
            config.getAuth(),
            auth.devIssuer(),
            publicUrl,
            clock)
        .ifPresent(
            dashboard ->
                dashboard
                    .devSignIn()
                    .ifPresent(
                        signIn ->
                            jersey.register(
                                new DevSignInResource(
                                    signIn,
                                    dashboard.policy(),
                                    dashboard.stylesheet(),
                                    audit.log(),
                                    clock))));
  }

  /**
   * The audit trail, managed before everything that writes events so that the configuration's hash
   * is the first event of this replica's run.
   */
  private GatewayAudit audit(
      TrainyardConfiguration config,
      Environment environment,
      org.jdbi.v3.core.Jdbi jdbi,
      String owner,
      boolean devMode) {
    var audit =
        new GatewayAudit(
            config.getAudit(),
            config,
            environment.getObjectMapper(),
            AuditKeys.load(config.getAudit(), config.dataPath(), devMode),
            jdbi,
            config.dataPath(),
            owner,
            clock);
    environment.lifecycle().manage(audit);
    var bodies = config.getRequestBodies();
    environment
        .servlets()
        .addFilter(
            "slow-bodies",
            new SlowBodyFilter(bodies.getMinRate().toBytes(), bodies.getGrace().toJavaDuration()))
        .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/*");
    environment
        .servlets()
        .addFilter("content-encodings", new ContentEncodings())
        .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/*");
    // Jersey's filters see the caller's address only through this (see SourceAddressFilter).
    environment
        .servlets()
        .addFilter("source-address", new SourceAddressFilter())
        .addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), true, "/*");
    return audit;
  }

  /** Each metric's last value (by step, epoch, then time), for a job's completion event. */
  private static FinalMetrics finalMetrics(MetricStore store) {
    return jobId -> {
      var last = new LinkedHashMap<String, Double>();
      for (var series : MetricSeries.of(store.points(jobId, null), null)) {
        last.put(series.name(), series.last().value());
      }
      return last;
    };
  }

  /**
   * Completion events: their outbox decorates the job audit, their dispatcher runs in the
   * background, and receivers may never be this gateway's admin port.
   */
  private Webhooks webhooks(
      TrainyardConfiguration config,
      Environment environment,
      org.jdbi.v3.core.Jdbi jdbi,
      String owner,
      GatewayAudit audit,
      FinalMetrics finalMetrics) {
    var adminPorts = new CopyOnWriteArraySet<Integer>();
    if (config.getServerFactory()
        instanceof io.dropwizard.core.server.DefaultServerFactory server) {
      for (var connector : server.getAdminConnectors()) {
        if (connector instanceof io.dropwizard.jetty.HttpConnectorFactory http
            && http.getPort() > 0) {
          adminPorts.add(http.getPort());
        }
      }
    }
    environment
        .lifecycle()
        .addServerLifecycleListener(
            new io.dropwizard.lifecycle.ServerLifecycleListener() {
              @Override
              public void serverStarted(org.eclipse.jetty.server.Server server) {
                adminPorts.add(getAdminPort(server));
              }
            });
    var webhooks =
        new Webhooks(
            config.getWebhooks(),
            jdbi,
            config.dataPath(),
            owner,
            () -> adminPorts,
            audit.log(),
            finalMetrics,
            clock);
    environment.lifecycle().manage(webhooks.dispatcher());
    return webhooks;
  }

  /** The archive of ended attempts' logs, for backends that do not keep them. */
  private static LogArchive logArchive(
      TrainyardConfiguration config, Environment environment, LogMetrics metrics) {
    var settings = config.getLogArchive();
    // Opened in the background, as the audit export sink is: archiving, its first use, waits.
    var sink =
        BackgroundBlobSink.open(
            settings.getSink().toBlobSinkConfig(config.dataPath()),
            e ->
                LOG.error(
                    "the log archive's sink cannot be opened (tried again at its next use)", e));
    environment.lifecycle().manage(new AutoCloseableManager(sink));
    return new LogArchive(sink, settings.getMaxBytesPerAttempt().toBytes(), metrics);
  }

  private static String defaultOwner() {
    return ManagementFactory.getRuntimeMXBean().getName(); // pid@host
  }
}
