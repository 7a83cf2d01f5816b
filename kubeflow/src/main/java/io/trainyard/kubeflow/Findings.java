package io.trainyard.kubeflow;

import io.trainyard.spi.spec.FieldError;
import java.util.ArrayList;
import java.util.List;

/** What one conversion refused and adjusted, collected so the user hears of everything at once. */
final class Findings {
  private final List<FieldError> errors = new ArrayList<>();
  private final List<String> warnings = new ArrayList<>();

  void refuse(String path, String message) {
    errors.add(new FieldError(path, message));
  }

  void warn(String path, String message) {
    warnings.add(path + ": " + message);
  }

  boolean hasErrors() {
    return !errors.isEmpty();
  }

  List<String> warnings() {
    return List.copyOf(warnings);
  }

  /** Throws when anything was refused. */
  void throwIfRefused() {
    if (!errors.isEmpty()) {
      throw new KubeflowConversionException(errors);
    }
  }
}
