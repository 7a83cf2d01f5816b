package io.trainyard.backend.local;

import io.trainyard.spi.BackendPhase;
import io.trainyard.spi.BackendStatus;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * An attempt's status as written to its directory after every change, so a later gateway (or a
 * second backend instance) picks up where this one left off.
 *
 * @param deadline when maxRuntime runs out; null without one or before the start
 * @param ending set while the replicas are being stopped: the phase and reason the attempt ends
 *     with once every process is gone
 * @param replicas by name, in rank order
 */
record AttemptState(
    BackendPhase phase,
    String reason,
    int restarts,
    Instant startedAt,
    Instant endedAt,
    Instant deadline,
    Ending ending,
    Map<String, ReplicaState> replicas) {

  /**
   * A decided end that waits for the processes to go.
   *
   * @param killAt when the survivors of SIGTERM get SIGKILL
   */
  record Ending(BackendPhase phase, String reason, Instant killAt) {}

  AttemptState {
    Objects.requireNonNull(phase, "phase");
    replicas = Collections.unmodifiableMap(new LinkedHashMap<>(replicas));
  }

  static AttemptState admitting(AttemptPlan plan) {
    var replicas = new LinkedHashMap<String, ReplicaState>();
    plan.replicas().forEach(r -> replicas.put(r.name(), ReplicaState.pending()));
    return new AttemptState(BackendPhase.ADMITTING, null, 0, null, null, null, null, replicas);
  }

  BackendStatus toStatus() {
    return new BackendStatus(phase, reason, restarts, startedAt, endedAt);
  }

  AttemptState withReplica(String name, ReplicaState replica) {
    var next = new LinkedHashMap<>(replicas);
    next.put(name, replica);
    return new AttemptState(phase, reason, restarts, startedAt, endedAt, deadline, ending, next);
  }

  AttemptState withRestart(String name) {
    var next = new LinkedHashMap<>(replicas);
    next.put(name, replicas.get(name).restarting());
    return new AttemptState(
        phase, reason, restarts + 1, startedAt, endedAt, deadline, ending, next);
  }

  AttemptState running(Instant at, Instant runUntil) {
    return new AttemptState(
        BackendPhase.RUNNING, reason, restarts, at, endedAt, runUntil, ending, replicas);
  }

  AttemptState ending(Ending end) {
    return new AttemptState(phase, reason, restarts, startedAt, endedAt, deadline, end, replicas);
  }

  AttemptState ended(BackendPhase end, String why, Instant at) {
    return new AttemptState(end, why, restarts, startedAt, at, deadline, null, replicas);
  }

  boolean allSucceeded() {
    return replicas.values().stream().allMatch(r -> r.phase() == ReplicaState.Phase.SUCCEEDED);
  }
}
