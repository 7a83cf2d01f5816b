package io.trainyard.gateway.api;

import java.time.Instant;
import java.util.List;

/**
 * {@code GET /v1/queue}: the queued jobs the caller may see, in the order they would be offered
 * room (README "The queue").
 *
 * @param position 1 = next, counted over the whole queue (every team's jobs), so a team sees where
 *     its jobs stand
 * @param priority the priority the job is queued at ({@code spec.priority} capped by the team's
 *     {@code maxPriority})
 * @param reasons why it waits: per backend ("backend: reason"), or the quota or budget it is over
 */
public record QueueList(List<Entry> jobs) {
  public record Entry(
      int position,
      String id,
      String name,
      String team,
      int priority,
      Instant queuedAt,
      long ageSeconds,
      String reason,
      List<String> reasons) {}
}
