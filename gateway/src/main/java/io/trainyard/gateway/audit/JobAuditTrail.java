package io.trainyard.gateway.audit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainyard.audit.AuditActions;
import io.trainyard.audit.AuditActor;
import io.trainyard.audit.Outcome;
import io.trainyard.audit.Redactor;
import io.trainyard.gateway.db.JobAudit;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.gateway.db.StaleAttempts;
import io.trainyard.spi.JobState;
import java.math.BigDecimal;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jdbi.v3.core.Handle;

/**
 * Turns job changes into audit events: a submission into {@code job.submit} (the spec hash and the
 * spec, redacted), {@code job.route} (every candidate with its price or the reason it was rejected)
 * and {@code job.state}; a reconciler write into {@code job.state}, {@code backend.submit}, {@code
 * backend.failover} and {@code job.route} as the row changed; a cancel request into {@code
 * job.cancel}; a takeover into {@code backend.adopt}. Derived from the rows before and after, so
 * every change that goes through {@link io.trainyard.gateway.db.JobStore} is audited, whoever made
 * it. Thread-safe.
 */
public final class JobAuditTrail implements JobAudit {
  /** Money is read exactly and written as strings: RFC 8785 would read numbers as doubles. */
  private static final ObjectMapper EXACT =
      new ObjectMapper().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

  private final AuditLog log;
  private final Redactor redactor;
  private final Clock clock;

