package io.trainyard.kubeflow;

import io.trainyard.spi.spec.FieldError;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A document that cannot be converted, with every reason at once. Each {@link FieldError#field()}
 * is the full path of the offending field in the submitted document (e.g. {@code
 * spec.tfReplicaSpecs.PS.template.spec.containers[0].lifecycle}); it is empty when the body as a
 * whole is the problem (not YAML, several documents).
 */
public final class KubeflowConversionException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  private final transient List<FieldError> errors;

  public KubeflowConversionException(List<FieldError> errors) {
    super(
        errors.stream()
            .map(e -> e.field().isEmpty() ? e.message() : e.field() + ": " + e.message())
            .collect(Collectors.joining("; ")));
    this.errors = List.copyOf(errors);
  }

  public List<FieldError> errors() {
    return errors;
  }
}
