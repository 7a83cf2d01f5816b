package io.trainyard.backend.local;

import io.trainyard.spi.spec.RestartPolicy;
import io.trainyard.spi.spec.SecretRef;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How to start one replica, fixed at submit so a restart (even by a later gateway) starts it the
 * same way, on the same ports. Holds secret references, never secret values.
 *
 * @param name {@code <role>-<index>}
 * @param rank the global rank, in {@code roleSpecs()} order
 * @param command the role's command followed by its args
 * @param env every variable but the secret ones
 */
record ReplicaPlan(
    String name,
    String role,
    int index,
    int rank,
    List<String> command,
    Map<String, String> env,
    Map<String, SecretRef> secretEnv,
    RestartPolicy restartPolicy) {
  ReplicaPlan {
    Objects.requireNonNull(name, "name");
    command = List.copyOf(command);
    env = Collections.unmodifiableMap(new LinkedHashMap<>(env)); // stays readable in plan.json
    secretEnv = secretEnv == null ? Map.of() : Map.copyOf(secretEnv);
    Objects.requireNonNull(restartPolicy, "restartPolicy");
  }
}
