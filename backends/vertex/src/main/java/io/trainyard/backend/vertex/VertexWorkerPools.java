package io.trainyard.backend.vertex;

import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.RoleSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * How a job's roles fill Vertex's worker pools, whose positions mean something: pool 0 is the chief
 * (exactly one replica), pool 1 the workers, pool 2 the parameter servers, pool 3 the evaluators.
 * The coordinator role ({@code master}, {@code chief}, {@code launcher}) takes pool 0; a job
 * without one gives its first worker to pool 0 and the other workers to pool 1. Positions left out
 * between used ones are empty pools, as Vertex requires.
 *
 * @param pools by position; null for an empty position
 */
record VertexWorkerPools(List<Pool> pools) {
  private static final int CHIEF = 0;
  private static final int WORKERS = 1;
  private static final int PARAMETER_SERVERS = 2;
  private static final int EVALUATORS = 3;
  private static final Pattern TASK = Pattern.compile("workerpool([0-9]{1,2})-([0-9]{1,6})");

  /**
   * Replicas of one role in one pool: our replica {@code <role>-<firstIndex + i>} is the pool's
   * task {@code i}.
   */
  record Pool(RoleSpec role, int replicas, int firstIndex) {}

  static VertexWorkerPools of(JobSpec spec) {
    var roles = spec.roleSpecs();
    var slots = new Pool[4];
    var coordinator =
        roles.stream().filter(r -> spec.framework().isSingleton(r.name())).findFirst();
    coordinator.ifPresent(r -> slots[CHIEF] = new Pool(r, 1, 0));
    var chiefFrom = coordinator.isPresent() ? null : firstWorker(roles);
    for (var role : roles) {
      if (coordinator.isPresent() && role == coordinator.get()) {
        continue;
      }
      var position = positionOf(role.name());
      if (role == chiefFrom) {
        slots[CHIEF] = new Pool(role, 1, 0);
        if (role.replicas() > 1) {
          slots[position] = new Pool(role, role.replicas() - 1, 1);
        }
      } else {
        slots[position] = new Pool(role, role.replicas(), 0);
      }
    }
    var last = slots.length - 1;
    while (last > 0 && slots[last] == null) {
      last--;
    }
    return new VertexWorkerPools(Arrays.asList(Arrays.copyOf(slots, last + 1)));
  }

  // A parameter server must not become the chief: prefer a worker.
  private static RoleSpec firstWorker(List<RoleSpec> roles) {
    return roles.stream().filter(r -> r.name().equals("worker")).findFirst().orElse(roles.get(0));
  }

  private static int positionOf(String role) {
    return switch (role) {
      case "ps" -> PARAMETER_SERVERS;
      case "evaluator" -> EVALUATORS;
      default -> WORKERS;
    };
  }

  /**
   * The pools as {@code role:replicas:firstIndex} by position, empty for an empty position ({@code
   * chief:1:0,,ps:2:0}): what the external reference keeps to name tasks without the spec.
   */
  String encode() {
    var parts = new ArrayList<String>();
    for (var pool : pools) {
      parts.add(
          pool == null ? "" : pool.role().name() + ":" + pool.replicas() + ":" + pool.firstIndex());
    }
    return String.join(",", parts);
  }

  /** Vertex's task name of a replica in pools {@link #encode() encoded} earlier. */
  static Optional<String> taskIn(String encoded, String replica) {
    if (encoded == null || encoded.isBlank()) {
      return Optional.empty();
    }
    var positions = encoded.split(",", -1);
    for (int p = 0; p < positions.length; p++) {
      if (positions[p].isEmpty()) {
        continue;
      }
      var f = positions[p].split(":");
      int replicas = Integer.parseInt(f[1]);
      int first = Integer.parseInt(f[2]);
      for (int i = 0; i < replicas; i++) {
        if (replica.equals(f[0] + "-" + (first + i))) {
          return Optional.of("workerpool" + p + "-" + i);
        }
      }
    }
    return Optional.empty();
  }

  /** Our replica name of Vertex's task ({@code workerpool<p>-<i>}) in pools encoded earlier. */
  static Optional<String> replicaOf(String encoded, String task) {
    var m = TASK.matcher(task);
    if (encoded == null || encoded.isBlank() || !m.matches()) {
      return Optional.empty();
    }
    var positions = encoded.split(",", -1);
    int p = Integer.parseInt(m.group(1));
    int i = Integer.parseInt(m.group(2));
    if (p >= positions.length || positions[p].isEmpty()) {
      return Optional.empty();
    }
    var f = positions[p].split(":");
    if (i >= Integer.parseInt(f[1])) {
      return Optional.empty();
    }
    return Optional.of(f[0] + "-" + (Integer.parseInt(f[2]) + i));
  }

  /** Whether {@code name} is a Vertex task name, {@code workerpool<p>-<i>}. */
  static boolean isTask(String name) {
    return TASK.matcher(name).matches();
  }

  /** Our replica names, pool by pool. */
  List<String> replicas() {
    var names = new ArrayList<String>();
    for (var pool : pools) {
      if (pool != null) {
        for (int i = 0; i < pool.replicas(); i++) {
          names.add(pool.role().name() + "-" + (pool.firstIndex() + i));
        }
      }
    }
    return names;
  }
}
