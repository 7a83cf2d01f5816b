package io.trainyard.gateway.algorithms;

import io.trainyard.spi.spec.FieldError;
import io.trainyard.spi.spec.InputLimits;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.JobSpecValidator;
import io.trainyard.spi.spec.ObjectMeta;
import io.trainyard.spi.spec.TrainingJob;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Says what is wrong with a version's definition before it is published, field by field: the job
 * fields it carries are checked by the job validator itself (as a job of those fields would be),
 * and its hyperparameter schema for names, types, ranges and defaults that fit them. Stateless.
 */
public final class AlgorithmDefinitionCheck {
  private static final String OUT_OF_RANGE =
      "is out of range: a number's magnitude must lie between 1e-"
          + InputLimits.MAX_EXPONENT
          + " and 1e"
          + InputLimits.MAX_EXPONENT;

  /** A name training code can take as {@code --name=value} (argparse, absl, click). */
  private static final Pattern HYPERPARAMETER_NAME =
      Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,63}");

  private static final int MAX_HYPERPARAMETERS = 200;
  private static final int MAX_DESCRIPTION = 4_096;

  private final JobSpecValidator validator = new JobSpecValidator();

  public List<FieldError> errors(AlgorithmDefinition d) {
    var errors = new ArrayList<FieldError>();
    if (d.framework() == null) {
      errors.add(new FieldError("framework", "is required"));
    }
    if (d.image() == null || d.image().isBlank()) {
      errors.add(new FieldError("image", "is required"));
    }
    if (errors.isEmpty()) {
      jobFields(d, errors);
    }
    hyperparameters(d.hyperparameters(), errors);
    if (d.description() != null
        && (d.description().length() > MAX_DESCRIPTION
            || d.description().chars().anyMatch(c -> c < 0x20 && c != '\n' && c != '\t'))) {
      // PostgreSQL TEXT refuses NUL; other control characters only hide text from people.
      errors.add(
          new FieldError(
              "description",
              "must be at most " + MAX_DESCRIPTION + " characters without control characters"));
    }
    return List.copyOf(errors);
  }

  private void jobFields(AlgorithmDefinition d, List<FieldError> errors) {
    // Without replicas of its own a definition leaves them to each job: probe with one replica.
    var replicas = d.replicas().isEmpty() ? Map.of(d.framework().roles().get(0), 1) : d.replicas();
    var probe =
        new TrainingJob(
            TrainingJob.API_VERSION,
            TrainingJob.KIND,
            new ObjectMeta("probe", null, null),
            new JobSpec(
                d.framework(),
                d.image(),
                d.command(),
                d.args(),
                d.env(),
                null,
                d.resources(),
                null,
                replicas,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null));
    for (var e : validator.validate(probe)) {
      errors.add(
          new FieldError(
              e.field().startsWith("spec.") ? e.field().substring(5) : e.field(), e.message()));
    }
  }

  private static void hyperparameters(List<HyperparameterSpec> schema, List<FieldError> errors) {
    if (schema.size() > MAX_HYPERPARAMETERS) {
      errors.add(new FieldError("hyperparameters", "at most " + MAX_HYPERPARAMETERS));
      return;
    }
    var names = new HashSet<String>();
    for (int i = 0; i < schema.size(); i++) {
      var at = "hyperparameters[" + i + "]";
      var h = schema.get(i);
      if (h.name() == null || !HYPERPARAMETER_NAME.matcher(h.name()).matches()) {
        errors.add(
            new FieldError(
                at + ".name",
                "must be a flag name: a letter or '_', then letters, digits, '_', '.' or '-'"
                    + " (at most 64)"));
      } else if (!names.add(h.name())) {
        errors.add(new FieldError(at + ".name", "is already used by another hyperparameter"));
      }
      if (h.type() == null) {
        errors.add(new FieldError(at + ".type", "is required: int, float, string, bool or enum"));
        continue;
      }
      var numeric = h.type() == HyperparameterType.INT || h.type() == HyperparameterType.FLOAT;
      if (!numeric && (h.min() != null || h.max() != null)) {
        errors.add(new FieldError(at, "min and max apply to int and float only"));
      }
      // A bound written as a string ("1e999999999") reaches here unchecked by the reader; the
      // default is not compared with it then (its message would spell the bound out).
      var boundsInRange = true;
      if (h.min() != null && !InputLimits.inRange(h.min())) {
        errors.add(new FieldError(at + ".min", OUT_OF_RANGE));
        boundsInRange = false;
      }
      if (h.max() != null && !InputLimits.inRange(h.max())) {
        errors.add(new FieldError(at + ".max", OUT_OF_RANGE));
        boundsInRange = false;
      }
      if (h.min() != null && h.max() != null && h.min().compareTo(h.max()) > 0) {
        errors.add(new FieldError(at + ".min", "must not be above max"));
      }
      if (h.type() == HyperparameterType.ENUM) {
        if (h.values().isEmpty()) {
          errors.add(new FieldError(at + ".values", "are required for an enum"));
        }
      } else if (!h.values().isEmpty()) {
        errors.add(new FieldError(at + ".values", "apply to an enum only"));
      }
      if (h.defaultValue() != null && boundsInRange) {
        try {
          HyperparameterValues.checked(h, h.defaultValue());
        } catch (IllegalArgumentException e) {
          errors.add(new FieldError(at + ".default", e.getMessage()));
        }
      }
    }
  }
}
