package io.trainyard.gateway.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.lifecycle.Managed;
import io.trainyard.audit.AuditActions;
import io.trainyard.audit.AuditExporter;
import io.trainyard.audit.BackgroundBlobSink;
import io.trainyard.audit.BlobSink;
import io.trainyard.audit.DigestPolicy;
import io.trainyard.audit.Redactor;
import io.trainyard.gateway.config.AuditConfig;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jdbi.v3.core.Jdbi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The audit trail of one gateway replica, wired from {@code audit:}: the log every change writes
 * to, the job trail the store calls, the auth-failure counts, exports, and the background work
 * (digest signing, daily exports, flushing auth failures) that one replica at a time does under a
 * lease. As a {@link Managed} it audits the configuration's hash at start (refusing to start when
 * that cannot be written, with fail-closed) and flushes pending counts at stop.
 */
public final class GatewayAudit implements Managed {
  private static final Logger LOG = LoggerFactory.getLogger(GatewayAudit.class);
  private static final Duration SIGNER_LEASE = Duration.ofSeconds(30);
  private static final Duration EXPORT_LEASE = Duration.ofMinutes(30);
  private static final Duration TICK = Duration.ofSeconds(5);

  private final AuditKeys keys;
  private final AuditLog log;
  private final AuditStore store;
  private final JobAuditTrail jobs;
  private final AuthFailureCounts authFailures;
  private final BlobSink sink;
  private final AuditExports exports;
  private final DigestSigning digests;
  private final DailyExports daily;
  private final String configSha256;
  private final String owner;
  private final Clock clock;
  private ScheduledExecutorService scheduler;

  /**
   * @param config the gateway's whole configuration, hashed for the start event
   * @param owner this replica's name in leases (the reconciler's)
   */
  public GatewayAudit(
      AuditConfig audit,
      Object config,
      ObjectMapper mapper,
      AuditKeys keys,
      Jdbi jdbi,
      Path dataDir,
      String owner,
      Clock clock) {
    this.keys = keys;
    this.owner = owner;
    this.clock = clock;
    this.log = new AuditLog(jdbi, new AuditChainHead(), audit.isFailClosed());
    this.store = new AuditStore(jdbi);
    var redactor = new Redactor(keys.hmac());
    // secretEnv is validated to hold {secret, key} references: which secret a job used is evidence.
    this.jobs = new JobAuditTrail(log, new Redactor(keys.hmac(), Set.of("secretEnv")), clock);
    this.authFailures = new AuthFailureCounts(log, owner, clock);
    var sinkConfig = audit.getSink().toBlobSinkConfig(dataDir);
    // Opened in the background: an export, the first use, waits for it; a start does not.
    this.sink =
        BackgroundBlobSink.open(
            sinkConfig,
            e ->
                LOG.error(
                    "audit: the export sink cannot be opened (tried again at its next use)", e));
    var exporter =
        new AuditExporter(
            sink,
            keys.signer(),
            keys.previousKeys(),
            clock,
            dataDir.resolve("audit").resolve("tmp"));
    var sinkDescription =
        sinkConfig.provider() + ":" + sinkConfig.container() + "/" + sinkConfig.prefix();
    this.exports = new AuditExports(store, log, exporter, sinkDescription, clock);
    var leases = new AuditLeases(jdbi, clock);
    var policy =
        new DigestPolicy(audit.getDigestEveryEvents(), audit.getDigestEvery().toJavaDuration());
    this.digests =
        new DigestSigning(store, leases, keys.signer(), policy, owner, SIGNER_LEASE, clock);
    this.daily =
        audit.isDailyExport()
            ? new DailyExports(exports, store, leases, owner, EXPORT_LEASE, clock)
            : null;
    this.configSha256 = new ConfigFingerprint(mapper, redactor).sha256(config);
  }

  public AuditLog log() {
    return log;
  }

  public AuditStore store() {
    return store;
  }

  public JobAuditTrail jobs() {
    return jobs;
  }

  public AuthFailureCounts authFailures() {
    return authFailures;
  }

  public AuditExports exports() {
    return exports;
  }

  public DigestSigning digests() {
    return digests;
  }

  public AuditKeys keys() {
    return keys;
  }

  /** Where exports are written: read back for listing and download. */
  public BlobSink sink() {
    return sink;
  }

  public String configSha256() {
    return configSha256;
  }

  @Override
  public void start() {
    log.record(
        AuditEntry.builder(
                clock.instant(), AuditActors.GATEWAY, AuditActions.CONFIG_START, "config")
            .details(
                Map.of(
                    "configSha256", configSha256,
                    "replica", owner,
                    "signingKeyId", keys.signer().keyId()))
            .build());
    scheduler =
        Executors.newScheduledThreadPool(
            2,
            r -> {
              var thread = new Thread(r, "audit-" + owner);
              thread.setDaemon(true);
              return thread;
            });
    every(TICK, "flushing auth failures", () -> authFailures.flush(false));
    every(TICK, "signing a digest", digests::tick);
    if (daily != null) {
      every(Duration.ofMinutes(1), "the daily export", daily::tick);
    }
  }

  @Override
  public void stop() throws InterruptedException {
    if (scheduler != null) {
      scheduler.shutdownNow();
      scheduler.awaitTermination(10, TimeUnit.SECONDS);
    }
    authFailures.flush(true);
    sink.close();
  }

  private void every(Duration period, String what, Runnable task) {
    scheduler.scheduleWithFixedDelay(
        () -> {
          try {
            task.run();
          } catch (RuntimeException e) {
            // A database outage must not end the schedule; the next run retries.
            LOG.error("audit: {} failed; retrying in {}", what, period, e);
          }
        },
        period.toMillis(),
        period.toMillis(),
        TimeUnit.MILLISECONDS);
  }
}
