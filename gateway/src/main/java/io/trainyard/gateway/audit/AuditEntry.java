package io.trainyard.gateway.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainyard.audit.AuditActor;
import io.trainyard.audit.AuditEvent;
import io.trainyard.audit.Outcome;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * An audit event before the chain has placed it: everything but {@code seq}, which only the
 * database can give out (see {@link AuditAppender}). Immutable; {@code details} must already have
 * been through the {@link io.trainyard.audit.Redactor}.
 */
public record AuditEntry(
    Instant time,
    AuditActor actor,
    String action,
    String resource,
    Outcome outcome,
    String team,
    String backend,
    ObjectNode details) {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  public AuditEntry {
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(actor, "actor");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(resource, "resource");
    Objects.requireNonNull(outcome, "outcome");
    details = details == null ? JsonNodeFactory.instance.objectNode() : details.deepCopy();
  }

  @Override
  public ObjectNode details() {
    return details.deepCopy();
  }

  /** The event at {@code seq}; checks the action and resource as every stored event is checked. */
  public AuditEvent at(long seq) {
    return new AuditEvent(seq, time, actor, action, resource, outcome, team, backend, details);
  }

  public static Builder builder(Instant time, AuditActor actor, String action, String resource) {
    return new Builder(time, actor, action, resource);
  }

  /** Collects the optional parts of an entry. */
  public static final class Builder {
    private final Instant time;
    private final AuditActor actor;
    private final String action;
    private final String resource;
    private Outcome outcome = Outcome.SUCCESS;
    private String team;
    private String backend;
    private ObjectNode details;

    private Builder(Instant time, AuditActor actor, String action, String resource) {
      this.time = time;
      this.actor = actor;
      this.action = action;
      this.resource = resource;
    }

    public Builder outcome(Outcome outcome) {
      this.outcome = outcome;
      return this;
    }

    public Builder team(String team) {
      this.team = team;
      return this;
    }

    public Builder backend(String backend) {
      this.backend = backend;
      return this;
    }

    public Builder details(JsonNode details) {
      if (details != null && !details.isObject()) {
        throw new IllegalArgumentException("details must be a JSON object");
      }
      this.details = (ObjectNode) details;
      return this;
    }

    /** Details from plain maps, lists, strings, numbers and booleans. */
    public Builder details(Map<String, ?> details) {
      this.details = MAPPER.valueToTree(details);
      return this;
    }

    public AuditEntry build() {
      return new AuditEntry(time, actor, action, resource, outcome, team, backend, details);
    }
  }
}
