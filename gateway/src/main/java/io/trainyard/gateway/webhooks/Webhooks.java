package io.trainyard.gateway.webhooks;

import io.trainyard.gateway.audit.AuditLog;
import io.trainyard.gateway.config.WebhooksConfig;
import io.trainyard.gateway.db.JobAudit;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Set;
import java.util.function.Supplier;
import org.jdbi.v3.core.Jdbi;

/** The completion events of one gateway replica, wired from {@code webhooks:}. */
public final class Webhooks {
  private final WebhookStore store;
  private final JobEvents events;
  private final WebhookAdmin admin;
  private final WebhookDispatcher dispatcher;
  private final Clock clock;

  /**
   * @param owner this replica's name in leases (the reconciler's)
   * @param adminPorts the gateway's admin ports, which receivers must not be
   * @param metrics the final metrics for completion events
   */
  public Webhooks(
      WebhooksConfig config,
      Jdbi jdbi,
      Path dataDir,
      String owner,
      Supplier<Set<Integer>> adminPorts,
      AuditLog audit,
      FinalMetrics metrics,
      Clock clock) {
    this.clock = clock;
    this.store = new WebhookStore(jdbi, clock);
    this.events = new JobEvents(config.getGatewayName(), metrics);
    var secrets = WebhookSecrets.load(config, dataDir);
    var policy = new ReceiverPolicy(config, adminPorts);
    this.admin = new WebhookAdmin(store, secrets, policy, audit);
    var random = new SecureRandom();
    var retries =
        new RetrySchedule(
            config.getMaxAttempts(),
            config.getMaxAge().toJavaDuration(),
            config.getInitialBackoff().toJavaDuration(),
            config.getMaxBackoff().toJavaDuration(),
            random::nextDouble);
    this.dispatcher =
        new WebhookDispatcher(
            store,
            secrets,
            policy,
            retries,
            new WebhookDispatcher.Settings(
                owner,
                config.getLease().toJavaDuration(),
                config.getPollInterval().toJavaDuration(),
                config.getBatchSize(),
                config.getConnectTimeout().toJavaDuration(),
                config.getReadTimeout().toJavaDuration()));
  }

  /** The job audit that also writes completion events, in the same transaction. */
  public JobAudit decorate(JobAudit audit) {
    return new WebhookOutbox(audit, store, events, dispatcher::wakeUp, clock);
  }

  public WebhookStore store() {
    return store;
  }

  public WebhookAdmin admin() {
    return admin;
  }

  /** Managed: delivers the outbox in the background. */
  public WebhookDispatcher dispatcher() {
    return dispatcher;
  }
}
