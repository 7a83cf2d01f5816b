package io.trainyard.gateway.queue;

import java.time.Instant;
import java.util.Objects;

/**
 * A QUEUED job as the queue orders it.
 *
 * @param priority {@code spec.priority} as the team's {@code maxPriority} caps it
 * @param gpus GPUs the job holds once placed (every replica of every role)
 * @param reason why it waits, as last stored on the job
 */
public record QueuedJob(
    String id,
    String team,
    String name,
    int priority,
    int gpus,
    Instant createdAt,
    String reason,
    boolean cancelRequested) {
  public QueuedJob {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(team, "team");
    Objects.requireNonNull(createdAt, "createdAt");
  }
}
