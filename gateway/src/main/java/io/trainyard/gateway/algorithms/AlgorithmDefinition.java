package io.trainyard.gateway.algorithms;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.trainyard.spi.spec.Framework;
import io.trainyard.spi.spec.Resources;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one published version of an algorithm runs: the defaults a job naming it starts from, and
 * the schema its hyperparameters are checked against (in the order they become arguments).
 * Immutable once published.
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record AlgorithmDefinition(
    Framework framework,
    String image,
    List<String> command,
    List<String> args,
    Map<String, String> env,
    Resources resources,
    Map<String, Integer> replicas,
    List<HyperparameterSpec> hyperparameters,
    String description) {
  public AlgorithmDefinition {
    command = command == null ? List.of() : List.copyOf(command);
    args = args == null ? List.of() : List.copyOf(args);
    env = env == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(env));
    replicas =
        replicas == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(replicas));
    hyperparameters = hyperparameters == null ? List.of() : List.copyOf(hyperparameters);
  }
}
