package io.trainyard.backend.vertex;

import com.google.cloud.aiplatform.v1.AcceleratorType;
import com.google.cloud.aiplatform.v1.ContainerSpec;
import com.google.cloud.aiplatform.v1.CustomJob;
import com.google.cloud.aiplatform.v1.CustomJobSpec;
import com.google.cloud.aiplatform.v1.EncryptionSpec;
import com.google.cloud.aiplatform.v1.EnvVar;
import com.google.cloud.aiplatform.v1.GcsDestination;
import com.google.cloud.aiplatform.v1.MachineSpec;
import com.google.cloud.aiplatform.v1.Scheduling;
import com.google.cloud.aiplatform.v1.WorkerPoolSpec;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.Placement;
import io.trainyard.spi.PlacementLine;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.RestartPolicy;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Builds the CustomJob of an attempt: a pure function of the attempt, the chosen placement and the
 * backend's configuration, so it gets table-driven tests without a server.
 */
final class VertexJobMapper {
  private final VertexConfig config;
  private final VertexPlacements placements;

  VertexJobMapper(VertexConfig config, VertexPlacements placements) {
    this.config = config;
    this.placements = placements;
  }

  CustomJob customJob(BackendJob job, Placement placement) {
    var spec = job.spec();
    var jobSpec = CustomJobSpec.newBuilder().setScheduling(scheduling(spec, placement.spot()));
    for (var pool : VertexWorkerPools.of(spec).pools()) {
      jobSpec.addWorkerPoolSpecs(
          pool == null ? WorkerPoolSpec.getDefaultInstance() : workerPool(job, placement, pool));
    }
    if (config.serviceAccount() != null) {
      jobSpec.setServiceAccount(config.serviceAccount());
    }
    if (config.network() != null) {
      jobSpec.setNetwork(config.network());
    }
    var output = outputDirectory(job);
    if (output != null) {
      jobSpec.setBaseOutputDirectory(GcsDestination.newBuilder().setOutputUriPrefix(output));
    }
    var customJob =
        CustomJob.newBuilder()
            .setDisplayName(job.objectName())
            .putAllLabels(VertexLabels.of(job))
            .setJobSpec(jobSpec);
    if (config.encryptionKmsKey() != null) {
      customJob.setEncryptionSpec(
          EncryptionSpec.newBuilder().setKmsKeyName(config.encryptionKmsKey()));
    }
    return customJob.build();
  }

  private WorkerPoolSpec workerPool(
      BackendJob job, Placement placement, VertexWorkerPools.Pool pool) {
    var role = pool.role();
    var line = lineOf(placement, role.name());
    var machine = MachineSpec.newBuilder().setMachineType(line.instanceType());
    if (line.gpus() > 0) {
      var accelerator =
          placements
              .machine(line.instanceType(), line.gpuType())
              .map(VertexPlacements.Machine::acceleratorType)
              .or(() -> VertexMachineType.acceleratorOf(line.gpuType()))
              .orElseThrow(
                  () -> new IllegalStateException("no Vertex accelerator for " + line.gpuType()));
      machine
          .setAcceleratorType(AcceleratorType.valueOf(accelerator))
          .setAcceleratorCount(line.gpus());
    }
    var container = ContainerSpec.newBuilder().setImageUri(role.image());
    container.addAllCommand(role.command()).addAllArgs(role.args());
    environment(job, pool)
        .forEach((k, v) -> container.addEnv(EnvVar.newBuilder().setName(k).setValue(v)));
    return WorkerPoolSpec.newBuilder()
        .setMachineSpec(machine)
        .setReplicaCount(pool.replicas())
        .setContainerSpec(container)
        .build();
  }

  private static PlacementLine lineOf(Placement placement, String role) {
    return placement.lines().stream()
        .filter(l -> l.roles().contains(role))
        .findFirst()
        .orElseThrow(() -> new IllegalStateException("the placement has no line for " + role));
  }

  /**
   * The role's env plus what tells a replica who it is: Vertex numbers tasks per pool, and {@code
   * TRAINYARD_REPLICA_OFFSET} turns the pool's task index into our replica index.
   */
  private Map<String, String> environment(BackendJob job, VertexWorkerPools.Pool pool) {
    var spec = job.spec();
    var env = new LinkedHashMap<>(pool.role().env());
    env.put("TRAINYARD_JOB_ID", job.jobId());
    env.put("TRAINYARD_ATTEMPT", Integer.toString(job.attempt()));
    env.put("TRAINYARD_ROLE", pool.role().name());
    env.put("TRAINYARD_REPLICA_OFFSET", Integer.toString(pool.firstIndex()));
    env.put(
        "TRAINYARD_PROCESSES_PER_REPLICA", Integer.toString(spec.effectiveProcessesPerReplica()));
    for (var input : spec.inputs()) {
      env.put("TRAINYARD_INPUT_" + envName(input.name()), input.uri());
    }
    if (spec.checkpoint() != null) {
      env.put("TRAINYARD_CHECKPOINT_URI", spec.checkpoint().uri());
    }
    pool.role()
        .secretEnv()
        .forEach(
            (name, ref) ->
                env.put(
                    name + "_SECRET_VERSION",
                    config
                        .secretVersion(ref)
                        .orElseThrow(() -> new IllegalStateException("unmapped secret " + name))));
    return env;
  }

  /**
   * Timeout from maxRuntime; Spot VMs when the placement is spot; and, unless the spec says
   * restartPolicy Never, restart the whole job when a worker restarts, since a distributed job's
   * ranks cannot rejoin one by one.
   */
  private static Scheduling scheduling(JobSpec spec, boolean spot) {
    var scheduling = Scheduling.newBuilder();
    spec.maxRuntimeDuration()
        .ifPresent(
            d ->
                scheduling.setTimeout(
                    com.google.protobuf.Duration.newBuilder().setSeconds(d.toSeconds())));
    scheduling.setRestartJobOnWorkerRestart(spec.effectiveRestartPolicy() != RestartPolicy.NEVER);
    if (spot) {
      scheduling.setStrategy(Scheduling.Strategy.SPOT);
    }
    return scheduling.build();
  }

  private String outputDirectory(BackendJob job) {
    var output = job.spec().output();
    if (output != null && output.uri() != null) {
      return output.uri();
    }
    var base = config.baseOutputDirectory();
    if (base == null) {
      return null;
    }
    return (base.endsWith("/") ? base : base + "/") + job.objectName() + "/";
  }

  private static String envName(String name) {
    return name.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9_]", "_");
  }
}
