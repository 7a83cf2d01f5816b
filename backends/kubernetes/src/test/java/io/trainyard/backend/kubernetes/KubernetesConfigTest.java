package io.trainyard.backend.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonMappingException;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KubernetesConfigTest {

  /** Issue 4's block with every key; provider aws, as the catalog-shaped pools need. */
  private static final String FULL =
      """
      type: kubernetes
      id: onprem-a
      region: us-east-1
      kubeconfig: /etc/trainyard/onprem-a.kubeconfig
      context: onprem-a
      hipaaEligible: false
      discountPct: 0
      flavor: kubeflow-v1
      kueueQueue: team-queue
      admissionTimeout: 10m
      feeUsdPerHour: 0.10
      provider: aws
      nodePools:
        - {name: dgx, instanceType: dgx-a100, cpus: 128, memory: 1Ti, gpuType: nvidia-a100-40gb, gpus: 8, usdPerNodeHour: 12.0, maxNodes: 4}
        - {name: cpu, instanceType: m5.2xlarge, maxNodes: 20, reserved: {cpus: 0.5, memory: 2Gi}}
        - {name: a10g, instanceType: g5.12xlarge, maxNodes: 8, spot: true, labels: {pool: a10g}, taints: [{key: nvidia.com/gpu, effect: NoSchedule}]}
        - {name: t4, instanceType: n1-standard-8, accelerator: {gpuType: nvidia-t4, gpus: 1}, maxNodes: 10}
      """;

  @Test
  void theIssuesBlockBindsWithEveryKey() {
    var config = TestJobs.config(FULL);
    assertThat(config.kubeconfigPath()).hasToString("/etc/trainyard/onprem-a.kubeconfig");
    assertThat(config.context()).isEqualTo("onprem-a");
    var cluster = config.settings();
    assertThat(cluster.backendId()).isEqualTo("onprem-a");
    assertThat(cluster.kueueQueue()).isEqualTo("team-queue");
    assertThat(cluster.admissionTimeout()).isEqualTo(Duration.ofMinutes(10));
    assertThat(cluster.feeUsdPerHour()).isEqualByComparingTo("0.10");
    assertThat(cluster.totalMaxNodes()).isEqualTo(42);
    assertThat(cluster.catalogService()).isEqualTo("ec2");
    var pools = cluster.nodePools();
    assertThat(pools.get(0).usdPerNodeHour()).isEqualByComparingTo(BigDecimal.valueOf(12));
    assertThat(pools.get(1).reserved().memoryGiB()).isEqualTo(2.0);
    assertThat(pools.get(2).isSpot()).isTrue();
    assertThat(pools.get(2).labels()).isEqualTo(Map.of("pool", "a10g"));
    assertThat(pools.get(2).taints().get(0).toleration())
        .isEqualTo(Map.of("key", "nvidia.com/gpu", "operator", "Exists", "effect", "NoSchedule"));
    assertThat(pools.get(3).accelerator().gpus()).isEqualTo(1);
  }

  @Test
  void aMinimalOnPremBlockTakesTheDefaults() {
    var config = TestJobs.config(TestJobs.ONPREM_A.replace("kueueQueue: team-queue\n", ""));
    var cluster = config.settings();
    assertThat(config.kubeconfigPath()).isNull();
    assertThat(cluster.flavor()).isEqualTo("kubeflow-v1");
    assertThat(cluster.kueueQueue()).isNull();
    assertThat(cluster.provider()).isEqualTo("onprem");
    assertThat(config.hipaaEligible()).isFalse();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "flavor: trainer-v2 | trainerRuntime is required with flavor trainer-v2",
        "flavor: kubeflow-v3 | flavor must be kubeflow-v1 or trainer-v2, not kubeflow-v3",
        "trainerRuntime: torch-distributed | trainerRuntime applies only to flavor trainer-v2",
        "provider: azure | provider must be one of onprem, aws, gcp",
        "admissionTimeout: soon | admissionTimeout: 'soon' is not a duration",
        "feeUsdPerHour: -1 | feeUsdPerHour must be 0 or more",
        "nodePools: [] | nodePools must name at least one pool",
        "nodePools: [{name: x, instanceType: m5.2xlarge, maxNodes: 0}] | nodePools.x.maxNodes must be at least 1",
        "nodePools: [{name: x, instanceType: m5.2xlarge, cpus: 8, maxNodes: 1}] | cpus and memory go together",
        "nodePools: [{name: x, instanceType: m5.2xlarge, maxNodes: 1}, {name: x, instanceType: c5.4xlarge, maxNodes: 1}] | two pools are named x",
        "nodePools: [{name: x, instanceType: m5.2xlarge, maxNodes: 1}, {name: y, instanceType: m5.2xlarge, maxNodes: 1}] | two on-demand pools of m5.2xlarge",
        "nodePools: [{name: x, instanceType: m5.2xlarge, maxNodes: 1, memory: lots, cpus: 1}] | nodePools.x.memory: 'lots' is not a memory quantity",
      })
  void invalidBlocksAreRefusedNamingTheField(String line, String message) {
    var yaml = "type: kubernetes\nid: k\nregion: us-east-1\nprovider: aws\n" + line + "\n";
    if (!line.startsWith("nodePools")) {
      yaml += "nodePools: [{name: cpu, instanceType: m5.2xlarge, maxNodes: 1}]\n";
    }
    var finalYaml = yaml.replace("provider: aws\nprovider: azure", "provider: azure");
    assertThatThrownBy(() -> TestJobs.config(finalYaml))
        .isInstanceOf(java.io.UncheckedIOException.class)
        .cause()
        .isInstanceOf(JsonMappingException.class)
        .hasMessageContaining(message);
  }

  @Test
  void onPremPoolsMustBeDeclaredAndPricedByTheOperator() {
    var yaml =
        """
        type: kubernetes
        id: onprem-a
        region: dc-frankfurt
        nodePools: [{name: cpu, instanceType: m5.2xlarge, maxNodes: 20}]
        """;
    assertThatThrownBy(() -> TestJobs.config(yaml))
        .hasMessageContaining(
            "nodePools.cpu: with provider onprem every pool needs cpus, memory and usdPerNodeHour");
  }
}
