package io.trainyard.backend.local;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.spec.Framework;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.spi.spec.RoleSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * Turns a job into the replicas the local backend starts, each with the environment the Kubeflow
 * Training Operator would give its pod, addresses pointing at this host. Pure apart from choosing
 * free ports, which the caller may replace.
 */
final class ReplicaPlanner {
  static final String HOST = "127.0.0.1";
  static final String HOSTFILE = "hostfile";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final IntSupplier freePort;

  ReplicaPlanner(IntSupplier freePort) {
    this.freePort = freePort;
  }

  /** A planner that asks the kernel for ports nothing listens on right now. */
  static ReplicaPlanner withFreePorts() {
    return new ReplicaPlanner(ReplicaPlanner::kernelFreePort);
  }

  /**
   * @param attemptDir the replicas' scratch directory (what they get as {@code
   *     TRAINYARD_ATTEMPT_DIR}, where the MPI hostfile is)
   */
  AttemptPlan plan(BackendJob job, Path attemptDir) {
    var spec = job.spec();
    var roles = spec.roleSpecs();
    var frameworkEnv = frameworkEnv(job, roles, attemptDir);
    var replicas = new ArrayList<ReplicaPlan>();
    int rank = 0;
    for (var role : roles) {
      for (int i = 0; i < role.replicas(); i++) {
        var name = role.name() + "-" + i;
        var env = new LinkedHashMap<String, String>();
        // Like the operator, which sets it for every PyTorch pod: logs should arrive as printed.
        env.put("PYTHONUNBUFFERED", "1");
        env.putAll(role.env());
        env.putAll(frameworkEnv.get(name));
        env.put("TRAINYARD_JOB_ID", job.jobId());
        env.put("TRAINYARD_ATTEMPT", Integer.toString(job.attempt()));
        env.put("TRAINYARD_REPLICA", name);
        env.put("TRAINYARD_ATTEMPT_DIR", attemptDir.toString());
        var command = new ArrayList<>(role.command());
        command.addAll(role.args());
        replicas.add(
            new ReplicaPlan(
                name, role.name(), i, rank, command, env, role.secretEnv(), role.restartPolicy()));
        rank++;
      }
    }
    var hostfile = spec.framework() == Framework.MPI ? hostfile(spec, roles) : (String) null;
    return new AttemptPlan(
        replicas, spec.effectiveMaxRestarts(), spec.maxRuntime(), hostfile, job.team());
  }

  /** Each replica's framework variables, by replica name. */
  private Map<String, Map<String, String>> frameworkEnv(
      BackendJob job, List<RoleSpec> roles, Path attemptDir) {
    var spec = job.spec();
    return switch (spec.framework()) {
      case PYTORCH -> torchEnv(spec, roles, true);
      case XGBOOST -> torchEnv(spec, roles, false);
      case TENSORFLOW -> tensorflowEnv(roles);
      case MPI -> mpiEnv(roles, attemptDir.resolve(HOSTFILE).toString());
      case PADDLE -> paddleEnv(job.objectName(), spec, roles);
      case JAX -> jaxEnv(spec, roles);
    };
  }

  /**
   * As training-operator v1.9.0 (6f74c7f6b2ed6c27aabd82d0a316b23f0646059c)
   * pkg/controller.v1/jax/envvar.go: the coordinator is worker 0, PROCESS_ID its worker index.
   */
  private Map<String, Map<String, String>> jaxEnv(JobSpec spec, List<RoleSpec> roles) {
    var port = Integer.toString(freePort.getAsInt());
    var processes = Integer.toString(spec.totalReplicas());
    var result = new LinkedHashMap<String, Map<String, String>>();
    for (var role : roles) {
      for (int i = 0; i < role.replicas(); i++) {
        var env = new LinkedHashMap<String, String>();
        env.put("COORDINATOR_PORT", port);
        env.put("COORDINATOR_ADDRESS", HOST);
        env.put("NUM_PROCESSES", processes);
        env.put("PROCESS_ID", Integer.toString(i));
        result.put(role.name() + "-" + i, env);
      }
    }
    return result;
  }

