package io.trainyard.backend.kubernetes;

import io.trainyard.spi.BackendJob;
import io.trainyard.spi.InstanceShapes;
import io.trainyard.spi.Placement;
import io.trainyard.spi.spec.JobSpec;

/**
 * Opens the kubernetes module's package-private test fixtures (its test-jar) to the GKE tests, so
 * they read specs and catalog shapes exactly as the kubernetes tests do.
 */
public final class KubernetesFixtures {
  private KubernetesFixtures() {}

  /** Instance shapes read from the real price catalog in cost/. */
  public static InstanceShapes catalogShapes() {
    return CatalogShapes.EMBEDDED;
  }

  /** A validated spec from the body of {@code spec:}. */
  public static JobSpec spec(String specYaml) {
    return TestJobs.spec(specYaml);
  }

  /** A job of team {@code nlp}, namespace {@code nlp-jobs}, attempt 1, on {@code placement}. */
  public static BackendJob job(JobSpec spec, Placement placement) {
    return TestJobs.job(spec, placement);
  }
}
