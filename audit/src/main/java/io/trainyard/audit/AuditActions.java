package io.trainyard.audit;

/**
 * The actions the gateway records, by name. Actions are plain strings in records ({@code
 * area.verb}), so that a verifier or an older replica reads events a newer one wrote; these
 * constants keep the writers' spelling in one place.
 */
public final class AuditActions {
  public static final String AUTH_FAILURE = "auth.failure";

  /** A caller with a valid token asked for what none of its roles allows (403). */
  public static final String AUTH_DENIED = "auth.denied";

  public static final String JOB_SUBMIT = "job.submit";
  public static final String JOB_ROUTE = "job.route";
  public static final String JOB_STATE = "job.state";
  public static final String JOB_CANCEL = "job.cancel";
  public static final String JOB_LOGS = "job.logs";
  public static final String BACKEND_SUBMIT = "backend.submit";
  public static final String BACKEND_ADOPT = "backend.adopt";
  public static final String BACKEND_FAILOVER = "backend.failover";

  /** An attempt a job had left was cancelled on its backend (or given up on, as a failure). */
  public static final String BACKEND_CLEANUP = "backend.cleanup";

  public static final String AUDIT_EXPORT = "audit.export";
  public static final String AUDIT_GAP = "audit.gap";
  public static final String CONFIG_START = "config.start";
  public static final String IDP_BOOTSTRAP = "idp.bootstrap";

  /** A team's webhook was created or changed (never its secret, only whether it changed). */
  public static final String WEBHOOK_PUT = "webhook.put";

  public static final String WEBHOOK_DELETE = "webhook.delete";

  /** The algorithm registry: a new algorithm, a published version, and what moves afterwards. */
  public static final String ALGORITHM_CREATE = "algorithm.create";

  public static final String ALGORITHM_PUBLISH = "algorithm.publish";
  public static final String ALGORITHM_DEFAULT = "algorithm.default";
  public static final String ALGORITHM_STATUS = "algorithm.status";
  public static final String ALGORITHM_VISIBILITY = "algorithm.visibility";

  private AuditActions() {}
}
