package io.trainyard.testkit;

import io.trainyard.spi.spec.JobSpec;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The specs {@link TrainingBackendContract} asks every backend to place: valid (the gateway would
 * pass them on), but spread over what backends differ on — GPU counts and types no one has,
 * accelerators that are not GPUs, regions, spot, replica counts, every framework, Kubernetes-only
 * fields, secrets, compliance. A backend may offer or refuse each; it may not throw, and it must
 * say why it refuses.
 */
public final class ContractSpecs {
  private static final String IMAGE = "image: registry.example.com/train:1.0\n";
  private static final String COMMAND = "command: [python, train.py]\n";

  private ContractSpecs() {}

  /** Every spec by a name that says what it probes, in a stable order. */
  public static Map<String, JobSpec> all() {
    var specs = new LinkedHashMap<String, JobSpec>();
    add(specs, "cpu-only, one replica", "replicas: {master: 1}\nresources: {cpus: 1, memory: 1Gi}");
    add(
        specs,
        "a fraction of a CPU",
        "replicas: {master: 1}\nresources: {cpus: 0.1, memory: 64Mi}");
    add(specs, "no resources at all", "replicas: {master: 1}");
    add(
        specs,
        "64 GPUs per replica on 1000 workers",
        "replicas: {master: 1, worker: 1000}\n"
            + "resources: {gpus: 64, gpuType: nvidia-h100-80gb, cpus: 96, memory: 1Ti}");
    add(
        specs,
        "a GPU type no one sells",
        "replicas: {master: 1}\nresources: {gpus: 1, gpuType: acme-warp-9000}");
    add(
        specs,
        "a TPU where a GPU type goes",
        "replicas: {master: 1}\nresources: {gpus: 8, gpuType: tpu-v5e}");
    add(specs, "any GPU type", "replicas: {master: 1, worker: 1}\nresources: {gpus: 1}");
    add(
        specs,
        "10000 CPUs and 64Ti per replica",
        "replicas: {master: 1}\nresources: {cpus: 10000, memory: 64Ti}");
    add(
        specs,
        "only a region that does not exist",
        "replicas: {master: 1}\nplacement: {regions: [mars-north-1]}");
    add(
        specs,
        "several regions",
        "replicas: {master: 1}\nplacement: {regions: [us-east-1, us-central1, europe-west4]}");
    add(specs, "spot required", "replicas: {master: 1}\nplacement: {spot: required}");
    add(
        specs,
        "spot never, GPU",
        "replicas: {master: 1}\nresources: {gpus: 1, gpuType: nvidia-t4}\n"
            + "placement: {spot: never}");
    add(
        specs,
        "an allow-list naming another backend",
        "replicas: {master: 1}\nplacement: {backends: [some-other-backend]}");
    add(
        specs,
        "a price cap no one meets",
        "replicas: {master: 1}\nplacement: {maxHourlyUsd: 0.0001}");
    add(specs, "1000 CPU workers", "replicas: {master: 1, worker: 1000}");
    put(
        specs,
        "tensorflow, every role",
        "framework: tensorflow\nreplicas: {chief: 1, ps: 2, worker: 4, evaluator: 1}");
    put(
        specs,
        "mpi, CPU launcher and GPU workers",
        "framework: mpi\nreplicas: {launcher: 1, worker: 2}\nprocessesPerReplica: 8\n"
            + "roles: {worker: {resources: {gpus: 8, gpuType: nvidia-a100-80gb, cpus: 32,"
            + " memory: 256Gi}}}");
    put(specs, "xgboost", "framework: xgboost\nreplicas: {master: 1, worker: 3}");
    put(specs, "paddle, parameter servers", "framework: paddle\nreplicas: {master: 2, worker: 4}");
    put(specs, "jax", "framework: jax\nreplicas: {worker: 4}");
    add(
        specs,
        "pytorch elastic",
        "replicas: {master: 1, worker: 2}\nelastic: {minReplicas: 1, maxReplicas: 4}");
    add(
        specs,
        "a PVC volume (Kubernetes only)",
        "replicas: {master: 1}\nvolumes: [{name: data, claim: data-pvc, mountPath: /mnt}]");
    add(
        specs,
        "a pod template (Kubernetes only)",
        "replicas: {master: 1}\nkubernetes: {podTemplate: {nodeSelector: {pool: a10g}}}");
    add(
        specs,
        "a secret in the environment",
        "replicas: {master: 1}\nsecretEnv: {API_TOKEN: {secret: wandb, key: api-key}}");
    add(specs, "phi data", "replicas: {master: 1}\ncompliance: {dataClassification: phi}");
    add(
        specs,
        "inputs, output and checkpoint on three clouds",
        "replicas: {master: 1}\ninputs: [{name: a, uri: s3://b/a/}, {name: b, uri: gs://b/b/}]\n"
            + "output: {uri: https://acct.blob.core.windows.net/out/}\n"
            + "checkpoint: {uri: s3://ckpt/x/}");
    return specs;
  }

  /** A pytorch job. */
  private static void add(Map<String, JobSpec> specs, String name, String body) {
    put(specs, name, "framework: pytorch\n" + body);
  }

  /** A job whose body names its framework. */
  private static void put(Map<String, JobSpec> specs, String name, String body) {
    specs.put(name, TestSpecs.spec(IMAGE + COMMAND + body + "\n"));
  }
}
