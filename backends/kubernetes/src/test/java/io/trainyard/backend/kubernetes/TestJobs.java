package io.trainyard.backend.kubernetes;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.trainyard.spi.BackendJob;
import io.trainyard.spi.Placement;
import io.trainyard.spi.spec.JobSpec;
import io.trainyard.testkit.TestSpecs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/** Specs and config blocks for tests, read from YAML the way the gateway reads them. */
public final class TestJobs {
  public static final ObjectMapper YAML = TestSpecs.YAML;

  /** The block of issue 4, as an operator writes it (kubeconfig left out: tests hand a client). */
  public static final String ONPREM_A =
      """
      type: kubernetes
      id: onprem-a
      region: dc-frankfurt
      hipaaEligible: false
      discountPct: 0
      flavor: kubeflow-v1
      kueueQueue: team-queue
      admissionTimeout: 10m
      feeUsdPerHour: 0.10
      provider: onprem
      nodePools:
        - {name: dgx, instanceType: dgx-a100, cpus: 128, memory: 1Ti, gpuType: nvidia-a100-40gb, gpus: 8, usdPerNodeHour: 12.0, maxNodes: 4}
      """;

  /** An AWS-priced cluster with the brief's catalog-shaped pools. */
  public static final String AWS_POOLS =
      """
      type: kubernetes
      id: k8s-use1
      region: us-east-1
      admissionTimeout: 2m
      feeUsdPerHour: 0.10
      provider: aws
      nodePools:
        - {name: cpu, instanceType: m5.2xlarge, maxNodes: 20, reserved: {cpus: 0.5, memory: 2Gi}}
        - {name: a10g, instanceType: g5.12xlarge, maxNodes: 8, spot: true, labels: {pool: a10g}, taints: [{key: nvidia.com/gpu, effect: NoSchedule}]}
        - {name: a10g-od, instanceType: g5.12xlarge, maxNodes: 2, labels: {pool: a10g-od}, taints: [{key: nvidia.com/gpu, effect: NoSchedule}]}
      """;

  /**
   * An AWS cluster whose pools say nothing of reserved: node fit at the EKS defaults. The spot pool
   * has room where the on-demand GPU pool has not.
   */
  public static final String AWS_DEFAULT_RESERVE =
      """
      type: kubernetes
      id: k8s-fit
      region: us-east-1
      provider: aws
      nodePools:
        - {name: cpu, instanceType: m5.2xlarge, maxNodes: 10, labels: {pool: cpu}}
        - {name: a10g, instanceType: g5.12xlarge, maxNodes: 3, labels: {pool: a10g}, taints: [{key: nvidia.com/gpu, effect: NoSchedule}]}
        - {name: a10g-spot, instanceType: g5.12xlarge, maxNodes: 8, spot: true, labels: {pool: a10g-spot}, taints: [{key: nvidia.com/gpu, effect: NoSchedule}]}
      """;

  /** The AWS pools, rendering Kubeflow Trainer TrainJobs on torch-distributed, through Kueue. */
  public static final String TRAINER_V2 =
      AWS_POOLS.replace(
          "provider: aws\n",
          "provider: aws\nflavor: trainer-v2\ntrainerRuntime: torch-distributed\n"
              + "kueueQueue: team-queue\n");

  private TestJobs() {}

  /** A valid spec from the body of {@code spec:}; checked by the validator. */
  public static JobSpec spec(String specYaml) {
    return TestSpecs.spec(specYaml);
  }

  public static KubernetesConfig config(String yaml) {
    try {
      return YAML.readValue(yaml, KubernetesConfig.class);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static BackendJob job(JobSpec spec, Placement placement) {
    return job(newJobId(), spec, "0".repeat(64), placement);
  }

  public static BackendJob job(String jobId, JobSpec spec, String specHash, Placement placement) {
    return new BackendJob(
        jobId,
        1,
        "nlp",
        "alice",
        "bert",
        spec,
        specHash,
        placement,
        Map.of("namespace", "nlp-jobs"));
  }

  /** A random lower-case ULID-shaped id. */
  public static String newJobId() {
    return TestSpecs.newJobId();
  }
}
