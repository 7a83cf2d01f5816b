package io.trainyard.spi.spec;

import java.util.List;

/**
 * Checks {@code spec.elastic}: bounds, the user's own rendezvous store ({@code rdzvHost}, {@code
 * rdzvPort}, {@code rdzvId}, {@code rdzvConf}, which torchrun joins as {@code key=value,...}) and
 * the autoscaler's {@code metrics}, which are passed through unread but must each name a type. Part
 * of {@link JobSpecValidator}; stateless.
 */
final class ElasticValidator {
  private ElasticValidator() {}

  static void check(JobSpec spec, List<FieldError> errors) {
    var e = spec.elastic();
    if (e == null) {
      return;
    }
    if (spec.framework() != Framework.PYTORCH) {
      errors.add(new FieldError("spec.elastic", "is only for pytorch jobs"));
    }
    positive("spec.elastic.minReplicas", e.minReplicas(), errors);
    positive("spec.elastic.maxReplicas", e.maxReplicas(), errors);
    if (e.minReplicas() != null && e.maxReplicas() != null && e.minReplicas() > e.maxReplicas()) {
      errors.add(new FieldError("spec.elastic.minReplicas", "must not exceed maxReplicas"));
    }
    if (e.maxRestarts() != null && e.maxRestarts() < 0) {
      errors.add(new FieldError("spec.elastic.maxRestarts", "must be 0 or more"));
    }
    if (e.rdzvBackend() != null && e.rdzvBackend().isBlank()) {
      errors.add(new FieldError("spec.elastic.rdzvBackend", "must not be empty"));
    }
    if (e.rdzvHost() != null
        && !e.rdzvHost().matches("[A-Za-z0-9][A-Za-z0-9.-]{0,252}|\\[[0-9A-Fa-f:.]+]")) {
      errors.add(
          new FieldError("spec.elastic.rdzvHost", "must be a host name or IP address, no port"));
    }
    if (e.rdzvPort() != null && (e.rdzvPort() < 1 || e.rdzvPort() > 65535)) {
      errors.add(new FieldError("spec.elastic.rdzvPort", "must be a port, 1 to 65535"));
    }
    if (e.rdzvId() != null && e.rdzvId().isBlank()) {
      errors.add(new FieldError("spec.elastic.rdzvId", "must not be empty"));
    }
    if (e.rdzvConf() != null) {
      e.rdzvConf()
          .forEach(
              (key, value) -> {
                if (key == null || key.isBlank() || key.contains(",") || key.contains("=")) {
                  errors.add(
                      new FieldError(
                          "spec.elastic.rdzvConf", "keys must be set, without ',' or '='"));
                } else if (value == null || value.contains(",")) {
                  errors.add(
                      new FieldError(
                          "spec.elastic.rdzvConf." + key,
                          "must be a value without ',' (torchrun splits --rdzv-conf on it)"));
                }
              });
    }
    if (e.metrics() != null) {
      for (int i = 0; i < e.metrics().size(); i++) {
        var metric = e.metrics().get(i);
        if (metric == null || !(metric.get("type") instanceof String)) {
          errors.add(
              new FieldError(
                  "spec.elastic.metrics[" + i + "]",
                  "must be a HorizontalPodAutoscaler metric with a type (Resource, Pods, ...)"));
        }
      }
      if (e.maxReplicas() == null) {
        errors.add(
            new FieldError(
                "spec.elastic.maxReplicas", "is required with metrics: the autoscaler's bound"));
      }
    }
  }

  private static void positive(String at, Integer value, List<FieldError> errors) {
    if (value != null && value < 1) {
      errors.add(new FieldError(at, "must be at least 1"));
    }
  }
}
