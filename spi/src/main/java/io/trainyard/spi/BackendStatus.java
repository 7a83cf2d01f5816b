package io.trainyard.spi;

import java.time.Instant;
import java.util.Objects;

/**
 * An attempt's status as the backend reports it.
 *
 * @param reason the backend's own words (a failure reason, the last log lines); null when none
 * @param restarts replica restarts so far
 * @param startedAt when it started running; null before
 * @param endedAt when it ended; null while live
 */
public record BackendStatus(
    BackendPhase phase, String reason, int restarts, Instant startedAt, Instant endedAt) {
  public BackendStatus {
    Objects.requireNonNull(phase, "phase");
  }
}
