package io.trainyard.backend.local;

import java.time.Instant;
import java.util.Objects;

/**
 * What the sandbox gave one attempt, written to {@code sandbox.json} before any replica starts so
 * that a later gateway keeps the same uid and network and cleans up after it.
 *
 * @param mode the sandbox the attempt's replicas run in (never {@code auto})
 * @param uid the attempt's own uid in the {@code users} sandbox; null otherwise
 * @param workDir the replicas' scratch directory ({@code TRAINYARD_ATTEMPT_DIR})
 * @param holderPid the process that keeps the attempt's network namespace; null before it starts
 *     and with {@code none}
 * @param holderStart the holder's start time, so a reused pid is not mistaken for it
 */
record SandboxLease(
    SandboxMode mode, Integer uid, String workDir, Long holderPid, Instant holderStart) {
  SandboxLease {
    Objects.requireNonNull(mode, "mode");
    Objects.requireNonNull(workDir, "workDir");
  }

  SandboxLease withHolder(long pid, Instant start) {
    return new SandboxLease(mode, uid, workDir, pid, start);
  }
}
