package io.trainyard.spi.spec;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * MPI settings that only the MPI Operator v2 ({@code kubeflow.org/v2beta1} MPIJob) can honour,
 * named as that MPIJob's spec names them (kubeflow/mpi-operator {@code
 * pkg/apis/kubeflow/v2beta1/types.go}). Job-wide: they live in {@code spec.kubernetes.mpi}. Every
 * field is optional; null means the operator's default, which is also what every other backend
 * does. A value other than the default makes the job Kubernetes-only ({@link KubernetesOnly}):
 * managed backends and the local backend reject it, naming the field. Immutable.
 *
 * @param implementation {@code OpenMPI} (the operator's default), {@code Intel} or {@code MPICH}
 * @param launcherCreationPolicy {@code AtStartup} (default) or {@code WaitForWorkersReady}
 * @param sshAuthMountPath absolute directory the SSH keys are mounted at ({@code /root/.ssh} by
 *     default)
 * @param runLauncherAsWorker whether the launcher pod is also one of the hosts that run ranks
 *     ({@code false} by default)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MpiOptions(
    String implementation,
    String launcherCreationPolicy,
    String sshAuthMountPath,
    Boolean runLauncherAsWorker) {
  public static final String DEFAULT_IMPLEMENTATION = "OpenMPI";
  public static final String DEFAULT_LAUNCHER_CREATION_POLICY = "AtStartup";
  public static final String DEFAULT_SSH_AUTH_MOUNT_PATH = "/root/.ssh";
  public static final Set<String> IMPLEMENTATIONS = Set.of("OpenMPI", "Intel", "MPICH");
  public static final Set<String> LAUNCHER_CREATION_POLICIES =
      Set.of("AtStartup", "WaitForWorkersReady");

  /** Settings with the launcher kept off the hosts (the operator's default). */
  public MpiOptions(String implementation, String launcherCreationPolicy, String sshAuthMountPath) {
    this(implementation, launcherCreationPolicy, sshAuthMountPath, null);
  }

  /** True when every field is null or the operator's default. */
  @JsonIgnore
  public boolean isDefault() {
    return nonDefaultFields().isEmpty();
  }

  /** The fields set to something other than the operator's default, as {@code implementation}. */
  @JsonIgnore
  public List<String> nonDefaultFields() {
    var result = new ArrayList<String>();
    if (implementation != null && !implementation.equals(DEFAULT_IMPLEMENTATION)) {
      result.add("implementation");
    }
    if (launcherCreationPolicy != null
        && !launcherCreationPolicy.equals(DEFAULT_LAUNCHER_CREATION_POLICY)) {
      result.add("launcherCreationPolicy");
    }
    if (sshAuthMountPath != null && !sshAuthMountPath.equals(DEFAULT_SSH_AUTH_MOUNT_PATH)) {
      result.add("sshAuthMountPath");
    }
    if (Boolean.TRUE.equals(runLauncherAsWorker)) {
      result.add("runLauncherAsWorker");
    }
    return result;
  }

  /** Errors for {@code path} ({@code spec.kubernetes.mpi}), each naming its field. */
  public List<FieldError> validate(String path) {
    var errors = new ArrayList<FieldError>();
    if (implementation != null && !IMPLEMENTATIONS.contains(implementation)) {
      errors.add(
          new FieldError(
              path + ".implementation",
              "'" + implementation + "' must be one of OpenMPI, Intel, MPICH"));
    }
    if (launcherCreationPolicy != null
        && !LAUNCHER_CREATION_POLICIES.contains(launcherCreationPolicy)) {
      errors.add(
          new FieldError(
              path + ".launcherCreationPolicy",
              "'" + launcherCreationPolicy + "' must be AtStartup or WaitForWorkersReady"));
    }
    if (sshAuthMountPath != null
        && (!sshAuthMountPath.startsWith("/")
            || sshAuthMountPath.length() > 1024
            || sshAuthMountPath.chars().anyMatch(Character::isISOControl))) {
      errors.add(
          new FieldError(
              path + ".sshAuthMountPath", "must be an absolute path, e.g. /home/mpiuser/.ssh"));
    }
    return errors;
  }
}
