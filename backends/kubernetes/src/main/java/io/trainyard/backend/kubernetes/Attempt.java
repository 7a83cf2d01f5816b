package io.trainyard.backend.kubernetes;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.trainyard.spi.BackendException;
import io.trainyard.spi.ExternalRef;
import java.util.Map;

/**
 * Where an attempt's object is: its kind, namespace and name, as kept in its {@link ExternalRef}.
 * Public for tests of other modules that act as the cluster's operator.
 */
public record Attempt(JobKind kind, String namespace, String name) {
  static final String NAMESPACE = "namespace";
  static final String KIND = "kind";

  /** Only on references to an MPI Operator v2 MPIJob, whose kind name is the v1 MPIJob's. */
  static final String API_VERSION = "apiVersion";

  public static Attempt of(ExternalRef ref) {
    var kind =
        JobKind.fromKind(
            ref.attributes().getOrDefault(KIND, ""), ref.attributes().get(API_VERSION));
    var namespace = ref.attributes().get(NAMESPACE);
    if (kind.isEmpty() || namespace == null) {
      // Through status, cancel or logs: typed, so the gateway sees a lost object, not a crash.
      throw new BackendException.NotFound(
          "not a reference to a Kubeflow job or TrainJob: " + ref.name() + " " + ref.attributes(),
          null);
    }
    return new Attempt(kind.get(), namespace, ref.name());
  }

  static Attempt of(JobKind kind, GenericKubernetesResource job) {
    return new Attempt(kind, job.getMetadata().getNamespace(), job.getMetadata().getName());
  }

  ExternalRef ref(String backendId) {
    if (kind == JobKind.MPI_JOB_V2) {
      return new ExternalRef(
          backendId,
          name,
          Map.of(NAMESPACE, namespace, KIND, kind.kind(), API_VERSION, kind.apiVersion()));
    }
    return new ExternalRef(backendId, name, Map.of(NAMESPACE, namespace, KIND, kind.kind()));
  }

  @Override
  public String toString() {
    return kind.kind() + " " + namespace + "/" + name;
  }
}
