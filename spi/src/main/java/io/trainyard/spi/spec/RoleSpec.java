package io.trainyard.spi.spec;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One role of a job with the spec's defaults and the role's overrides already applied: what every
 * replica of this role runs. Backends render replicas from this, never from the raw spec.
 */
public record RoleSpec(
    String name,
    int replicas,
    String image,
    List<String> command,
    List<String> args,
    Map<String, String> env,
    Map<String, SecretRef> secretEnv,
    Resources resources,
    RestartPolicy restartPolicy) {

  public RoleSpec {
    Objects.requireNonNull(name, "name");
    command = List.copyOf(command);
    args = List.copyOf(args);
    env = Map.copyOf(env);
    secretEnv = Map.copyOf(secretEnv);
    Objects.requireNonNull(resources, "resources");
  }
}
