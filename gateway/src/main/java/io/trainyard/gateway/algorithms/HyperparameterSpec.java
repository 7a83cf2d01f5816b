package io.trainyard.gateway.algorithms;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.math.BigDecimal;
import java.util.List;

/**
 * One entry of an algorithm's hyperparameter schema.
 *
 * @param name the flag name the training code reads ({@code --name=value})
 * @param defaultValue filled in when a job does not set it (JSON {@code default})
 * @param min inclusive lower bound (int and float only)
 * @param max inclusive upper bound (int and float only)
 * @param values the allowed values of an {@code enum}
 * @param required a job must set it (or the schema give a default)
 */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record HyperparameterSpec(
    String name,
    HyperparameterType type,
    @com.fasterxml.jackson.annotation.JsonProperty("default") Object defaultValue,
    BigDecimal min,
    BigDecimal max,
    List<String> values,
    Boolean required,
    String description) {
  public HyperparameterSpec {
    values = values == null ? List.of() : List.copyOf(values);
  }

  @com.fasterxml.jackson.annotation.JsonIgnore
  public boolean isRequired() {
    return Boolean.TRUE.equals(required);
  }
}
