package io.trainyard.spi.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import java.util.Map;

/**
 * Per-role overrides of the spec's defaults. A null field keeps the default; {@code env} is merged
 * over the default env.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record RoleOverride(
    String image,
    List<String> command,
    List<String> args,
    Map<String, String> env,
    Resources resources,
    RestartPolicy restartPolicy) {

  public RoleOverride {
    command = command == null ? null : List.copyOf(command);
    args = args == null ? null : List.copyOf(args);
    env = env == null ? Map.of() : Map.copyOf(env);
  }
}
