package io.trainyard.backend.kubernetes;

import io.trainyard.spi.BackendJob;
import io.trainyard.spi.InstanceShapes;
import io.trainyard.spi.Placement;
import io.trainyard.spi.spec.JobSpec;

/**
 * The kubernetes module's package-private test parts (its test-jar), opened to the EKS tests: the
 * real catalog's shapes and the specs and jobs its own tests use. Lives in that module's package
 * only to reach them; it adds no behaviour.
 */
public final class KubernetesTestParts {
  /** A 1-master, 2-worker PyTorch job of one A10G-class GPU each, as the kubernetes ITs submit. */
  public static final String SPEC =
      """
      framework: pytorch
      image: registry.example.com/bert:1.4
      command: [python, train.py]
      resources: {gpus: 1, cpus: 4, memory: 16Gi}
      replicas: {master: 1, worker: 2}
      """;

  private KubernetesTestParts() {}

  /** The embedded price catalog's instance shapes (read from cost/'s CSV). */
  public static InstanceShapes catalogShapes() {
    return CatalogShapes.EMBEDDED;
  }

  /** A validated spec from the body of {@code spec:}. */
  public static JobSpec spec(String specYaml) {
    return TestJobs.spec(specYaml);
  }

  /** A job of team {@code nlp}, whose namespace is {@code nlp-jobs}. */
  public static BackendJob job(JobSpec spec, Placement placement) {
    return TestJobs.job(spec, placement);
  }

  /** The Kubeflow v1 CRDs, as a YAML resource path for {@code client.load(...)}. */
  public static String crdsResource() {
    return "/crds/kubeflow-v1.yaml";
  }
}
