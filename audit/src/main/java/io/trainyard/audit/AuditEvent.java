package io.trainyard.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One audit event: what {@code eventHash} covers. Its hashes live in {@link ChainedEvent}.
 *
 * <p>The canonical form, whose RFC 8785 bytes are hashed, always has the same eleven keys: {@code
 * seq, time, actor{subject, username, client, sourceIp, requestId}, action, resource, outcome,
 * team, backend, details}, with {@code null} for what is absent. {@code time} is truncated to
 * microseconds and written with exactly six fraction digits in UTC, because PostgreSQL keeps
 * microseconds: an event read back from the database must hash as it did when it was written.
 *
 * <p>{@code details} is a JSON object, copied in and out; secrets in it must already have gone
 * through {@link Redactor}. Money goes in as strings ({@code "12.40"}) and hashes as hex: RFC 8785
 * reads every number as a double.
 *
 * @param seq position in the chain, from 1, gap-free
 * @param action {@code area.verb} in lower case, see {@link AuditActions}
 * @param resource what it was done to, e.g. {@code job/0f9c...}
 * @param team the team the resource belongs to, or null
 * @param backend the backend involved, or null
 */
public record AuditEvent(
    long seq,
    Instant time,
    AuditActor actor,
    String action,
    String resource,
    Outcome outcome,
    String team,
    String backend,
    JsonNode details) {

  private static final Pattern ACTION = Pattern.compile("[a-z][a-z0-9_-]*(\\.[a-z][a-z0-9_-]*)+");
  private static final DateTimeFormatter TIME =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);
  private static final ObjectMapper MAPPER = new ObjectMapper();

  public AuditEvent {
    if (seq < 1) {
      throw new IllegalArgumentException("seq starts at 1: " + seq);
    }
    time = Objects.requireNonNull(time, "time").truncatedTo(ChronoUnit.MICROS);
    Objects.requireNonNull(actor, "actor");
    if (action == null || !ACTION.matcher(action).matches()) {
      throw new IllegalArgumentException("action must look like area.verb: " + action);
    }
    if (resource == null || resource.isBlank()) {
      throw new IllegalArgumentException("resource is required");
    }
    Objects.requireNonNull(outcome, "outcome");
    if (details == null || details.isNull()) {
      details = JsonNodeFactory.instance.objectNode();
    } else if (!details.isObject()) {
      throw new IllegalArgumentException("details must be a JSON object");
    } else {
      details = details.deepCopy();
    }
  }

  /**
   * A copy: the record's own tree is never handed out, so the event cannot change after hashing.
   */
  @Override
  public JsonNode details() {
    return details.deepCopy();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The canonical form's tree, without hashes. */
  public ObjectNode toTree() {
    var node = JsonNodeFactory.instance.objectNode();
    node.put("seq", seq);
    node.put("time", TIME.format(time));
    node.set("actor", actor.toTree());
    node.put("action", action);
    node.put("resource", resource);
    node.put("outcome", outcome.wireName());
    node.put("team", team);
    node.put("backend", backend);
    node.set("details", details.deepCopy());
    return node;
  }

  /**
   * Reads the form {@link #toTree()} writes; extra members such as the hashes are ignored.
   *
   * @throws IllegalArgumentException naming the first member that is missing or malformed
   */
  public static AuditEvent fromTree(JsonNode node) {
    if (node == null || !node.isObject()) {
      throw new IllegalArgumentException("an event is a JSON object");
    }
    return new AuditEvent(
        JsonFields.integer(node, "seq"),
        JsonFields.instant(node, "time"),
        AuditActor.fromTree(node.get("actor")),
        JsonFields.text(node, "action"),
        JsonFields.text(node, "resource"),
        Outcome.fromWireName(JsonFields.text(node, "outcome")),
        JsonFields.optionalText(node, "team"),
        JsonFields.optionalText(node, "backend"),
        node.get("details"));
  }

  /** Builds an event; {@code time} defaults to now. */
  public static final class Builder {
    private long seq;
    private Instant time;
    private AuditActor actor;
    private String action;
    private String resource;
    private Outcome outcome = Outcome.SUCCESS;
    private String team;
    private String backend;
    private JsonNode details;

    private Builder() {}

    public Builder seq(long seq) {
      this.seq = seq;
      return this;
    }

    public Builder time(Instant time) {
      this.time = time;
      return this;
    }

    public Builder actor(AuditActor actor) {
      this.actor = actor;
      return this;
    }

    public Builder action(String action) {
      this.action = action;
      return this;
    }

    public Builder resource(String resource) {
      this.resource = resource;
      return this;
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
      this.details = details;
      return this;
    }

    /** Details from plain maps, lists, strings, numbers and booleans (Jackson's tree model). */
    public Builder details(Map<String, ?> details) {
      this.details = MAPPER.valueToTree(details);
      return this;
    }

    public AuditEvent build() {
      return new AuditEvent(
          seq,
          time == null ? Instant.now() : time,
          actor,
          action,
          resource,
          outcome,
          team,
          backend,
          details);
    }
  }
}
