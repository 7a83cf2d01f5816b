package io.trainyard.gateway.webhooks;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.trainyard.gateway.db.JobRow;
import io.trainyard.spi.JobState;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Job changes as CloudEvents 1.0 in structured mode (JSON): {@code type} is {@code
 * io.trainyard.job.<state>}, {@code subject} the job id, {@code data} what a deployment pipeline
 * needs (job, team, state, backend, cost, output URI, final metrics). Thread-safe.
 */
public final class JobEvents {
  public static final String TYPE_PREFIX = "io.trainyard.job.";
  public static final String CONTENT_TYPE = "application/cloudevents+json; charset=utf-8";

  /** What a webhook gets when it names no types: the ends of jobs. */
  public static final List<String> DEFAULT_TYPES =
      List.of(type(JobState.SUCCEEDED), type(JobState.FAILED), type(JobState.CANCELLED));

  private static final ObjectMapper JSON = new ObjectMapper();

  private final String source;
  private final FinalMetrics metrics;

  /**
   * @param gatewayName names the gateway in {@code source}: {@code /trainyard/<gatewayName>/jobs}
   */
  public JobEvents(String gatewayName, FinalMetrics metrics) {
    this.source = "/trainyard/" + Objects.requireNonNull(gatewayName, "gatewayName") + "/jobs";
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

  public static String type(JobState state) {
    return TYPE_PREFIX + state.name().toLowerCase(Locale.ROOT);
  }

  /** Every event type there is, one per job state. */
  public static Set<String> types() {
    var all = new LinkedHashSet<String>();
    for (var state : JobState.values()) {
      all.add(type(state));
    }
    return all;
  }

  public String source() {
    return source;
  }

  /** The event's JSON text: the exact body sent, and signed, on every attempt. */
  public String body(String eventId, JobState from, JobRow job, Instant time) {
    var event = JsonNodeFactory.instance.objectNode();
    event.put("specversion", "1.0");
    event.put("id", eventId);
    event.put("source", source);
    event.put("type", type(job.state()));
    event.put("subject", job.id());
    event.put("time", time.toString());
    event.put("datacontenttype", "application/json");
    event.set("data", data(from, job, time));
    try {
      return JSON.writeValueAsString(event);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("an event could not be written as JSON", e);
    }
  }

  private ObjectNode data(JobState from, JobRow job, Instant now) {
    var data = JsonNodeFactory.instance.objectNode();
    data.put("jobId", job.id());
    data.put("name", job.name());
    data.put("team", job.team());
    data.put("owner", job.ownerUsername());
    data.put("state", job.state().name());
    data.put("previousState", from == null ? null : from.name());
    data.put("attempt", job.attempt());
    data.put("backend", job.backendId());
    data.put("reason", job.reason());
    var cost = data.putObject("cost");
    cost.put("currency", "USD");
    cost.put("hourlyUsd", money(job.hourlyUsd()));
    cost.put("estimatedUsd", money(job.estimatedUsd()));
    cost.put("accruedUsd", money(accrued(job, now)));
    data.put("outputUri", outputUri(job.specJson()));
    data.put("createdAt", text(job.createdAt()));
    data.put("startedAt", text(job.startedAt()));
    data.put("endedAt", text(job.endedAt()));
    var finals = data.putObject("metrics");
    new TreeMap<>(metrics.of(job.id())).forEach(finals::put);
    return data;
  }

  /** What the job has cost so far: its hourly price over the time it ran. */
  static BigDecimal accrued(JobRow job, Instant now) {
    if (job.hourlyUsd() == null || job.startedAt() == null) {
      return job.hourlyUsd() == null ? null : BigDecimal.ZERO;
    }
    var end = job.endedAt() != null ? job.endedAt() : now;
    var millis = Math.max(0, Duration.between(job.startedAt(), end).toMillis());
    return job.hourlyUsd()
        .multiply(BigDecimal.valueOf(millis))
        .divide(BigDecimal.valueOf(3_600_000L), 6, RoundingMode.HALF_UP);
  }

  private static String outputUri(String specJson) {
    try {
      JsonNode uri = JSON.readTree(specJson).at("/spec/output/uri");
      return uri.isTextual() ? uri.asText() : null;
    } catch (JsonProcessingException e) {
      return null;
    }
  }

  /** Money as an exact decimal string, as the audit trail writes it. */
  private static String money(BigDecimal usd) {
    return usd == null ? null : usd.stripTrailingZeros().toPlainString();
  }

  private static String text(Instant t) {
    return t == null ? null : t.toString();
  }
}
