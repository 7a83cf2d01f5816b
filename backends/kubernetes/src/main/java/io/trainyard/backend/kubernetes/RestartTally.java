package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counts each live attempt's replica restarts over time. The operator's status shows only the
 * present: {@code replicaStatuses.failed} counts pods failed now and drops when they are replaced,
 * and {@code Restarting} is one condition that comes and goes. Every change the informer sees is
 * tallied here, so a restart counts even if it was over before anyone asked: restarts = the more of
 * the distinct times {@code Restarting} became true and the most failed pods seen at once. A
 * TrainJob has no {@code Restarting} condition: its count is the most failed child Jobs seen at
 * once ({@code jobsStatus[].failed}). In memory: a gateway restart starts again from what the
 * object shows. Thread-safe.
 */
final class RestartTally {
  private record Tally(Set<String> restartingSince, int mostFailed) {}

  private final Map<String, Tally> tallies = new ConcurrentHashMap<>();

  /**
   * Tallies what {@code job} shows now and returns the attempt's restarts so far.
   *
   * @param shownNow restarts as the object alone shows them ({@link JobStatusReader#of})
   */
  int observe(Attempt at, GenericKubernetesResource job, int shownNow) {
    var since = at.kind().status().restartingSince(job);
    var tally =
        tallies.compute(
            key(at),
            (k, old) -> {
              var times = old == null ? Set.<String>of() : old.restartingSince();
              if (since != null && !times.contains(since)) {
                var more = new java.util.HashSet<>(times);
                more.add(since);
                times = Set.copyOf(more);
              }
              var most = Math.max(old == null ? 0 : old.mostFailed(), shownNow);
              return new Tally(times, most);
            });
    return Math.max(tally.restartingSince().size(), tally.mostFailed());
  }

  void forget(Attempt at) {
    tallies.remove(key(at));
  }

  int size() {
    return tallies.size();
  }

  private static String key(Attempt at) {
    return at.namespace() + "/" + at.name();
  }
}