  /**
   * As training-operator v1.9.0 (6f74c7f6b2ed6c27aabd82d0a316b23f0646059c)
   * pkg/controller.v1/paddlepaddle/envvar.go: without masters the job is collective and worker 0 is
   * the rendezvous endpoint; with masters (PS mode) master 0 is, and each pod is one server or one
   * trainer. The endpoint replica learns its own address through POD_IP_DUMMY.
   */
  private Map<String, Map<String, String>> paddleEnv(
      String jobName, JobSpec spec, List<RoleSpec> roles) {
    var psMode = roles.stream().anyMatch(r -> r.name().equals("master"));
    var endpointRole = psMode ? "master" : "worker";
    var master = HOST + ":" + freePort.getAsInt();
    var nodes = Integer.toString(spec.totalReplicas());
    var result = new LinkedHashMap<String, Map<String, String>>();
    for (var role : roles) {
      for (int i = 0; i < role.replicas(); i++) {
        var env = new LinkedHashMap<String, String>();
        env.put("PADDLE_JOB_ID", jobName);
        env.put("PADDLE_NNODES", nodes);
        if (i == 0 && role.name().equals(endpointRole)) {
          env.put("POD_IP_DUMMY", HOST);
        }
        env.put("PADDLE_MASTER", master);
        if (psMode) {
          env.put(role.name().equals("master") ? "PADDLE_SERVER_NUM" : "PADDLE_TRAINER_NUM", "1");
        }
        result.put(role.name() + "-" + i, env);
      }
    }
    return result;
  }

  private Map<String, Map<String, String>> torchEnv(
      JobSpec spec, List<RoleSpec> roles, boolean torch) {
    var port = Integer.toString(freePort.getAsInt());
    var worldSize = Integer.toString(spec.totalReplicas());
    var result = new LinkedHashMap<String, Map<String, String>>();
    int rank = 0;
    for (var role : roles) {
      for (int i = 0; i < role.replicas(); i++) {
        var env = new LinkedHashMap<String, String>();
        env.put("MASTER_ADDR", HOST);
        env.put("MASTER_PORT", port);
        env.put("RANK", Integer.toString(rank));
        env.put("WORLD_SIZE", worldSize);
        if (torch) {
          env.put("LOCAL_RANK", "0");
          // torchrun reads these (PET_ = its environment prefix), as on Kubeflow
          env.put("PET_NPROC_PER_NODE", Integer.toString(spec.effectiveProcessesPerReplica()));
          env.put("PET_NNODES", worldSize);
          env.put("PET_NODE_RANK", Integer.toString(rank));
          env.put("PET_MASTER_ADDR", HOST);
          env.put("PET_MASTER_PORT", port);
        }
        result.put(role.name() + "-" + i, env);
        rank++;
      }
    }
    return result;
  }

  private Map<String, Map<String, String>> tensorflowEnv(List<RoleSpec> roles) {
    var cluster = new LinkedHashMap<String, List<String>>();
    for (var role : roles) {
      var addresses = new ArrayList<String>();
      for (int i = 0; i < role.replicas(); i++) {
        addresses.add(HOST + ":" + freePort.getAsInt());
      }
      // TensorFlow expects the evaluator outside the cluster: it only reads checkpoints.
      if (!role.name().equals("evaluator")) {
        cluster.put(role.name(), addresses);
      }
    }
    var result = new LinkedHashMap<String, Map<String, String>>();
    for (var role : roles) {
      for (int i = 0; i < role.replicas(); i++) {
        var tfConfig = new LinkedHashMap<String, Object>();
        tfConfig.put("cluster", cluster);
        tfConfig.put("task", Map.of("type", role.name(), "index", i));
        result.put(role.name() + "-" + i, Map.of("TF_CONFIG", json(tfConfig)));
      }
    }
    return result;
  }

  private static Map<String, Map<String, String>> mpiEnv(List<RoleSpec> roles, String hostfile) {
    var result = new LinkedHashMap<String, Map<String, String>>();
    for (var role : roles) {
      for (int i = 0; i < role.replicas(); i++) {
        // Open MPI 4 reads the first, Open MPI 5 (PRRTE) the second.
        result.put(
            role.name() + "-" + i,
            Map.of(
                "OMPI_MCA_orte_default_hostfile", hostfile,
                "PRTE_MCA_prte_default_hostfile", hostfile));
      }
    }
    return result;
  }

  /** Every worker slot on this host: mpirun in the launcher starts that many ranks here. */
  private static String hostfile(JobSpec spec, List<RoleSpec> roles) {
    int workers =
        roles.stream().filter(r -> r.name().equals("worker")).mapToInt(RoleSpec::replicas).sum();
    int slots = Math.max(1, workers) * spec.effectiveProcessesPerReplica();
    return HOST + " slots=" + slots + "\n";
  }

  private static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("TF_CONFIG is plain maps and lists", e);
    }
  }

  private static int kernelFreePort() {
    try (var socket = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free local port", e);
    }
  }
}
