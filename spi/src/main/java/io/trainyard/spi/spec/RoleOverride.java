package io.trainyard.spi.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Per-role overrides of the spec's defaults. A null field keeps the default; {@code env} and {@code
 * secretEnv} are merged over the defaults' (keeping their order: Kubernetes expands {@code $(VAR)}
 * only from variables defined earlier); {@code kubernetes} is merged over the defaults' by
 * top-level podTemplate key (see {@link KubernetesOptions#over}).
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record RoleOverride(
    String image,
    List<String> command,
    List<String> args,
    Map<String, String> env,
    Map<String, SecretRef> secretEnv,
    Resources resources,
    RestartPolicy restartPolicy,
    KubernetesOptions kubernetes) {

  public static final RoleOverride NONE =
      new RoleOverride(null, null, null, null, null, null, null, null);

  public RoleOverride {
    command = command == null ? null : List.copyOf(command);
    args = args == null ? null : List.copyOf(args);
    env = env == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(env));
    secretEnv =
        secretEnv == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(secretEnv));
  }
}