  /**
   * @param redactor applied to the spec; {@code secretEnv} should be exempt, as it holds validated
   *     references and auditors need to see which secret a job used
   */
  public JobAuditTrail(AuditLog log, Redactor redactor, Clock clock) {
    this.log = Objects.requireNonNull(log, "log");
    this.redactor = Objects.requireNonNull(redactor, "redactor");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public void submitted(Handle h, JobRow stored, AuditActor actor) {
    var submit = job(stored, actor, AuditActions.JOB_SUBMIT).details(submission(stored)).build();
    var route = job(stored, actor, AuditActions.JOB_ROUTE).details(route(stored)).build();
    var state = job(stored, actor, AuditActions.JOB_STATE).details(state(null, stored)).build();
    log.append(h, List.of(submit, route, state));
  }

  @Override
  public void refused(Handle h, JobRow attempted, AuditActor actor, String reason) {
    var submit = submission(attempted).put("stored", false).put("reason", reason);
    var route = route(attempted).put("stored", false);
    log.append(
        h,
        List.of(
            job(attempted, actor, AuditActions.JOB_SUBMIT)
                .outcome(Outcome.DENIED)
                .details(submit)
                .build(),
            job(attempted, actor, AuditActions.JOB_ROUTE)
                .outcome(Outcome.DENIED)
                .details(route)
                .build()));
  }

  @Override
  public void changed(Handle h, JobRow before, JobRow after, String replica) {
    var actor = AuditActors.RECONCILER;
    var entries = new ArrayList<AuditEntry>();
    if (!Objects.equals(before.decisionJson(), after.decisionJson())) {
      entries.add(
          job(after, actor, AuditActions.JOB_ROUTE)
              .details(route(after).put("replica", replica))
              .build());
    }
    if (after.attempt() > before.attempt() && after.decisionJson().equals(before.decisionJson())) {
      entries.add(failover(before, after, replica));
    }
    if (after.externalRefJson() != null
        && !after.externalRefJson().equals(before.externalRefJson())) {
      entries.add(backendSubmit(after, replica, Outcome.SUCCESS, null));
    } else if (refusedAtSubmit(before, after)) {
      entries.add(backendSubmit(before, replica, Outcome.FAILURE, after.reason()));
    }
    if (before.state() != after.state()) {
      entries.add(
          job(after, actor, AuditActions.JOB_STATE)
              .outcome(after.state() == JobState.FAILED ? Outcome.FAILURE : Outcome.SUCCESS)
              .details(state(before.state(), after).put("replica", replica))
              .build());
    }
    log.append(h, entries);
  }

  @Override
  public void cancelRequested(Handle h, JobRow job, AuditActor actor) {
    var details = JsonNodeFactory.instance.objectNode();
    details.put("name", job.name());
    details.put("state", job.state().name());
    log.append(h, List.of(job(job, actor, AuditActions.JOB_CANCEL).details(details).build()));
  }

  @Override
  public void adopted(Handle h, JobRow job, String previousReplica, String replica) {
    var details = JsonNodeFactory.instance.objectNode();
    details.put("previousReplica", previousReplica);
    details.put("replica", replica);
    details.put("state", job.state().name());
    details.put("attempt", job.attempt());
    details.set("ref", tree(job.externalRefJson()));
    log.append(
        h,
        List.of(
            job(job, AuditActors.RECONCILER, AuditActions.BACKEND_ADOPT).details(details).build()));
  }

  @Override
  public void attemptCleanedUp(Handle h, JobRow job, StaleAttempts.Cleanup cleanup) {
    var left = cleanup.left();
    var details = JsonNodeFactory.instance.objectNode();
    details.put("attempt", left.attempt());
    details.put("removed", cleanup.removed());
    details.put("message", cleanup.message());
    details.put("replica", cleanup.replica());
    log.append(
        h,
        List.of(
            AuditEntry.builder(
                    clock.instant(),
                    AuditActors.RECONCILER,
                    AuditActions.BACKEND_CLEANUP,
                    "job/" + job.id())
                .team(job.team())
                .backend(left.backendId())
                .outcome(cleanup.removed() ? Outcome.SUCCESS : Outcome.FAILURE)
                .details(details)
                .build()));
  }

  /** PENDING on a backend, then FAILED or QUEUED without an object: the backend said no. */
  private static boolean refusedAtSubmit(JobRow before, JobRow after) {
    return before.state() == JobState.PENDING
        && before.backendId() != null
        && after.externalRefJson() == null
        && (after.state() == JobState.FAILED || after.state() == JobState.QUEUED);
  }

  private AuditEntry failover(JobRow before, JobRow after, String replica) {
    var details = JsonNodeFactory.instance.objectNode();
    details.put("fromBackend", before.backendId());
    details.put("toBackend", after.backendId());
    details.put("fromAttempt", before.attempt());
    details.put("toAttempt", after.attempt());
    details.put("offerIndex", after.offerIndex());
    details.put("reason", after.reason());
    details.put("replica", replica);
    return job(after, AuditActors.RECONCILER, AuditActions.BACKEND_FAILOVER)
        .details(details)
        .build();
  }

  private AuditEntry backendSubmit(JobRow job, String replica, Outcome outcome, String reason) {
    var details = JsonNodeFactory.instance.objectNode();
    details.put("attempt", job.attempt());
    details.set("ref", tree(job.externalRefJson()));
    details.put("reason", reason);
    details.put("replica", replica);
    return job(job, AuditActors.RECONCILER, AuditActions.BACKEND_SUBMIT)
        .outcome(outcome)
        .details(details)
        .build();
  }

  private AuditEntry.Builder job(JobRow job, AuditActor actor, String action) {
    return AuditEntry.builder(clock.instant(), actor, action, "job/" + job.id())
        .team(job.team())
        .backend(job.backendId());
  }

  private ObjectNode submission(JobRow job) {
    var details = JsonNodeFactory.instance.objectNode();
    details.put("name", job.name());
    details.put("owner", job.ownerUsername());
    details.put("specHash", job.specHash());
    details.set("spec", redactor.redactObject(tree(job.specJson())));
    return details;
  }

  private ObjectNode route(JobRow job) {
    var details = JsonNodeFactory.instance.objectNode();
    details.put("chosen", job.backendId());
    details.put("offerIndex", job.offerIndex());
    details.put("hourlyUsd", money(job.hourlyUsd()));
    details.put("estimatedUsd", money(job.estimatedUsd()));
    details.set("decision", redactor.redact(moneyAsStrings(tree(job.decisionJson()))));
    return details;
  }

  private static ObjectNode state(JobState from, JobRow to) {
    var details = JsonNodeFactory.instance.objectNode();
    details.put("from", from == null ? null : from.name());
    details.put("to", to.state().name());
    details.put("attempt", to.attempt());
    details.put("reason", to.reason());
    return details;
  }

  private static String money(BigDecimal usd) {
    return usd == null ? null : usd.stripTrailingZeros().toPlainString();
  }

  private static JsonNode tree(String json) {
    if (json == null) {
      return JsonNodeFactory.instance.nullNode();
    }
    try {
      return EXACT.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a stored job document is not JSON", e);
    }
  }

  /** Every fraction in the tree as its exact decimal text. */
  static JsonNode moneyAsStrings(JsonNode node) {
    if (node.isObject()) {
      var copy = JsonNodeFactory.instance.objectNode();
      node.fields().forEachRemaining(f -> copy.set(f.getKey(), moneyAsStrings(f.getValue())));
      return copy;
    }
    if (node.isArray()) {
      ArrayNode copy = JsonNodeFactory.instance.arrayNode(node.size());
      node.forEach(element -> copy.add(moneyAsStrings(element)));
      return copy;
    }
    if (node.isNumber() && !node.isIntegralNumber()) {
      return JsonNodeFactory.instance.textNode(money(node.decimalValue()));
    }
    return node;
  }
}
