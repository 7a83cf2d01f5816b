package io.trainyard.spi.spec;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * What in a spec only Kubernetes backends can do: PersistentVolumeClaim volumes, pod template
 * fields, gang scheduling, the parts of a Kubeflow Trainer TrainJob kept for a Trainer cluster.
 * Managed platforms reject a placement with these reasons, worded for the quote table.
 */
public final class KubernetesOnly {
  private KubernetesOnly() {}

  /** One reason per Kubernetes-only feature {@code spec} uses; empty when it uses none. */
  public static List<String> reasons(JobSpec spec) {
    var reasons = new ArrayList<String>();
    if (!spec.volumes().isEmpty()) {
      reasons.add(
          "spec.volumes mounts PersistentVolumeClaims, which only Kubernetes backends can do");
    }
    var podKeys = new LinkedHashSet<String>();
    var gang = false;
    for (var role : spec.roleSpecs()) {
      podKeys.addAll(role.kubernetes().podTemplate().keySet());
      gang |= role.kubernetes().scheduling() != null && !role.kubernetes().scheduling().isEmpty();
    }
    if (!podKeys.isEmpty()) {
      reasons.add(
          "spec.kubernetes.podTemplate sets "
              + String.join(", ", podKeys)
              + ", which only Kubernetes backends can honour");
    }
    var trainer =
        spec.kubernetes() == null ? List.<String>of() : spec.kubernetes().trainerOnlyFields();
    if (!trainer.isEmpty()) {
      reasons.add(
          "spec.kubernetes.trainJob carries the TrainJob's "
              + String.join(", ", trainer)
              + ", which only a Kubeflow Trainer cluster (flavor trainer-v2) can honour");
    }
    var mpi = spec.kubernetes() == null ? null : spec.kubernetes().mpi();
    if (mpi != null && !mpi.isDefault()) {
      reasons.add(
          "spec.kubernetes.mpi sets "
              + String.join(", ", mpi.nonDefaultFields())
              + ", which only the MPI Operator v2 (a Kubernetes cluster with mpiOperator:"
              + " mpi-operator-v2) can honour");
    }
    if (gang) {
      reasons.add(
          "spec.kubernetes.scheduling asks for gang scheduling, which only Kubernetes does");
    }
    return reasons;
  }
}
