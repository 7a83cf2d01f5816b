package io.trainyard.backend.local;

import java.time.Instant;

/**
 * Where one replica stands. The process is identified by pid and start time together, so a pid the
 * kernel reused for another process after a gateway restart is not mistaken for the replica.
 *
 * @param pid the replica's wrapper process; null before it first starts
 * @param exitCode of the last run; null while running or when it ended without recording one
 * @param restarts times this replica was restarted
 */
record ReplicaState(Long pid, Instant processStart, Phase phase, Integer exitCode, int restarts) {

  enum Phase {
    PENDING,
    RUNNING,
    SUCCEEDED,
    FAILED
  }

  static ReplicaState pending() {
    return new ReplicaState(null, null, Phase.PENDING, null, 0);
  }

  ReplicaState running(long newPid, Instant newStart) {
    return new ReplicaState(newPid, newStart, Phase.RUNNING, null, restarts);
  }

  ReplicaState ended(Phase endPhase, Integer code) {
    return new ReplicaState(pid, processStart, endPhase, code, restarts);
  }

  ReplicaState restarting() {
    return new ReplicaState(pid, processStart, Phase.PENDING, exitCode, restarts + 1);
  }
}
