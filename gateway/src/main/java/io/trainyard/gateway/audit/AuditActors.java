package io.trainyard.gateway.audit;

import io.trainyard.audit.AuditActor;
import io.trainyard.gateway.auth.Caller;
import io.trainyard.gateway.errors.RequestIds;
import org.slf4j.MDC;

/**
 * Who an event names as its actor. A request's actor carries the request id that {@link RequestIds}
 * put in the log context, so an event, the log line and the error body lead to each other.
 */
public final class AuditActors {
  /** The reconciler, for changes it observed at a backend or decided itself. */
  public static final AuditActor RECONCILER = AuditActor.system("reconciler");

  /** The gateway process itself: start-up, scheduled exports, digests. */
  public static final AuditActor GATEWAY = AuditActor.system("gateway");

  private AuditActors() {}

  /** The authenticated caller of the current request. */
  public static AuditActor of(Caller caller) {
    var principal = caller.principal();
    return new AuditActor(
        principal.subject(),
        principal.username(),
        principal.client(),
        caller.sourceIp(),
        MDC.get(RequestIds.MDC_KEY));
  }

  /** A caller whose token was refused: only where the request came from is known. */
  public static AuditActor anonymous(String sourceIp) {
    return new AuditActor(null, null, null, sourceIp, null);
  }
}
