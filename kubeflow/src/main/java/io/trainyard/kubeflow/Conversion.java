package io.trainyard.kubeflow;

import io.trainyard.spi.spec.TrainingJob;
import java.util.List;
import java.util.Objects;

/**
 * A Kubeflow document converted into a Trainyard spec.
 *
 * @param job the spec (not yet validated: the gateway runs the {@code JobSpecValidator} on it as on
 *     any spec)
 * @param warnings what was adjusted rather than carried as is, each {@code "<document path>: <what
 *     happened>"}; the gateway answers them in {@code warnings[]}
 */
public record Conversion(TrainingJob job, List<String> warnings) {
  public Conversion {
    Objects.requireNonNull(job, "job");
    warnings = List.copyOf(warnings);
  }
}
