package io.trainyard.backend.kubernetes;

import static io.trainyard.backend.kubernetes.StatusConditions.conditions;
import static io.trainyard.backend.kubernetes.StatusConditions.instant;
import static io.trainyard.backend.kubernetes.StatusConditions.map;
import static io.trainyard.backend.kubernetes.StatusConditions.trueCondition;
import static io.trainyard.backend.kubernetes.StatusConditions.words;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.BackendStatus;
import java.time.Instant;
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

  /** This mapping as the v1 kinds' {@link JobStatusReader}. */
  static final JobStatusReader READER =
      new JobStatusReader() {
        @Override
        public BackendStatus of(GenericKubernetesResource job) {
          return OperatorStatus.of(job);
        }

        @Override
        public Instant waitingSince(GenericKubernetesResource job) {
          return OperatorStatus.waitingSince(job);
        }

        @Override
        public String restartingSince(GenericKubernetesResource job) {
          return OperatorStatus.restartingSince(job);
        }
      };

  private OperatorStatus() {}

  static BackendStatus of(GenericKubernetesResource job) {
    var status = StatusConditions.status(job);
    var conditions = conditions(status);
    var restarts = restarts(status, trueCondition(conditions, RESTARTING) != null);
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
    var suspended = trueCondition(conditions(StatusConditions.status(job)), SUSPENDED);
    return latest(job, suspended);
  }

  /** The creation time, or a suspension's start when that is later. */
  static Instant latest(GenericKubernetesResource job, Map<String, Object> suspended) {
    var created = instant(job.getMetadata().getCreationTimestamp());
    var since = StatusConditions.transition(suspended);
    if (created == null) {
      return since;
    }
    return since != null && since.isAfter(created) ? since : created;
  }

  /** When the {@code Restarting} condition that holds now turned true; null when none holds. */
  static String restartingSince(GenericKubernetesResource job) {
    var c = trueCondition(conditions(StatusConditions.status(job)), RESTARTING);
    if (c == null) {
      return null;
    }
    var at = c.get("lastTransitionTime");
    return at == null ? "unknown" : at.toString();
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
    return trueCondition(conditions, RESTARTING) != null ? instant(status.get("startTime")) : null;
  }

  private static int restarts(Map<String, Object> status, boolean restarting) {
    int failed = 0;
    for (var replica : map(status.get("replicaStatuses")).values()) {
      failed += StatusConditions.integer(map(replica).get("failed"));
    }
    return restarting ? Math.max(failed, 1) : failed;
  }
}
