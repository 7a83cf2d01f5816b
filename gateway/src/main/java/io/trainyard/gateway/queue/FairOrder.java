package io.trainyard.gateway.queue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * The order in which queued jobs are offered room: weighted fair share between teams, priority then
 * arrival inside a team. Pure; a new instance per pass (not thread-safe).
 *
 * <p>The rule: next is the head of the team with the lowest {@code placed jobs ÷ weight} among the
 * teams with queued jobs (a team's placed jobs are its PENDING, SUBMITTED, RUNNING and CANCELLING
 * ones, counting those placed earlier in the same pass); ties go to the team whose head has the
 * higher priority, then the older head, then the smaller job id. Inside a team: higher priority
 * first, then older, then smaller id. So a team with many queued jobs gets its share and no more
 * while another team waits, and a team with weight 2 gets twice the share of a team with weight 1.
 */
public final class FairOrder {
  /** Inside a team, and between heads of equal share. */
  public static final Comparator<QueuedJob> BY_PRIORITY_THEN_AGE =
      Comparator.comparingInt(QueuedJob::priority)
          .reversed()
          .thenComparing(QueuedJob::createdAt)
          .thenComparing(QueuedJob::id);

  private final Map<String, Deque<QueuedJob>> byTeam = new LinkedHashMap<>();
  private final Map<String, Integer> placed = new HashMap<>();
  private final ToIntFunction<String> weight;

  /**
   * @param queued the queued jobs, any order
   * @param placedJobs placed jobs per team now
   * @param weight each team's weight (at least 1)
   */
  public FairOrder(
      List<QueuedJob> queued, Map<String, Integer> placedJobs, ToIntFunction<String> weight) {
    var sorted = new ArrayList<>(queued);
    sorted.sort(BY_PRIORITY_THEN_AGE);
    for (var job : sorted) {
      byTeam.computeIfAbsent(job.team(), t -> new ArrayDeque<>()).add(job);
    }
    this.placed.putAll(placedJobs);
    this.weight = weight;
  }

  public boolean hasNext() {
    return !byTeam.isEmpty();
  }

  /** The next job to offer room; it leaves the order whether it is then placed or not. */
  public QueuedJob next() {
    String best = null;
    for (var team : byTeam.keySet()) {
      if (best == null || compareTeams(team, best) < 0) {
        best = team;
      }
    }
    var queue = byTeam.get(best);
    var job = queue.removeFirst();
    if (queue.isEmpty()) {
      byTeam.remove(best);
    }
    return job;
  }

  /** {@code job} (just returned by {@link #next}) was placed: its team's share grows. */
  public void placed(QueuedJob job) {
    placed.merge(job.team(), 1, Integer::sum);
  }

  /**
   * The whole order, as {@link #next} would give it if each job in turn were placed: the queue's
   * positions.
   */
  public List<QueuedJob> drain() {
    var order = new ArrayList<QueuedJob>();
    while (hasNext()) {
      var job = next();
      placed(job);
      order.add(job);
    }
    return order;
  }

  private int compareTeams(String a, String b) {
    // placed(a)/w(a) vs placed(b)/w(b), exactly: cross-multiplied.
    long left = (long) placed.getOrDefault(a, 0) * weightOf(b);
    long right = (long) placed.getOrDefault(b, 0) * weightOf(a);
    if (left != right) {
      return Long.compare(left, right);
    }
    return BY_PRIORITY_THEN_AGE.compare(byTeam.get(a).peekFirst(), byTeam.get(b).peekFirst());
  }

  private long weightOf(String team) {
    return Math.max(1, weight.applyAsInt(team));
  }
}
