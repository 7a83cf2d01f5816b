package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.BackendStatus;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

/**
 * Reads a Kubeflow v1 job's {@code status} the way the training operator writes it ({@code
 * kubeflow.org/v1} {@code JobStatus}: {@code conditions[]} of type {@code Created}, {@code
 * Running}, {@code Restarting}, {@code Succeeded}, {@code Failed}, {@code Suspended}, each with
 * {@code status}, {@code reason}, {@code message}, {@code lastTransitionTime}; {@code
 * replicaStatuses.<Type>.{active, succeeded, failed}}; {@code startTime}, {@code completionTime}).
 * Pure.
 *
 * <p>Mapping, first match wins: {@code Failed} → FAILED and {@code Succeeded} → SUCCEEDED with the
 * operator's message as reason; an object being deleted → STOPPED; {@code Suspended} → SUSPENDED
 * (held by Kueue or suspended); {@code Running} or {@code Restarting} → RUNNING; else (only {@code
 * Created}, or no status yet) → ADMITTING. Restarts are the replicas' failed pods so far (the
 * operator restarts a failed replica's pod under OnFailure/ExitCode and counts it there), at least
 * 1 while {@code Restarting} holds.
 */
final class OperatorStatus {
  static final String CREATED = "Created";
  static final String RUNNING = "Running";
  static final String RESTARTING = "Restarting";
  static final String SUCCEEDED = "Succeeded";
  static final String FAILED = "Failed";
  static final String SUSPENDED = "Suspended";

  private OperatorStatus() {}

  static BackendStatus of(GenericKubernetesResource job) {
    var status = map(job.getAdditionalProperties().get("status"));
    var conditions = conditions(status);
    var restarts = restarts(status, isTrue(conditions, RESTARTING));
    var started = startedAt(status, conditions);
    for (var terminal : List.of(FAILED, SUCCEEDED)) {
      var c = trueCondition(conditions, terminal);
      if (c != null) {
        var phase = terminal.equals(FAILED) ? BackendPhase.FAILED : BackendPhase.SUCCEEDED;
        var ended = instant(status.get("completionTime"));
        return new BackendStatus(
            phase,
            words(c),
            restarts,
            started,
            ended != null ? ended : instant(c.get("lastTransitionTime")));
      }
    }
    if (job.getMetadata().getDeletionTimestamp() != null) {
      return new BackendStatus(
          BackendPhase.STOPPED,
          "deleted",
          restarts,
          started,
          instant(job.getMetadata().getDeletionTimestamp()));
    }
    var suspended = trueCondition(conditions, SUSPENDED);
    if (suspended != null) {
      return new BackendStatus(BackendPhase.SUSPENDED, words(suspended), restarts, started, null);
    }
    var running = trueCondition(conditions, RUNNING);
    var restarting = trueCondition(conditions, RESTARTING);
    if (running != null || restarting != null) {
      var latest = restarting != null ? restarting : running;
      return new BackendStatus(BackendPhase.RUNNING, words(latest), restarts, started, null);
    }
    var created = trueCondition(conditions, CREATED);
    return new BackendStatus(
        BackendPhase.ADMITTING, created == null ? null : words(created), restarts, null, null);
  }

  /**
   * Since when the attempt has been waiting to run: its creation, or the start of its latest
   * suspension when Kueue holds it again after preempting it. Read from the object, so it survives
   * a gateway restart.
   */
  static Instant waitingSince(GenericKubernetesResource job) {
    var created = instant(job.getMetadata().getCreationTimestamp());
    var status = map(job.getAdditionalProperties().get("status"));
    var suspended = trueCondition(conditions(status), SUSPENDED);
    var since = suspended == null ? null : instant(suspended.get("lastTransitionTime"));
    if (created == null) {
      return since;
    }
    return since != null && since.isAfter(created) ? since : created;
  }

  private static Instant startedAt(
      Map<String, Object> status, List<Map<String, Object>> conditions) {
    // Running's lastTransitionTime stays put when the operator sets it False at the end.
    for (var c : conditions) {
      if (RUNNING.equals(c.get("type"))) {
        var at = instant(c.get("lastTransitionTime"));
        if (at != null) {
          return at;
        }
      }
    }
    return isTrue(conditions, RESTARTING) ? instant(status.get("startTime")) : null;
  }

  private static int restarts(Map<String, Object> status, boolean restarting) {
    int failed = 0;
    for (var replica : map(status.get("replicaStatuses")).values()) {
      if (map(replica).get("failed") instanceof Number n) {
        failed += n.intValue();
      }
    }
    return restarting ? Math.max(failed, 1) : failed;
  }

  private static String words(Map<String, Object> condition) {
    var message = condition.get("message");
    if (message instanceof String s && !s.isBlank()) {
      return s;
    }
    return condition.get("reason") instanceof String r ? r : null;
  }

  private static boolean isTrue(List<Map<String, Object>> conditions, String type) {
    return trueCondition(conditions, type) != null;
  }

  private static Map<String, Object> trueCondition(
      List<Map<String, Object>> conditions, String type) {
    for (var c : conditions) {
      if (type.equals(c.get("type")) && "True".equals(c.get("status"))) {
        return c;
      }
    }
    return null;
  }

  private static List<Map<String, Object>> conditions(Map<String, Object> status) {
    if (!(status.get("conditions") instanceof List<?> list)) {
      return List.of();
    }
    return list.stream().map(OperatorStatus::map).toList();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object value) {
    return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  private static Instant instant(Object value) {
    if (!(value instanceof String s) || s.isBlank()) {
      return null;
    }
    try {
      return Instant.parse(s);
    } catch (DateTimeParseException e) {
      return null;
    }
  }
}
