package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A quote on the fabric8 API server for a cluster whose pools take the EKS default reserve: the
 * offer says how many nodes of which pool each role group needs, and the submitted job's pods
 * select those pools.
 */
class NodeFitIT extends CrudServerTest {
  private static final String PS_AND_GPU_WORKERS =
      """
      framework: tensorflow
      image: registry.example.com/ranker:2.0
      replicas: {ps: 2, worker: 4}
      resources: {cpus: 3, memory: 8Gi}
      roles: {worker: {resources: {gpus: 2, gpuType: nvidia-a10g, cpus: 8, memory: 32Gi}}}
      """;

  @Override
  String configYaml() {
    return TestJobs.AWS_DEFAULT_RESERVE;
  }

  @Test
  void theQuoteCountsNodesPerPoolAndTheJobsPodsSelectThosePools() {
    var proposals = backend.placements(TestJobs.spec(PS_AND_GPU_WORKERS));
    assertThat(proposals.rejections()).isEmpty();
    assertThat(proposals.placements()).hasSize(1);
    var placement = proposals.placements().get(0);
    assertThat(NodeFitTest.describe(placement))
        .isEqualTo("ps@cpu(m5.2xlarge)×1 + worker@a10g(g5.12xlarge)×2");
    assertThat(placement.notes())
        .contains(
            "pool cpu (m5.2xlarge): 8 vCPUs, 32 GiB; allocatable 7.71 vCPUs, 30.78 GiB (EKS AMI"
                + " kube-reserved for 58 pods + eviction + daemon sets)");

    var job = job(PS_AND_GPU_WORKERS);
    submit(job);
    var tfJob =
        cluster
            .client()
            .genericKubernetesResources(KubeflowJobApi.context(JobKind.TF_JOB))
            .inNamespace("nlp-jobs")
            .withName(job.objectName())
            .get();
    assertThat(tfJob).isNotNull();
    @SuppressWarnings("unchecked")
    var specs = (Map<String, Object>) tfJob.getAdditionalProperties().get("spec");
    assertThat(nodeSelector(specs, "PS")).isEqualTo(Map.of("pool", "cpu"));
    assertThat(nodeSelector(specs, "Worker")).isEqualTo(Map.of("pool", "a10g"));
  }

  @SuppressWarnings("unchecked")
  private static Object nodeSelector(Map<String, Object> spec, String replicaType) {
    var replicas = (Map<String, Object>) spec.get("tfReplicaSpecs");
    var replica = (Map<String, Object>) replicas.get(replicaType);
    var template = (Map<String, Object>) replica.get("template");
    var podSpec = (Map<String, Object>) template.get("spec");
    return podSpec.get("nodeSelector");
  }
}
