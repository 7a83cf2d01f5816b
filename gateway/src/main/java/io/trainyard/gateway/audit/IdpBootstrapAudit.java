package io.trainyard.gateway.audit;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.trainyard.audit.AuditActions;
import io.trainyard.audit.AuditActor;
import io.trainyard.audit.Redactor;
import java.time.Instant;
import java.util.Map;

/**
 * The hook the {@code bootstrap-idp} command calls after it set up the identity provider: one
 * {@code idp.bootstrap} event naming the realm and what was created. A command runs outside the
 * server, so it writes through its own {@link AuditLog} on the gateway's database:
 *
 * <pre>
 *   var log = new AuditLog(jdbi, new AuditChainHead(), true);
 *   log.record(IdpBootstrapAudit.entry(now, actor, issuer, created, redactor));
 * </pre>
 *
 * Anything secret the command made (a client secret) goes through the redactor, so only its HMAC is
 * kept.
 */
public final class IdpBootstrapAudit {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private IdpBootstrapAudit() {}

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
