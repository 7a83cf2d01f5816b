package io.trainyard.backend.local;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Everything needed to run an attempt's replicas, written to the attempt directory at submit.
 *
 * @param replicas in rank order
 * @param maxRestarts replica restarts allowed in total, across replicas
 * @param maxRuntime the spec's text, e.g. {@code 30s}, quoted back in the failure reason; null when
 *     unset
 * @param hostfile the MPI hostfile's content; null for other frameworks
 * @param team whose job it is: secrets are read from the team's own directory
 */
record AttemptPlan(
    List<ReplicaPlan> replicas, int maxRestarts, String maxRuntime, String hostfile, String team) {
  AttemptPlan {
    replicas = List.copyOf(replicas);
  }

  Optional<Duration> maxRuntimeDuration() {
    return maxRuntime == null
        ? Optional.empty()
        : Optional.of(io.trainyard.spi.spec.Quantities.duration(maxRuntime));
  }

  Optional<ReplicaPlan> replica(String name) {
    return replicas.stream().filter(r -> r.name().equals(name)).findFirst();
  }
}
