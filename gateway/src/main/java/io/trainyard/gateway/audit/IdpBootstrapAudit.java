package io.trainyard.gateway.audit;

import com.codahale.metrics.MetricRegistry;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dropwizard.db.ManagedDataSource;
import io.trainyard.audit.AuditActions;
import io.trainyard.audit.AuditActor;
import io.trainyard.audit.Redactor;
import io.trainyard.gateway.TrainyardConfiguration;
import io.trainyard.gateway.config.AuthConfig;
import io.trainyard.gateway.db.DatabaseMigrator;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import org.jdbi.v3.core.Jdbi;

/**
 * The {@code idp.bootstrap} event of the {@code bootstrap-idp} command: the realm and what was
 * created or changed. A command runs outside the server, so it writes through its own {@link
 * AuditLog} on the gateway's database, in the same chain. {@link #open} is called before the
 * identity provider is touched: without a writable audit log (keys, database) nothing is done (fail
 * closed). Anything secret the command made goes through the redactor, so only its HMAC is kept.
 */
public final class IdpBootstrapAudit implements AutoCloseable {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final ManagedDataSource dataSource;
  private final AuditLog log;
  private final Redactor redactor;
  private final Clock clock;

  private IdpBootstrapAudit(
      ManagedDataSource dataSource, AuditLog log, Redactor redactor, Clock clock) {
    this.dataSource = dataSource;
    this.log = log;
    this.redactor = redactor;
    this.clock = clock;
  }

  /**
   * The gateway's audit log as {@code config} configures it: its keys, its database (migrated to
   * the current schema if the gateway never ran).
   *
   * @throws IllegalStateException the keys are missing or the database cannot be reached
   */
  public static IdpBootstrapAudit open(
      TrainyardConfiguration config, MetricRegistry metrics, Clock clock) {
    var dev = config.getAuth().getMode() == AuthConfig.Mode.DEV;
    var keys = AuditKeys.load(config.getAudit(), config.dataPath(), dev);
    var dataSource =
        config.getDatabase().toDataSourceFactory(config.dataPath()).build(metrics, "audit");
    try {
      var jdbi = Jdbi.create(dataSource);
      new DatabaseMigrator().migrate(jdbi);
      return new IdpBootstrapAudit(
          dataSource,
          new AuditLog(jdbi, new AuditChainHead(), true),
          new Redactor(keys.hmac()),
          clock);
    } catch (RuntimeException e) {
      stop(dataSource);
      throw new IllegalStateException("the audit log cannot be written: " + e.getMessage(), e);
    }
  }

  /** Appends the event; throws when it cannot be written. */
  public void record(AuditActor actor, String issuer, Map<String, ?> created) {
    log.record(entry(clock.instant(), actor, issuer, created, redactor));
  }

  @Override
  public void close() {
    stop(dataSource);
  }

  private static void stop(ManagedDataSource dataSource) {
    try {
      dataSource.stop();
    } catch (Exception e) {
      // Closing a pool at the end of a command: nothing left to protect.
    }
  }

  /**
   * @param issuer the realm's issuer URL
   * @param created what the command created or updated: roles, groups, clients
   */
  public static AuditEntry entry(
      Instant time, AuditActor actor, String issuer, Map<String, ?> created, Redactor redactor) {
    var details = MAPPER.createObjectNode();
    details.put("issuer", issuer);
    details.set("created", MAPPER.valueToTree(created));
    return AuditEntry.builder(time, actor, AuditActions.IDP_BOOTSTRAP, "idp/" + issuer)
        .details(redactor.redactObject(details))
        .build();
  }
}
